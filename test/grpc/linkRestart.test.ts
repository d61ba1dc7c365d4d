// A restart a link still owes survives a refresh (issue 43). A link made whose restart failed asks for no refresh
// before the next update (a Read finds the link made), but `pulumi refresh` and `pulumi up --refresh` read it anyway:
// the state records that the app has not read the link's variables (a Container's `linksAwaitingRestart`, a
// ServiceLink's `awaitingRestart`), the Read carries it forward while the app has not been stopped, and keeps the
// resource unfinished; the next up restarts the app, which then starts with the link's variables.
import { ALICE } from "../../simulator/src";
import { DIFF_SOME, Engine, Plugin, plain, type ResourceState } from "./engine";
import { CONTAINER, LINK, POSTGRES, PROJECT, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/api:1.0.0";

/** A plugin that gives up after one retry, so that a fault met twice fails the restart for good. */
let impatient: Plugin;
let db: ResourceState;
beforeAll(async () => {
  impatient = await Plugin.start();
  await impatient.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT, maxRetries: 1 });
  db = await engine().created(POSTGRES, "owed-db", { name: "owed-db" });
});
afterAll(() => impatient?.stop());
afterEach(() => {
  fixture.sim.control.clearFaults();
  fixture.sim.control.setSwitches({ appsRequireEnv: [] });
});

const app = (id: string) => fixture.sim.control.snapshot().services.find((s) => s.id === id)!;
const failRestartsTwice = () =>
  fixture.sim.control.injectFault({ kind: "status", status: 503, times: 2, method: "POST", path: "/restart$" });

/** An app that runs without links (it needs none yet); from here on, an app without DATABASE_URL fails to start. */
async function runningApp(name: string): Promise<ResourceState> {
  const state = await engine().created(CONTAINER, name, { name, image: IMAGE });
  fixture.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
  return state;
}

/**
 * The app restarted, after the link was made, and runs: a start without DATABASE_URL fails under the switch, so it
 * started with the link's variables.
 */
function restartedWithTheLink(id: string, mark: number) {
  const requests = fixture.requestsSince(mark).map((r) => `${r.method} ${r.path} ${r.status}`);
  expect(requests).toContain(`POST /v1/projects/${PROJECT}/containers/${id}/restart 204`);
  expect(app(id).status).toBe("running");
}

describe("Container.links: a link whose restart failed", () => {
  async function failedUpdate(name: string) {
    const state = await runningApp(name);
    const program = { name, image: IMAGE, links: [db.id] };
    failRestartsTwice();
    const failed = await new Engine(impatient).up(CONTAINER, name, program, state);
    expect(failed.error?.details).toMatch(/was updated only in part: .*HTTP 503/);
    expect(plain(failed.state.outputs)).toMatchObject({ links: [], linksAwaitingRestart: [db.id] });
    return { program, failed: failed.state };
  }

  test("pulumi refresh keeps the owed restart (the link out of links, the resource unfinished); the next up restarts the app, which gets the link's variables", async () => {
    const { program, failed } = await failedUpdate("owed-refresh");
    const refreshed = await engine().refresh(CONTAINER, "owed-refresh", failed);
    if (refreshed.gone) throw new Error("the app reads as gone");
    expect(plain(refreshed.state.outputs)).toMatchObject({ links: [], linksAwaitingRestart: [db.id] });
    expect(refreshed.state.initErrors).toEqual([
      expect.stringMatching(/has not read the variables of its link to .* the next `pulumi up` restarts it/),
    ]);
    // A second refresh reads the same.
    const again = await engine().refresh(CONTAINER, "owed-refresh", refreshed.state);
    expect(again.gone ? undefined : plain(again.state.outputs)).toMatchObject({ linksAwaitingRestart: [db.id] });

    const mark = fixture.mark();
    const up = await engine().up(CONTAINER, "owed-refresh", program, refreshed.state);
    expect(up.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["links"] });
    expect(up.error?.details).toBeUndefined();
    restartedWithTheLink(failed.id, mark);
    expect(plain(up.state.outputs)).toMatchObject({
      links: [db.id],
      injectedEnv: { DATABASE_URL: expect.any(String) },
    });
    expect(up.state.outputs).not.toHaveProperty("linksAwaitingRestart");
    expect(up.state.initErrors).toBeUndefined();
    const third = await engine().up(CONTAINER, "owed-refresh", program, up.state);
    expect(third.steps).toEqual([]);
  });

  test("an app stopped since (outside Pulumi) owes nothing: its next start reads every link", async () => {
    const { failed } = await failedUpdate("owed-stopped");
    fixture.sim.control.mutate("services", failed.id, { status: "stopped" });
    const refreshed = await engine().refresh(CONTAINER, "owed-stopped", failed);
    if (refreshed.gone) throw new Error("the app reads as gone");
    expect(plain(refreshed.state.outputs)).toMatchObject({ links: [db.id], running: false });
    expect(refreshed.state.outputs).not.toHaveProperty("linksAwaitingRestart");
    expect(refreshed.state.initErrors).toBeUndefined();
  });
});

describe("ServiceLink: a link whose consumer's restart failed", () => {
  test("pulumi refresh keeps the owed restart (the resource unfinished); the next up restarts the app, which gets the link's variables", async () => {
    const consumer = await runningApp("owed-consumer");
    const link = { consumerServiceId: consumer.id, providerServiceId: db.id };
    failRestartsTwice();
    const failed = await new Engine(impatient).create(LINK, "owed-link", link);
    expect(failed.error?.details).toMatch(/^the link was made, but restarting container owed-consumer .*HTTP 503/);
    expect(plain(failed.state.outputs)).toMatchObject({ awaitingRestart: true });

    const refreshed = await engine().refresh(LINK, "owed-link", failed.state);
    if (refreshed.gone) throw new Error("the link reads as gone");
    expect(plain(refreshed.state.outputs)).toMatchObject({ awaitingRestart: true });
    expect(refreshed.state.initErrors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^app ${consumer.id} has not restarted to read the variables of the link to ${db.id} .* the next \`pulumi up\` restarts it`,
        ),
      ),
    ]);

    const mark = fixture.mark();
    const up = await engine().up(LINK, "owed-link", link, refreshed.state);
    expect(up.steps).toEqual(["update"]);
    expect(up.error?.details).toBeUndefined();
    restartedWithTheLink(consumer.id, mark);
    expect(up.state.outputs).not.toHaveProperty("awaitingRestart");
    expect(up.state.initErrors).toBeUndefined();
    expect((await engine().up(LINK, "owed-link", link, up.state)).steps).toEqual([]);
  });
});
