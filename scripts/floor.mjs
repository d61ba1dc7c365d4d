// The benchmarks' floors (bench/floor/start.ts says what they measure), built into `dir`:
//   floor/pulumi-resource-hosting         the plugin's own first stage, with bench/floor/start.ts
//                                         beside it as its second stage, code-cached as `make build` does
//   first-stage/pulumi-resource-hosting   the first stage alone: finding no second stage, it answers
//                                         every call from Node's http2 with the reason (FAILED_PRECONDITION)
// Run from the checkout (the stages' entries are relative to it).
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SERVER_CACHE_FILE, SERVER_FILE, bundleFirstStage, bundleSecondStage } from "./bundles.mjs";
import { trainCodeCache } from "./code-cache.mjs";

export async function buildFloorPlugins(dir) {
  const floorDir = join(dir, "floor");
  const firstStageDir = join(dir, "first-stage");
  const floor = join(floorDir, "pulumi-resource-hosting");
  const firstStage = join(firstStageDir, "pulumi-resource-hosting");
  for (const [executable, at] of [
    [floor, floorDir],
    [firstStage, firstStageDir],
  ]) {
    rmSync(at, { recursive: true, force: true });
    mkdirSync(at, { recursive: true });
    await bundleFirstStage(executable, { shebang: true });
  }
  await bundleSecondStage(join(floorDir, SERVER_FILE), { entry: "bench/floor/start.ts" });
  await trainCodeCache(process.execPath, [floor], join(floorDir, SERVER_CACHE_FILE));
  return { floor, firstStage };
}
