// A state migration end to end over gRPC. No property has changed meaning yet (every fixture in
// test/upgrades/states passes as it is), so a copy of the repository declares one for the test
// alone: the Registry's host, which (say) an earlier release kept as a URL (`https://ghcr.io`),
// is now the bare host name. The copy's plugin, built and spawned as the engine spawns it, gets a
// state in the old meaning, and refreshes, previews and updates it as if it were current, then
// deletes it; this repository's plugin, without the migration, shows the same state as changed.
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { fixtures, type Recorded } from "../upgrades/fixtures";
import { DIFF_NONE, DIFF_SOME, Engine, Plugin } from "./engine";

const ROOT = resolve(__dirname, "../..");
const run = promisify(execFile);

const MIGRATION = `  migrations: [
    {
      description: "host was a URL (https://ghcr.io) before it was a host name (test only)",
      from: (state) => typeof state.host === "string" && state.host.startsWith("https://"),
      migrate: (state) => ({ ...state, host: (state.host as string).slice("https://".length) }),
    },
  ],
`;

const newest = fixtures().at(-1)!;
const REGISTRY = Object.entries(newest.stack).find(([, state]) => state.type === "hosting:index:Registry")!;
const [name, recorded] = REGISTRY;
const program = newest.program[name];
/** The registry's state as the earlier release would have recorded it: the host as a URL, in inputs and outputs. */
const old: Recorded = {
  ...recorded,
  inputs: { ...recorded.inputs, host: `https://${recorded.inputs.host}` },
  outputs: { ...recorded.outputs, host: `https://${recorded.outputs.host}` },
};

let copy: string;
let sim: Simulator;
let migrating: Plugin;
let current: Plugin;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "hosting-migration-"));
  for (const path of ["provider", "scripts", "simulator", "package.json", "schema.json"]) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  const file = join(copy, "provider/src/resources/registry.ts");
  const source = readFileSync(file, "utf8");
  const lifecycle = "\n  lifecycle: {\n";
  if (!source.includes(lifecycle)) throw new Error("registry.ts has no lifecycle to put the migration before");
  writeFileSync(file, source.replace(lifecycle, `\n${MIGRATION}${lifecycle.slice(1)}`));
  await run("node", ["scripts/build.mjs"], { cwd: copy });

  const world = join(copy, "simulator.json");
  copyFileSync(join(newest.dir, "simulator.json"), world);
  sim = await startSimulator({ stateFile: world, volumeProvisioningMs: 0 });
  const config = { baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] };
  const command = join(copy, "bin/pulumi-resource-hosting");
  [migrating, current] = await Promise.all([Plugin.start({ command }), Plugin.start()]);
  await Promise.all([migrating.configure(config), current.configure(config)]);
});

afterAll(async () => {
  await migrating?.stop();
  await current?.stop();
  await sim?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test("without the migration, the old state reads as changed: drift at refresh, host updated at preview", async () => {
  const refreshed = await new Engine(current).refresh(old.type, name, old);
  expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_SOME, diffs: ["host"] } });
  const preview = await new Engine(current).preview(old.type, name, program, old);
  expect(preview.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["host"] });
});

test("Read: a refresh migrates it, shows no drift, and records the host in the new meaning", async () => {
  const refreshed = await new Engine(migrating).refresh(old.type, name, old);
  if (refreshed.gone) throw new Error(`${name} read as gone`);
  expect(refreshed.diff.changes).toBe(DIFF_NONE);
  const { inputs, outputs } = refreshed.state;
  expect([inputs.host, outputs.host]).toEqual([recorded.inputs.host, recorded.outputs.host]);
});

test("Diff: its program previews with no changes from the old state", async () => {
  const preview = await new Engine(migrating).preview(old.type, name, program, old);
  expect(preview).toEqual({ diff: expect.objectContaining({ changes: DIFF_NONE, diffs: [] }), refreshed: false });
});

test("Update: a change from the old state updates only what changed, and records the new meaning", async () => {
  const up = await new Engine(migrating).up(old.type, name, { ...program, username: "ci-bot" }, old);
  const expected = { steps: ["update"], diffs: ["username"], error: undefined };
  expect({ steps: up.steps, diffs: up.diff?.diffs, error: up.error?.details }).toEqual(expected);
  expect(up.state.outputs).toMatchObject({ host: recorded.outputs.host, username: "ci-bot" });
});

test("Delete: the old state deletes the registry", async () => {
  await migrating.delete(old.type, name, old.id, old.outputs, old.inputs);
  expect(sim.control.snapshot().registries.map((r) => r.id)).not.toContain(old.id);
});
