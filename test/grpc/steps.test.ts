// Never a green run over a stopped app (issue 38): every step of a multi-step operation (a linked
// app's create: PATCH, stop, link, start; an update's link and restart; a rollback) is retried like
// any safe request, each attempt whose outcome is unknown judged by what the platform then shows.
// A step that fails for good ends in a partial failure that records what the platform has, read
// after the failure, never what was asked: so the next `pulumi up`, in the engine's order (Check,
// Diff, Update), sees the difference, finishes the work, and a third run has nothing to do.
import { ALICE, type Fault } from "../../simulator/src";
import { DIFF_NONE, DIFF_SOME, Engine, Plugin, plain, type ResourceState } from "./engine";
import { CONTAINER, LINK, POSTGRES, PROJECT, useFixture } from "./fixture";
import { until } from "./until";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/api:1.0.0";
const BAD = "registry.example.com/team/api:2.0.0-bad";

/** A plugin that gives up after one retry, so that a fault met twice fails the step for good. */
let impatient: Plugin;
beforeAll(async () => {
  impatient = await Plugin.start();
  await impatient.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT, maxRetries: 1 });
  // An app that starts without its database's variables fails, as a real one does.
  fixture.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
});
afterAll(() => impatient?.stop());
afterEach(() => {
  fixture.sim.control.clearFaults();
  fixture.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"], serviceStartMs: 0, crashingImageTags: [] });
});

let db: ResourceState;
beforeAll(async () => {
  db = await engine().created(POSTGRES, "steps-db", { name: "steps-db" });
});

const app = (name: string) => fixture.sim.control.snapshot().services.find((s) => s.name === name)!;
const linksOf = (id: string) =>
  fixture.sim.control
    .snapshot()
    .links.filter((l) => l.consumer_service_id === id)
    .map((l) => l.provider_service_id);
const program = (name: string) => ({ name, image: IMAGE, env: { LOG_LEVEL: "info" }, links: [db.id] });

/** The create's steps, each matched by method and path. */
const STEPS = {
  "the PATCH": { method: "PATCH", path: "/containers/[^/]+$" },
  "the stop": { method: "POST", path: "/stop$" },
  "the link": { method: "POST", path: "/service-links$" },
  "the start": { method: "POST", path: "/start$" },
} as const;

/** One transient fault each: before the server acted, after it acted (the answer lost, or a 500 instead). */
const FAULTS: Record<string, Fault> = {
  "a 503 before acting": { kind: "status", status: 503 },
  "a reset after acting": { kind: "reset_after" },
  "a 500 after acting": { kind: "respond_after", status: 500, body: '{"code":"INTERNAL","message":"boom"}' },
};

describe.each(Object.entries(STEPS))("one transient fault on %s of a linked app's create", (step, where) => {
  test.each(Object.entries(FAULTS))(
    "%s: the create succeeds, running and linked, and the next up has nothing to do",
    async (fault, kind) => {
      const name = `one-${step.split(" ")[1].toLowerCase()}-${fault.split(" ")[1]}-${fault.split(" ")[2]}`.slice(0, 40);
      fixture.sim.control.injectFault({ ...kind, ...where });
      const { state, error } = await engine().create(CONTAINER, name, program(name));
      expect(error?.details).toBeUndefined();
      expect(fixture.sim.control.faults()).toEqual([]); // the fault was met
      expect(plain(state.outputs)).toMatchObject({ status: "running", running: true, links: [db.id] });
      expect(app(name).status).toBe("running");
      expect(linksOf(app(name).id)).toEqual([db.id]);
      const again = await engine().up(CONTAINER, name, program(name), state);
      expect(again).toMatchObject({ steps: [], diff: { changes: DIFF_NONE } });
    },
  );
});

/** The engine's order after a partial failure: Check, Diff (it sees the difference), Update; then a Diff of nothing. */
async function converges(name: string, failed: ResourceState, changed: string[]) {
  const second = await engine().up(CONTAINER, name, program(name), failed);
  expect(second.diff).toMatchObject({ changes: DIFF_SOME });
  expect(second.diff!.diffs).toEqual(expect.arrayContaining(changed));
  expect(second.steps).toEqual(["update"]);
  expect(second.error?.details).toBeUndefined();
  expect(plain(second.state.outputs)).toMatchObject({ status: "running", running: true, links: [db.id] });
  expect(app(name).status).toBe("running");
  expect(linksOf(app(name).id)).toEqual([db.id]);
  const third = await engine().up(CONTAINER, name, program(name), second.state);
  expect(third).toMatchObject({ steps: [], diff: { changes: DIFF_NONE } });
}

