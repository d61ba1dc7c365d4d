// 1. Plugin start as the engine feels it: spawn → the first answered call (GetPluginInfo), for the
// Node.js-script plugin (bin/, `make build`) and the single executable (dist/, `make package`; left
// out when it has not been built), against the floor measured alternately in the same run
// (scripts/floor.mjs): the same first stage with nothing but grpc-js and the stubs behind it. As
// context: a bare `node -e 'console.log(1)'` spawn → its first line, the first stage alone
// answering from node:http2, spawn → the port line (what the engine waits for before it
// connects), and spawn → configured with a first Check + Diff.
import * as grpc from "@grpc/grpc-js";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { ALICE, startSimulator } from "../simulator/src";
import { FakeEngine, PLUGIN, Plugin } from "../test/grpc/engine";
import {
  CONTAINER,
  IMAGE,
  PROJECT,
  alternate,
  floorPlugins,
  median,
  ms,
  now,
  spawnToFirstLine,
  spread,
  times,
  type Row,
} from "./lib";

const SINGLE_EXECUTABLE = resolve(
  __dirname,
  "../..",
  process.platform === "win32" ? "dist/pulumi-resource-hosting.exe" : "dist/pulumi-resource-hosting",
);
/** Start-up may cost this much more than the floor (grpc-js and the stubs, with the same first stage). */
const OVER_FLOOR_MS = 5;
/** A difference of times, signed: +3.4 ms, −3.4 ms. */
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${ms(Math.abs(x))}`;

/**
 * Milliseconds from spawning the plugin to its port line, and to the answer of its first call.
 * `failing`: the first stage alone, whose answer is FAILED_PRECONDITION (no second stage beside it).
 */
function spawnToFirstAnswer(
  command: string,
  engineAddress: string,
  failing = false,
): Promise<{ port: number; answer: number }> {
  return new Promise((res, rej) => {
    const started = now();
    const child = spawn(command, [engineAddress], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    child.once("error", rej);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const port = now() - started;
      const client = new provrpc.ResourceProviderClient(`127.0.0.1:${line.trim()}`, grpc.credentials.createInsecure());
      client.getPluginInfo(new Empty(), (err) => {
        const answer = now() - started;
        client.close();
        const answered = !err || (failing && err.code === grpc.status.FAILED_PRECONDITION);
        child.once("exit", () => (answered ? res({ port, answer }) : rej(err)));
        child.kill("SIGKILL");
      });
    });
  });
}

export async function startup(rounds = 25): Promise<Row> {
  const plugins = { script: PLUGIN, ...(existsSync(SINGLE_EXECUTABLE) ? { sea: SINGLE_EXECUTABLE } : {}) } as Record<
    string,
    string
  >;
  const floors: Record<string, string> = await floorPlugins();
  const engine = await new FakeEngine().start();
  const node: number[] = [];
  const port: Record<string, number[]> = {};
  const answer: Record<string, number[]> = {};
  try {
    // One warm-up round (file system cache), then the rounds, alternated (bench/stats.ts `alternate`).
    const all = { ...plugins, ...floors };
    const sides = {
      node: () => spawnToFirstLine(process.execPath, ["-e", "console.log(1)"]),
      ...Object.fromEntries(
        Object.entries(all).map(([kind, command]) => [
          kind,
          () => spawnToFirstAnswer(command, engine.address, kind === "firstStage"),
        ]),
      ),
    } as Record<string, () => Promise<number | { port: number; answer: number }>>;
    const measured = await alternate(rounds, sides, { warmUp: 1 });
    node.push(...(measured.node as number[]));
    for (const kind of Object.keys(all)) {
      const spawns = measured[kind] as Array<{ port: number; answer: number }>;
      port[kind] = spawns.map((t) => t.port);
      answer[kind] = spawns.map((t) => t.answer);
    }
  } finally {
    engine.stop();
  }
  const nodeMs = median(node);
  const first = Object.fromEntries(Object.keys(plugins).map((k) => [k, median(answer[k])]));
  const portLine = Object.fromEntries(Object.keys(plugins).map((k) => [k, median(port[k])]));
  const label: Record<string, string> = { script: "Node.js script", sea: "single executable" };
  const floor = Object.fromEntries(Object.keys(floors).map((k) => [k, median(answer[k])]));
  // Each round's first answer less the floor's in the same round: the median and the range.
  const overFloorRounds = Object.fromEntries(
    Object.keys(plugins).map((k) => [k, spread(answer[k].map((a, i) => a - answer.floor[i]))]),
  );
  const overFloor = Object.fromEntries(Object.keys(plugins).map((k) => [k, overFloorRounds[k].median]));

  // After the first answer, what a preview waits for: configured, and a first Check + Diff.
  const sim = await startSimulator({ port: 0 });
  const firstDiff: number[] = [];
  try {
    for (let i = 0; i < 7; i++) {
      const started = now();
      const p = await Plugin.start();
      try {
        await p.checkConfig({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
        await p.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
        const checked = await p.check(CONTAINER, "web", { name: "web", image: IMAGE });
        await p.diff(
          CONTAINER,
          "web",
          "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00",
          checked.inputs,
          checked.inputs,
          checked.inputs,
        );
        firstDiff.push(now() - started);
      } finally {
        await p.stop();
      }
    }
  } finally {
    await sim.close();
  }

  const kinds = Object.keys(plugins);
  return {
    id: 1,
    name: "Plugin start (spawn → first answered call, GetPluginInfo)",
    baseline: `the floor, grpc-js and the stubs behind the same first stage: ${ms(floor.floor)}; as context, bare \`node -e\`: ${ms(nodeMs)}`,
    measured: kinds.map((k) => `${label[k]}: ${ms(first[k])}`).join("; "),
    ratio: `${kinds
      .map((k) => `${signed(overFloor[k])} (${signed(overFloorRounds[k].min)} to ${signed(overFloorRounds[k].max)})`)
      .join(" / ")} over the floor, ${rounds} rounds`,
    target: `≤ floor + ${OVER_FLOOR_MS} ms, the Node.js script and the single executable each`,
    // Both plugins are held to the same floor; a row without the single executable has not shown it met.
    met: plugins.sea !== undefined && kinds.every((k) => overFloor[k] <= OVER_FLOOR_MS),
    figures: {
      rounds,
      nodeMedianMs: nodeMs,
      firstAnswerMedianMs: first,
      portLineMedianMs: portLine,
      overFloorMs: overFloor,
      overFloorRoundsMs: overFloorRounds,
      nodeRatio: Object.fromEntries(kinds.map((k) => [k, first[k] / nodeMs])),
      node,
      firstAnswer: answer,
      portLine: port,
      firstCheckDiffMedianMs: median(firstDiff),
      floorFirstAnswerMedianMs: floor,
      floorRatio: Object.fromEntries(Object.entries(floor).map(([k, v]) => [k, v / nodeMs])),
    },
    notes: [
      `spawn → port line: ${kinds.map((k) => `${label[k]} ${ms(portLine[k])} (${times(portLine[k] / nodeMs)})`).join(", ")}; spawn → configured + first Check and Diff (Node.js script): ${ms(median(firstDiff))}.${plugins.sea ? "" : " The single executable was not measured: run make package first."}`,
      `The floors, measured alternately with the above: the same first stage with a second stage of grpc-js, the Pulumi stubs and a GetPluginInfo handler, code-cached the same way (bench/floor/start.ts): ${ms(floor.floor)} (${times(floor.floor / nodeMs)}); the first stage alone, answering from node:http2 with no gRPC library: ${ms(floor.firstStage)} (${times(floor.firstStage / nodeMs)}).`,
    ],
  };
}
