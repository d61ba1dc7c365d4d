// Records the current provider's state as a fixture for the upgrade tests (make record-state):
// every resource of the package, made from its first example (what it refers to made first), as
// the engine stores it after the Create and after a refresh, with the simulator's world behind
// it. It writes states/<n + 1> when the state shape differs from the newest fixture's
// (states/<n>), and refuses when it does not: a fixture is what a release wrote, and stays as it
// was (--replace records the newest one again).
//   node scripts/run-ts.mjs test/upgrades/record.ts [--replace]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isExampleSecret, isReference, type ExampleValue } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import { ALICE, startSimulator } from "../../simulator/src";
import { Engine, Plugin, secret, type ResourceState } from "../grpc/engine";
import { fixtures, versionToRecord, type About, type Recorded } from "./fixtures";
import { stateShape } from "./shape";

// Run from the repository's root (make record-state): run-ts.mjs runs a bundle, from dist/run/.
const ROOT = process.cwd();
const STATES = join(ROOT, "test/upgrades/states");

/** An example's inputs as the engine sends them: references as the ids of what was made, secrets wrapped. */
function programOf(values: Record<string, ExampleValue>, made: Map<string, ResourceState>): Record<string, unknown> {
  const value = (v: ExampleValue): unknown => {
    if (isExampleSecret(v)) return secret(v.sample);
    if (!isReference(v)) return v;
    const target = made.get(v.reference);
    if (!target) throw new Error(`an example refers to ${v.reference}, which the package lists after it`);
    return target.outputs[v.output] ?? target.id;
  };
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, value(v)]));
}

async function main(replace: boolean) {
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  const shape = stateShape(schema);
  const { version, changes } = versionToRecord(fixtures(STATES).at(-1), shape, replace);
  if (changes.length > 0) console.log(`changed since schema version ${version - 1}:\n  ${changes.join("\n  ")}`);
  // The code that records, before the recording changes the working tree.
  const commit = execFileSync("git", ["describe", "--always", "--dirty"], { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = join(STATES, String(version));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sim = await startSimulator({ volumeProvisioningMs: 0, stateFile: join(dir, "simulator.json") });
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] });
    const engine = new Engine(plugin);
    const made = new Map<string, ResourceState>();
    const stack: Record<string, Recorded> = {};
    const program: Record<string, Record<string, unknown>> = {};
    for (const resource of hostingPackage.resources) {
      const example = resource.examples[0];
      const type = `${hostingPackage.name}:index:${resource.typeName}`;
      program[example.name] = programOf(example.inputs, made);
      const state = await engine.created(type, example.name, program[example.name]);
      made.set(resource.typeName, state);
      stack[example.name] = { type, ...state };
    }
    const refreshed: Record<string, Recorded> = {};
    for (const [name, { type, ...state }] of Object.entries(stack)) {
      const read = await engine.refresh(type, name, state);
      if (read.gone) throw new Error(`${name} read as gone right after its create`);
      refreshed[name] = { type, ...read.state };
    }
    const release = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    const about: About = { schemaVersion: version, release, commit };
    const write = (file: string, value: unknown) =>
      writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
    write("stack.json", stack);
    write("refreshed.json", refreshed);
    write("program.json", program);
    write("shape.json", shape);
    write("about.json", about);
    console.log(`recorded schema version ${version} in ${dir}`);
  } finally {
    await plugin.stop();
    await sim.close();
  }
}

main(process.argv.includes("--replace")).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