describe("a step that fails for good records what the platform has, and the next up finishes the work", () => {
  const failedFor = async (name: string, where: { method: string; path: string }) => {
    fixture.sim.control.injectFault({ kind: "status", status: 503, times: 2, ...where });
    const failed = await new Engine(impatient).create(CONTAINER, name, program(name));
    expect(failed.error?.details).toMatch(
      new RegExp(`^container "${name}" was created, but setting it up failed: .*HTTP 503`),
    );
    expect(failed.state.initErrors).toHaveLength(1);
    return failed.state;
  };

  test("the stop: state says running and unlinked, as the platform has it (the app failed to start without its link)", async () => {
    const state = await failedFor("lost-stop", STEPS["the stop"]);
    expect(app("lost-stop").status).toBe("failed");
    expect(plain(state.outputs)).toMatchObject({ status: "failed", running: true, links: [] });
    expect(plain(state.inputs).links).toEqual([db.id]); // the engine's inputs of a failed create are the program's
    await converges("lost-stop", state, ["links"]);
  });

  test("the link: state says stopped and unlinked", async () => {
    const state = await failedFor("lost-link", STEPS["the link"]);
    expect(plain(state.outputs)).toMatchObject({ status: "stopped", running: false, links: [] });
    await converges("lost-link", state, ["links", "running"]);
  });

  test("the start: state says stopped, and linked", async () => {
    const state = await failedFor("lost-start", STEPS["the start"]);
    expect(app("lost-start").status).toBe("stopped");
    expect(plain(state.outputs)).toMatchObject({ status: "stopped", running: false, links: [db.id] });
    await converges("lost-start", state, ["running"]);
  });
});

describe("an update's steps", () => {
  /** An app that runs without links (it needs none yet), in state. */
  async function running(name: string) {
    fixture.sim.control.setSwitches({ appsRequireEnv: [] });
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE, env: { LOG_LEVEL: "info" } });
    fixture.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
    return state;
  }

  test("one transient fault on the restart that carries a new link: retried, and the app runs with the link", async () => {
    const state = await running("relink-once");
    fixture.sim.control.injectFault({ kind: "status", status: 503, method: "POST", path: "/restart$" });
    const up = await engine().up(CONTAINER, "relink-once", program("relink-once"), state);
    expect(up.error?.details).toBeUndefined();
    expect(plain(up.state.outputs)).toMatchObject({ status: "running", links: [db.id] });
    expect(app("relink-once").status).toBe("running");
  });

  test("a restart that fails for good leaves the new link out of state (the app has not read it), and the next up restarts it", async () => {
    const state = await running("relink-lost");
    fixture.sim.control.injectFault({ kind: "status", status: 503, times: 2, method: "POST", path: "/restart$" });
    const up = await new Engine(impatient).up(CONTAINER, "relink-lost", program("relink-lost"), state);
    expect(up.error?.details).toMatch(/^container "relink-lost" was updated only in part: .*HTTP 503/);
    expect(linksOf(app("relink-lost").id)).toEqual([db.id]); // made on the platform ...
    expect(plain(up.state.outputs)).toMatchObject({ status: "running", links: [] }); // ... but not carried into the app
    // A refresh before the next update would read the link back and lose the restart: not asked for.
    expect(up.state.refreshBeforeUpdate).toBe(false);
    const mark = fixture.mark();
    await converges("relink-lost", up.state, ["links"]);
    const restarts = fixture.requestsSince(mark).filter((r) => r.method === "POST" && r.path.endsWith("/restart"));
    expect(restarts.map((r) => r.status)).toEqual([204]);
  });

  test("one transient fault on a rollback's PATCH: retried, and the app runs the last release again", async () => {
    fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
    const name = "rollback-once";
    const good = { ...program(name), rollbackOnFailure: true };
    const { state } = await engine().create(CONTAINER, name, good);
    fixture.sim.control.setSwitches({ serviceStartMs: 10 * 60_000 });
    const mark = fixture.mark();
    const updating = engine().up(CONTAINER, name, { ...good, image: BAD }, state);
    // The new release is starting: the rollback's PATCH, when it comes, meets a 503.
    await until(() => fixture.requestsSince(mark).some((r) => r.method === "PATCH"), "the update's PATCH");
    fixture.sim.control.injectFault({ kind: "status", status: 503, method: "PATCH" });
    fixture.sim.control.setSwitches({ serviceStartMs: 0 });
    fixture.sim.control.mutate("services", state.id, { ready_at: Date.now() });
    const up = await updating;
    expect(up.error?.details).toMatch(
      /rolled back to image registry\.example\.com\/team\/api:1\.0\.0 \(rollbackOnFailure\), which runs again/,
    );
    const patches = fixture.requestsSince(mark).filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.status)).toEqual([200, 503, 200]);
    expect(app(name)).toMatchObject({ status: "running", image: IMAGE });
    expect(plain(up.state.outputs)).toMatchObject({ status: "running", image: IMAGE, links: [db.id] });
  });

  test("a ServiceLink whose restart fails for good: the next up (an Update to retry it) restarts the app", async () => {
    const consumer = await running("late-link");
    const link = { consumerServiceId: consumer.id, providerServiceId: db.id };
    fixture.sim.control.injectFault({ kind: "status", status: 503, times: 2, method: "POST", path: "/restart$" });
    const failed = await new Engine(impatient).create(LINK, "late-link", link);
    expect(failed.error?.details).toMatch(/^the link was made, but restarting container late-link .*HTTP 503/);
    expect(failed.state.initErrors).toHaveLength(1);
    const mark = fixture.mark();
    const second = await engine().up(LINK, "late-link", link, failed.state);
    expect(second).toMatchObject({ steps: ["update"], diff: { changes: DIFF_NONE } });
    expect(second.error?.details).toBeUndefined();
    const restarts = fixture.requestsSince(mark).filter((r) => r.method === "POST" && r.path.endsWith("/restart"));
    expect(restarts.map((r) => r.status)).toEqual([204]);
    expect(app("late-link").status).toBe("running");
  });
});
