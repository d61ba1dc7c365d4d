// Upgrades keep old stacks working: every state an earlier release recorded (test/upgrades/states/
// <version>: the engine's state of each resource, and the simulator's world behind it) refreshes
// with no drift, previews its program with no changes, and updates cleanly with this provider.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { STACK } from "../upgrades/stack";
import { DIFF_NONE, Engine, Plugin, type ResourceState } from "./engine";

const STATES = resolve(__dirname, "../upgrades/states");
type Recorded = Record<string, ResourceState & { type: string }>;

describe.each(readdirSync(STATES))("a stack recorded by release %s", (version) => {
  let sim: Simulator;
  let plugin: Plugin;
  const recorded: Recorded = JSON.parse(readFileSync(join(STATES, version, "stack.json"), "utf8"));
  const ids = Object.fromEntries(Object.entries(recorded).map(([name, state]) => [name, state.id]));
  const engine = () => new Engine(plugin);

  beforeAll(async () => {
    // The world as that release left it, in a copy: the simulator writes to its state file.
    const world = join(mkdtempSync(join(tmpdir(), "upgrade-")), "simulator.json");
    copyFileSync(join(STATES, version, "simulator.json"), world);
    sim = await startSimulator({ stateFile: world, volumeProvisioningMs: 0 });
    plugin = await Plugin.start();
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] });
  });
  afterAll(async () => {
    await plugin?.stop();
    await sim?.close();
  });

  test("holds every resource of the program", () => {
    expect(Object.keys(recorded)).toEqual(STACK.map((r) => r.name));
  });

  test.each(STACK.map((r) => [r.name, r] as const))("%s refreshes with no drift, then previews its program with no changes", async (name, resource) => {
    const old = recorded[name];
    const refreshed = await engine().refresh(resource.type, name, old);
    if (refreshed.gone) throw new Error(`${name} read as gone`);
    expect({ diff: refreshed.diff.changes, initErrors: refreshed.state.initErrors }).toEqual({ diff: DIFF_NONE, initErrors: undefined });
    for (const state of [old, refreshed.state]) {
      const preview = await engine().preview(resource.type, name, resource.program(ids), state);
      expect({ failures: preview.checkFailures, changes: preview.diff?.changes }).toEqual({ failures: undefined, changes: DIFF_NONE });
    }
  });

  test("the app gains links: [db] beside its ServiceLink, adopting the link it has, with no restart", async () => {
    const web = STACK.find((r) => r.name === "web")!;
    const refreshed = await engine().refresh(web.type, "web", recorded.web);
    if (refreshed.gone) throw new Error("web read as gone");
    const preview = await engine().preview(web.type, "web", { ...web.program(ids), links: [ids.db] }, refreshed.state);
    expect(preview.diff?.changes).toBe(DIFF_NONE);
    // From the state as recorded (no links in it): the update adopts the link the ServiceLink made.
    const mark = sim.control.requests().length;
    const up = await engine().up(web.type, "web", { ...web.program(ids), links: [ids.db] }, recorded.web);
    expect(up.steps).toEqual(["update"]);
    expect(up.error?.details).toBeUndefined();
    expect(up.state.outputs.links).toEqual([ids.db]);
    expect(sim.control.requests().slice(mark).filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      expect.stringMatching(/\/service-links$/),
    ]);
  });
  test("the app updates cleanly from the state as recorded, and again from a refreshed one", async () => {
    const web = STACK.find((r) => r.name === "web")!;
    const changed = { ...web.program(ids), image: "ghcr.io/team/web:1.1.0" };
    const up = await engine().up(web.type, "web", changed, recorded.web);
    expect({ steps: up.steps, error: up.error?.details }).toEqual({ steps: ["update"], error: undefined });
    expect(up.state.outputs).toMatchObject({ image: "ghcr.io/team/web:1.1.0", status: "running", env: { LOG_LEVEL: "info" } });
    const refreshed = await engine().refresh(web.type, "web", up.state);
    if (refreshed.gone) throw new Error("web read as gone");
    const again = await engine().up(web.type, "web", { ...changed, image: "ghcr.io/team/web:1.2.0" }, refreshed.state);
    expect({ steps: again.steps, error: again.error?.details }).toEqual({ steps: ["update"], error: undefined });
  });

});
