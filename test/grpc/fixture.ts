// One simulator and one plugin per test file, configured as user alice.
import { ALICE, startSimulator, type SimKind, type Simulator } from "../../simulator/src";
import { DIFF_NONE, DIFF_SOME, KIND, Plugin, UNKNOWN, plain } from "./engine";
import { GoEngine, goEngineExecutable } from "./goEngine";

export const PROJECT = ALICE.projects[0];
/** The plugin's version, which the engine adds to the provider's settings (CheckConfig's `version`). */
const version: string = require("../../package.json").version;
export const CONTAINER = "hosting:index:Container";
export const POSTGRES = "hosting:index:Postgres";
export const VOLUME = "hosting:index:Volume";
export const REGISTRY = "hosting:index:Registry";
export const LINK = "hosting:index:ServiceLink";

export interface Fixture {
  sim: Simulator;
  plugin: Plugin;
  /** Requests the simulator served since the last call, for counting API calls. */
  requestsSince(mark: number): Array<{ method: string; path: string; status: number | "reset" }>;
  mark(): number;
}

export interface FixtureOptions {
  pluginArgs?: string[];
  volumeProvisioningMs?: number;
  /** Every call, from the first, through grpc-go (goEngine.ts) instead of grpc-js. */
  goEngine?: boolean;
}

export function useFixture(options: FixtureOptions = {}): Fixture {
  const fixture = {} as Fixture;
  let goEngine: GoEngine | undefined;
  beforeAll(async () => {
    fixture.sim = await startSimulator({ volumeProvisioningMs: options.volumeProvisioningMs ?? 300 });
    const goExecutable = options.goEngine ? goEngineExecutable() : undefined; // built before the plugin starts
    fixture.plugin = await Plugin.start({ args: options.pluginArgs, handshake: !goExecutable });
    if (goExecutable) {
      // Dialled the moment the port line is out, as the engine does, and Handshake its first call.
      goEngine = await GoEngine.dial(fixture.plugin.port, goExecutable);
      fixture.plugin.useTransport(goEngine.transport());
      await fixture.plugin.handshake();
    }
    await fixture.plugin.configureAsEngine({
      baseUrl: fixture.sim.url,
      token: ALICE.token,
      projectId: PROJECT,
      version,
    });
    fixture.mark = () => fixture.sim.control.requests().length;
    fixture.requestsSince = (mark) => fixture.sim.control.requests().slice(mark);
  });
  afterAll(async () => {
    await goEngine?.close();
    await fixture.plugin?.stop();
    await fixture.sim?.close();
  });
  return fixture;
}

export interface LifecycleCase {
  type: string;
  /** Program inputs for the first `pulumi up`. */
  inputs: Record<string, unknown>;
  /** A change that updates in place (none for resources whose every input replaces). */
  update?: Record<string, unknown>;
  /** A change that replaces (name, or any input of an all-replace resource). */
  replace: Record<string, unknown>;
  /** An out-of-band change, and the input property that drifts. */
  drift: { apply: OutOfBand; property: string };
  /** An out-of-band delete. */
  remove: OutOfBand;
  /** Preview inputs with a value from another resource still unknown. */
  unknownInput: string;
  /** Delete only forgets the resource (the API cannot delete it): it stays on the server. */
  deleteForgets?: boolean;
  /** Inputs known only to the program (e.g. registry password): absent after import. */
  notImported?: string[];
}

export type OutOfBand = (fixture: Fixture, id: string) => void | Promise<void>;
export const mutate =
  (kind: SimKind, patch: Record<string, unknown>): OutOfBand =>
  (f, id) =>
    f.sim.control.mutate(kind, id, patch);
export const removeRecord =
  (kind: SimKind): OutOfBand =>
  (f, id) =>
    f.sim.control.remove(kind, id);

