// A restart a link still owes survives `pulumi refresh` (issue 43), under the real CLI: a link added to an app that
// runs, whose restart fails (the simulator answers it 503, and the provider is told not to retry), then a refresh,
// then an up: the app is restarted after the link, and starts with the link's variables.
import * as hosting from "@hosting/pulumi";
import { PROJECT_ID, useE2E } from "./harness";

const e2e = useE2E();

const IMAGE = "registry.example.com/team/api:1.0.0";
const restartsSince = (mark: number, id: string) =>
  e2e.sim.control
    .requests()
    .slice(mark)
    .filter((r) => r.method === "POST" && r.path === `/v1/projects/${PROJECT_ID}/containers/${id}/restart`)
    .map((r) => r.status);

afterEach(() => {
  e2e.sim.control.clearFaults();
  e2e.sim.control.setSwitches({ appsRequireEnv: [] });
});

/** The app, and whether it has the link's variable: a start without it fails under the switch. */
const app = (name: string) => e2e.records("services").find((s) => s.name === name);

test("Container.links: the restart a new link owes, failed, survives `pulumi refresh`; the next up restarts the app with the link's variables", async () => {
  let linked = false;
  const stack = await e2e.stack(
    "link-restart",
    "dev",
    async () => {
      const db = new hosting.Postgres("db", { name: "owed-db" });
      const api = new hosting.Container("api", { name: "owed-api", image: IMAGE, links: linked ? [db.id] : [] });
      return { links: api.links };
    },
    { "hosting:maxRetries": { value: "0" } },
  );
  await stack.up();
  const id = app("owed-api").id;
  e2e.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });

  linked = true;
  e2e.sim.control.injectFault({ kind: "status", status: 503, method: "POST", path: "/restart$" });
  await expect(stack.up()).rejects.toThrow(/was updated only in part: .*HTTP 503/);
  expect(e2e.records("links").map((l) => l.consumer_service_id)).toEqual([id]);

  const refresh = await stack.refresh();
  expect(refresh.stdout).toMatch(/has not read the variables of its link to/);

  const mark = e2e.sim.control.requests().length;
  const up = await stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(restartsSince(mark, id)).toEqual([204]);
  expect(app("owed-api").status).toBe("running");
  const links = (await stack.outputs()).links.value;
  expect(links).toEqual([e2e.records("services").find((s) => s.name === "owed-db").id]);
  expect((await stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 3 });
});

test("ServiceLink: the restart its consumer owes, failed, survives `pulumi refresh`; the next up restarts the app with the link's variables", async () => {
  let linked = false;
  const stack = await e2e.stack(
    "service-link-restart",
    "dev",
    async () => {
      const db = new hosting.Postgres("db", { name: "owed-db-2" });
      const web = new hosting.Container("web", { name: "owed-web", image: IMAGE });
      if (linked) new hosting.ServiceLink("web-db", { consumerServiceId: web.id, providerServiceId: db.id });
      return {};
    },
    { "hosting:maxRetries": { value: "0" } },
  );
  await stack.up();
  const id = app("owed-web").id;
  e2e.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });

  linked = true;
  e2e.sim.control.injectFault({ kind: "status", status: 503, method: "POST", path: "/restart$" });
  await expect(stack.up()).rejects.toThrow(/the link was made, but restarting container owed-web .*HTTP 503/);

  const refresh = await stack.refresh();
  expect(refresh.stdout).toMatch(/has not restarted to read the variables of the link to/);

  const mark = e2e.sim.control.requests().length;
  const up = await stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(restartsSince(mark, id)).toEqual([204]);
  expect(app("owed-web").status).toBe("running");
  expect((await stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 4 });
});
