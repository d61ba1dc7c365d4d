// 5. Per-operation overhead: a Container's Check + Diff round trip over gRPC (median), beside
// an empty call (GetPluginInfo) that shows gRPC's own floor; and the plugin's CPU time for a
// preview of 500 resources (Check + Diff each, 16 at a time as the engine runs them).
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { CONTAINER, IMAGE, PROJECT, median, ms, now, pool, processFigures, rig, times, type Row } from "./lib";

const ROUNDS = 2_000;
const PREVIEW = 500;
const ID = "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00";

/** The stack of a 500-resource preview: a mix of every type, with the state a refresh left. */
function stackResource(i: number) {
  const kinds = [
    { type: CONTAINER, inputs: { name: `app-${i}`, image: IMAGE, env: { LOG_LEVEL: "info", PORT: "8080" }, replicas: 2 } },
    { type: "hosting:index:Postgres", inputs: { name: `db-${i}` } },
    { type: "hosting:index:Volume", inputs: { name: `data-${i}`, sizeGb: 10 } },
    { type: "hosting:index:Registry", inputs: { name: `reg-${i}`, host: "ghcr.io", username: "ci" } },
    { type: "hosting:index:VolumeAttachment", inputs: { volumeId: ID, containerId: ID, mountPath: "/data" } },
  ];
  return kinds[i % kinds.length];
}

export async function overhead(): Promise<Row> {
  const { plugin, close } = await rig();
  try {
    const olds = { name: "web", image: IMAGE, httpPort: 8080, running: true, projectId: PROJECT, status: "running" };
    const news = { name: "web", image: "registry.example.com/acme/web:1.0.1" };
    const pair = async () => {
      const checked = await plugin.check(CONTAINER, "web", news, olds);
      await plugin.diff(CONTAINER, "web", ID, olds, checked.inputs, olds);
    };
    const empty = () => plugin.call("getPluginInfo", new Empty());
    for (let i = 0; i < 300; i++) {
      await pair();
      await empty();
    }
    const pairs: number[] = [];
    const empties: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let t = now();
      await pair();
      pairs.push(now() - t);
      t = now();
      await empty();
      empties.push(now() - t);
    }
    const pairMs = median(pairs);
    const emptyMs = median(empties);

    // A preview of 500 resources: the CPU the plugin spends, measured from /proc.
    const pid = plugin.pid!;
    const before = processFigures(pid).cpuMs;
    const started = now();
    await pool(PREVIEW, 16, async (i) => {
      const { type, inputs } = stackResource(i);
      const name = `r-${i}`;
      const checked = await plugin.check(type, name, inputs, inputs);
      await plugin.diff(type, name, ID, { ...checked.inputs }, checked.inputs, checked.inputs);
    });
    const previewWallMs = now() - started;
    const previewCpuMs = processFigures(pid).cpuMs - before;

    return {
      id: 5,
      name: "Per-operation overhead (Container Check + Diff over gRPC; 500-resource preview)",
      baseline: `empty gRPC call: ${ms(emptyMs)}`,
      measured: `Check + Diff: ${ms(pairMs)}; preview of ${PREVIEW}: ${ms(previewCpuMs)} plugin CPU`,
      ratio: `${times(pairMs / emptyMs)} empty call`,
      target: "median < 1 ms; preview < 1 s CPU",
      met: pairMs < 1 && previewCpuMs < 1000,
      figures: {
        rounds: ROUNDS,
        checkDiffMedianMs: pairMs,
        checkDiffP90Ms: [...pairs].sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)],
        emptyCallMedianMs: emptyMs,
        previewResources: PREVIEW,
        previewCpuMs,
        previewWallMs,
      },
      notes: ["Round trips are measured from the engine's side (this process, grpc-js client), so they include the client's own work."],
    };
  } finally {
    await close();
  }
}
