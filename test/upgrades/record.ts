// Records a stack as a release writes it: the simulator's world (its state file) and the engine's
// state of every resource (Check's inputs and the Create's outputs, secrets as the engine marks
// them). Run against a release's plugin to keep its state as a fixture for upgrades.test.ts:
//   node scripts/run-ts.mjs test/upgrades/record.ts test/upgrades/states/<version>
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ALICE, startSimulator } from "../../simulator/src";
import { Engine, Plugin } from "../grpc/engine";
import { STACK } from "./stack";

async function main(dir: string) {
  mkdirSync(dir, { recursive: true });
  const sim = await startSimulator({ volumeProvisioningMs: 0, stateFile: join(dir, "simulator.json") });
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] });
    const engine = new Engine(plugin);
    const states: Record<string, unknown> = {};
    const ids: Record<string, string> = {};
    for (const resource of STACK) {
      const program = resource.program(ids);
      const state = await engine.created(resource.type, resource.name, program);
      ids[resource.name] = state.id;
      states[resource.name] = { type: resource.type, ...state };
    }
    writeFileSync(join(dir, "stack.json"), `${JSON.stringify(states, null, 2)}\n`);
  } finally {
    await plugin.stop();
    await sim.close();
  }
}

main(resolve(process.argv[2])).catch((err) => {
  console.error(err);
  process.exit(1);
});