/** A Container's lifecycle case (container.test.ts, and again through grpc-go in goEngine.test.ts). */
export const CONTAINER_LIFECYCLE: LifecycleCase = {
  type: CONTAINER,
  inputs: { name: "web", image: "registry.example.com/team/web:1.0.0", env: { LOG_LEVEL: "info" } },
  update: { image: "registry.example.com/team/web:1.1.0", env: { LOG_LEVEL: "debug" } },
  replace: { name: "web-2" },
  drift: { apply: mutate("services", { image: "registry.example.com/team/web:9.9.9" }), property: "image" },
  remove: removeRecord("services"),
  unknownInput: "image",
};

/**
 * The full engine lifecycle of one resource against the simulator:
 * check -> preview -> create -> read -> diff-is-none -> update in place ->
 * diff-with-replace -> refresh with drift -> import -> delete -> refresh after delete.
 */
export function describeLifecycle(name: string, fixture: Fixture, c: LifecycleCase) {
  describe(`${c.type} lifecycle`, () => {
    const state: { id: string; outputs: Record<string, any>; inputs: Record<string, any> } = {
      id: "",
      outputs: {},
      inputs: {},
    };

    test("check fills defaults and accepts the program's inputs", async () => {
      const { inputs, failures } = await fixture.plugin.check(c.type, name, c.inputs);
      expect(failures).toEqual([]);
      for (const [key, value] of Object.entries(c.inputs)) expect(plain(inputs[key])).toEqual(plain(value));
      state.inputs = inputs;
    });

    test("preview with an unknown input sends no write and does not fail", async () => {
      const mark = fixture.mark();
      const news = { ...c.inputs, [c.unknownInput]: UNKNOWN };
      const checked = await fixture.plugin.check(c.type, name, news);
      expect(checked.failures).toEqual([]);
      expect(checked.inputs[c.unknownInput]).toBe(UNKNOWN);
      const preview = await fixture.plugin.create(c.type, name, checked.inputs, { preview: true });
      expect(preview.id).toBe("");
      expect(preview.properties[c.unknownInput]).toBe(UNKNOWN);
      // The rules that need the live world read what is known (a ServiceLink's other id); nothing is written.
      expect(fixture.requestsSince(mark).filter((r) => r.method !== "GET")).toEqual([]);
    });

    test("create returns the id and the outputs", async () => {
      const created = await fixture.plugin.create(c.type, name, state.inputs);
      expect(created.id).not.toBe("");
      for (const [key, value] of Object.entries(c.inputs)) expect(plain(created.properties[key])).toEqual(plain(value));
      state.id = created.id;
      state.outputs = created.properties;
    });

    test("read returns the same resource, and an unchanged world diffs as none", async () => {
      const read = await fixture.plugin.read(c.type, name, state.id, state.outputs, state.inputs);
      expect(read.id).toBe(state.id);
      expect(plain(read.inputs)).toEqual(plain(state.inputs));
      const diff = await fixture.plugin.diff(c.type, name, state.id, read.properties, state.inputs, read.inputs);
      expect(diff).toMatchObject({ changes: DIFF_NONE, diffs: [], replaces: [] });
      state.outputs = read.properties;
    });

    const update = c.update ?? {};
    if (c.update)
      test("an in-place change diffs as an update, previews with no API call, and is applied", async () => {
        const news = { ...c.inputs, ...update };
        const checked = await fixture.plugin.check(c.type, name, news, state.inputs);
        expect(checked.failures).toEqual([]);
        const diff = await fixture.plugin.diff(c.type, name, state.id, state.outputs, checked.inputs, state.inputs);
        expect(diff.changes).toBe(DIFF_SOME);
        expect(diff.replaces).toEqual([]);
        expect(diff.hasDetailedDiff).toBe(true);
        // Each change at its exact path (`env.LOG_LEVEL`), an update in place.
        for (const key of Object.keys(update)) {
          expect(diff.diffs).toContain(key);
          const paths = Object.keys(diff.detailedDiff).filter(
            (path) => path === key || (/^[.[]/.test(path.slice(key.length)) && path.startsWith(key)),
          );
          expect(paths.length).toBeGreaterThan(0);
          for (const path of paths) expect(diff.detailedDiff[path]).toBe(KIND.UPDATE);
        }
        const mark = fixture.mark();
        const preview = await fixture.plugin.update(
          c.type,
          name,
          state.id,
          state.outputs,
          checked.inputs,
          state.inputs,
          { preview: true },
        );
        for (const [key, value] of Object.entries(update)) expect(plain(preview.properties[key])).toEqual(plain(value));
        expect(fixture.requestsSince(mark)).toEqual([]);
        const updated = await fixture.plugin.update(
          c.type,
          name,
          state.id,
          state.outputs,
          checked.inputs,
          state.inputs,
        );
        for (const [key, value] of Object.entries(update)) expect(plain(updated.properties[key])).toEqual(plain(value));
        const read = await fixture.plugin.read(c.type, name, state.id, updated.properties, checked.inputs);
        for (const [key, value] of Object.entries(update)) expect(plain(read.properties[key])).toEqual(plain(value));
        state.outputs = read.properties;
        state.inputs = checked.inputs;
      });

    test("a replacing change diffs as a replace", async () => {
      const checked = await fixture.plugin.check(c.type, name, { ...c.inputs, ...update, ...c.replace }, state.inputs);
      expect(checked.failures).toEqual([]);
      const diff = await fixture.plugin.diff(c.type, name, state.id, state.outputs, checked.inputs, state.inputs);
      expect(diff.changes).toBe(DIFF_SOME);
      for (const key of Object.keys(c.replace)) {
        expect(diff.replaces).toContain(key);
        expect(diff.detailedDiff[key]).toBe(KIND.UPDATE_REPLACE);
      }
    });

    test("refresh right after an out-of-band change reports the drift", async () => {
      await c.drift.apply(fixture, state.id);
      // The engine's refresh (RefreshStep.Apply): Read, then Diff the other way round, with
      // olds/oldInputs = what Read returned and news = the stored inputs. It must never fail.
      const read = await fixture.plugin.read(c.type, name, state.id, state.outputs, state.inputs);
      expect(read.id).toBe(state.id);
      expect(plain(read.properties[c.drift.property])).not.toEqual(plain(state.outputs[c.drift.property]));
      const diff = await fixture.plugin.diff(c.type, name, state.id, read.properties, state.inputs, read.inputs);
      expect(diff.changes).toBe(DIFF_SOME);
      expect(diff.diffs).toContain(c.drift.property);
    });

    test("import by id, and by <projectId>/<id>, yields inputs the program diffs as none", async () => {
      for (const id of [state.id, `${PROJECT}/${state.id}`]) {
        const imported = await fixture.plugin.read(c.type, name, id);
        expect(imported.id).toBe(state.id);
        const program = { ...c.inputs, ...update, [c.drift.property]: imported.inputs[c.drift.property] };
        for (const key of c.notImported ?? []) delete program[key];
        const checked = await fixture.plugin.check(c.type, name, program, imported.inputs);
        expect(checked.failures).toEqual([]);
        const diff = await fixture.plugin.diff(
          c.type,
          name,
          state.id,
          imported.properties,
          checked.inputs,
          imported.inputs,
        );
        expect(diff).toMatchObject({ changes: DIFF_NONE });
      }
    });

    test(
      c.deleteForgets
        ? "delete forgets it (the API cannot delete it)"
        : "delete removes it, and a refresh then reports it gone",
      async () => {
        await fixture.plugin.delete(c.type, name, state.id, state.outputs, state.inputs);
        const read = await fixture.plugin.read(c.type, name, state.id, state.outputs, state.inputs);
        expect(read.id).toBe(c.deleteForgets ? state.id : "");
        // Deleting what is already gone succeeds.
        await fixture.plugin.delete(c.type, name, state.id, state.outputs, state.inputs);
      },
    );

    test("refresh after an out-of-band delete reports an empty id", async () => {
      const created = await fixture.plugin.create(c.type, `${name}-again`, state.inputs);
      await c.remove(fixture, created.id);
      const read = await fixture.plugin.read(c.type, `${name}-again`, created.id, created.properties, state.inputs);
      expect(read.id).toBe("");
    });
  });
}
