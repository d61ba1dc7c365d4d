// 1. Plugin start: spawn to the port line, against a bare `node -e 'console.log(1)'` spawn,
// measured alternately. Also reported (not the target, but what a preview waits for): spawn
// to the first answered call, and to a configured provider's first Check + Diff.
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ALICE, startSimulator } from "../simulator/src";
import { PLUGIN, Plugin } from "../test/grpc/engine";
import { CONTAINER, IMAGE, PROJECT, median, ms, now, spawnToFirstLine, times, type Row } from "./lib";

export async function startup(rounds = 25): Promise<Row> {
  const node: number[] = [];
  const plugin: number[] = [];
  // One warm-up each (file system cache), then alternate.
  await spawnToFirstLine(process.execPath, ["-e", "console.log(1)"]);
  await spawnToFirstLine(PLUGIN, ["127.0.0.1:1"]);
  for (let i = 0; i < rounds; i++) {
    node.push(await spawnToFirstLine(process.execPath, ["-e", "console.log(1)"]));
    plugin.push(await spawnToFirstLine(PLUGIN, ["127.0.0.1:1"]));
  }
  const nodeMs = median(node);
  const pluginMs = median(plugin);
  const ratio = pluginMs / nodeMs;

  // What the engine waits for after the port line: the first answer, and a first Check + Diff.
  const sim = await startSimulator({ port: 0 });
  const firstAnswer: number[] = [];
  const firstDiff: number[] = [];
  try {
    for (let i = 0; i < 7; i++) {
      const started = now();
      const p = await Plugin.start();
      try {
        await p.call("getPluginInfo", new Empty());
        firstAnswer.push(now() - started);
        await p.checkConfig({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
        await p.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
        const checked = await p.check(CONTAINER, "web", { name: "web", image: IMAGE });
        await p.diff(CONTAINER, "web", "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00", checked.inputs, checked.inputs, checked.inputs);
        firstDiff.push(now() - started);
      } finally {
        await p.stop();
      }
    }
  } finally {
    await sim.close();
  }

  return {
    id: 1,
    name: "Plugin start (spawn → port line)",
    baseline: `bare \`node -e\`: ${ms(nodeMs)}`,
    measured: ms(pluginMs),
    ratio: times(ratio),
    target: "≤ 1.5×",
    met: ratio <= 1.5,
    figures: {
      rounds,
      nodeMedianMs: nodeMs,
      pluginMedianMs: pluginMs,
      ratio,
      node,
      plugin,
      firstAnswerMedianMs: median(firstAnswer),
      firstCheckDiffMedianMs: median(firstDiff),
    },
    notes: [
      `spawn → first answered call (GetPluginInfo): ${ms(median(firstAnswer))} (${times(median(firstAnswer) / nodeMs)} node -e); ` +
        `spawn → configured + first Check and Diff: ${ms(median(firstDiff))}. The port line comes first because the ` +
        `plugin loads gRPC and the provider after printing it (connections made meanwhile wait, none fail).`,
    ],
  };
}
