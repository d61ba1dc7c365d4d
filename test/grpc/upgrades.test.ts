// Upgrades keep old stacks working. test/upgrades/states holds one fixture per schema version
// (test/upgrades/fixtures.ts: the engine's state of every resource as the release that recorded
// it wrote it, the program it came from, and the simulator's world behind it), and every one of
// them, found by listing the directory, refreshes with no drift, previews its program with no
// changes, and updates cleanly with this provider. The newest has this provider's state shape:
// a change of shape needs a fixture of its own (make record-state).
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isExampleSecret, isReference, type ExampleValue } from "../../provider/src/framework/declare";
import type { PackageSpec } from "../../provider/src/framework/packageSchema";
import { hostingPackage } from "../../provider/src/package";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { fixtures } from "../upgrades/fixtures";
import { shapeChanges, stateShape } from "../upgrades/shape";
import { DIFF_NONE, Engine, Plugin } from "./engine";

const FIXTURES = fixtures();
const tokenOf = (typeName: string) => `${hostingPackage.name}:index:${typeName}`;

/** The in-place change the current declaration's first example shows, when it has one made of plain values. */
function exampleUpdate(type: string): Record<string, ExampleValue> | undefined {
  const update = hostingPackage.resources.find((r) => tokenOf(r.typeName) === type)?.examples[0].update;
  const plain = (v: ExampleValue) => !isReference(v) && !isExampleSecret(v);
  return update && Object.values(update).every(plain) ? update : undefined;
}

describe("the fixtures", () => {
  test("one per schema version, numbered from 1, each recorded as that version", () => {
    expect(FIXTURES.map((f) => [f.version, f.about.schemaVersion])).toEqual(FIXTURES.map((_, i) => [i + 1, i + 1]));
  });

  test("the newest has this provider's state shape (a change of shape needs `make record-state`)", () => {
    const schema: PackageSpec = require("../../schema.json");
    const newest = FIXTURES[FIXTURES.length - 1];
    const changes = shapeChanges(newest.shape, stateShape(schema));
    expect({ version: newest.version, changes }).toEqual({ version: newest.version, changes: [] });
  });

  test("the newest holds every resource of the package", () => {
    const types = new Set(Object.values(FIXTURES[FIXTURES.length - 1].stack).map((state) => state.type));
    expect(hostingPackage.resources.map((r) => tokenOf(r.typeName)).filter((type) => !types.has(type))).toEqual([]);
  });
});

const byVersion = FIXTURES.map((f) => [f.version, f] as const);

describe.each(byVersion)("a stack recorded as schema version %s", (version, fixture) => {
  let sim: Simulator;
  let plugin: Plugin;
  const engine = () => new Engine(plugin);
  const resources = Object.entries(fixture.stack).map(([name, state]) => [name, state.type, state] as const);
  /** Each resource's state as its release stored it after the Create, and after a refresh. */
  const stored = [
    ...Object.entries(fixture.stack).map(([name, state]) => [name, state.type, "created", state] as const),
    ...Object.entries(fixture.refreshed).map(([name, state]) => [name, state.type, "refreshed", state] as const),
  ];

  beforeAll(async () => {
    // The world as that release left it, in a copy: the simulator writes to its state file.
    const world = join(mkdtempSync(join(tmpdir(), "upgrade-")), "simulator.json");
    copyFileSync(join(fixture.dir, "simulator.json"), world);
    sim = await startSimulator({ stateFile: world, volumeProvisioningMs: 0 });
    plugin = await Plugin.start();
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] });
  });
  afterAll(async () => {
    await plugin?.stop();
    await sim?.close();
  });

  test("holds the program of every resource it recorded, and its state after a refresh", () => {
    const names = Object.keys(fixture.stack);
    expect([Object.keys(fixture.program), Object.keys(fixture.refreshed)]).toEqual([names, names]);
  });

  const refreshesAndPreviews = "%s (%s) as %s: refreshes with no drift, then previews its program with no changes";
  test.each(stored)(refreshesAndPreviews, async (name, type, _, old) => {
    const refreshed = await engine().refresh(type, name, old);
    if (refreshed.gone) throw new Error(`${name} read as gone`);
    const { initErrors } = refreshed.state;
    expect({ diff: refreshed.diff.changes, initErrors }).toEqual({ diff: DIFF_NONE, initErrors: undefined });
    for (const state of [old, refreshed.state]) {
      const preview = await engine().preview(type, name, fixture.program[name], state);
      const { checkFailures: failures, diff } = preview;
      expect({ failures, changes: diff?.changes }).toEqual({ failures: undefined, changes: DIFF_NONE });
    }
  });

  // Version 1 predates Container.links: its app reads its database through a ServiceLink.
  if (version === 1) {
    test("the app gains links: [db] beside its ServiceLink, adopting the link it has, with no restart", async () => {
      const [web, db] = [fixture.stack.web, fixture.stack.db];
      const withLinks = { ...fixture.program.web, links: [db.id] };
      const refreshed = await engine().refresh(web.type, "web", web);
      if (refreshed.gone) throw new Error("web read as gone");
      expect((await engine().preview(web.type, "web", withLinks, refreshed.state)).diff?.changes).toBe(DIFF_NONE);
      // From the state as recorded (no links in it): the update adopts the link the ServiceLink made.
      const mark = sim.control.requests().length;
      const up = await engine().up(web.type, "web", withLinks, web);
      const { steps, error, state } = up;
      const expected = { steps: ["update"], error: undefined, links: [db.id] };
      expect({ steps, error: error?.details, links: state.outputs.links }).toEqual(expected);
      const posts = sim.control
        .requests()
        .slice(mark)
        .filter((r) => r.method === "POST");
      expect(posts.map((r) => r.path)).toEqual([expect.stringMatching(/\/service-links$/)]);
    });
  }

  // A `pulumi up` right after the upgrade starts from the state as recorded, not a refreshed one.
  const updates = "%s (%s) updates cleanly from the state as recorded, then refreshes clean";
  test.each(resources)(updates, async (name, type, old) => {
    const change = exampleUpdate(type);
    const up = await engine().up(type, name, { ...fixture.program[name], ...change }, old);
    expect({ steps: up.steps, error: up.error?.details, failures: up.checkFailures }).toEqual({
      steps: change ? ["update"] : [],
      error: undefined,
      failures: undefined,
    });
    if (change) expect(up.state.outputs).toMatchObject(change);
    const refreshed = await engine().refresh(type, name, up.state);
    expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
  });
});
