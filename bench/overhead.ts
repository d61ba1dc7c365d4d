// 5. A preview of 1,000 resources of the package's own mix of kinds (scripts/preview-mix.ts: every
// example of every resource), as the engine sends it (Check then Diff for each, 16 at a time): the
// CPU a fresh plugin spends, against the floor: a fresh grpc-js server (bench/floor/start.ts)
// answering the same requests with canned replies, decoding nothing. And Check + Diff one at a
// time, as the engine sends them by default (`ParallelDiff` off): the round trip of one Container's
// pair, and (row 15) of the preview's own mix of kinds, each against the same pairs answered by the
// floor. Every ratio alternates the plugin and the floor round by round (bench/stats.ts
// `alternate`) and reports the median and range of the rounds' ratios. As context: the same preview
// again (warm), and as many empty gRPC calls (GetPluginInfo).
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { type Plugin, addressed } from "../test/grpc/engine";
import { REFERENCED_ID, previewMix, stackResource } from "../scripts/preview-mix";
import {
  CONTAINER,
  ENGINE_PARALLELISM,
  IMAGE,
  PROJECT,
  alternate,
  median,
  ms,
  msSpread,
  now,
  pool,
  processFigures,
  rig,
  roundRatios,
  spread,
  startFloor,
  thousands,
  timesSpread,
  type Row,
} from "./lib";

const PREVIEW = 1_000;
/** Cold previews, each on a fresh plugin and a fresh floor. */
const PREVIEW_ROUNDS = 7;
/** Rounds of one-at-a-time pairs, and the pairs each side sends a round. */
const TRIP_ROUNDS = 9;
const PAIRS_PER_ROUND = 150;
/** A cold preview may cost this many times the floor's CPU; a Check + Diff round trip this many times the floor's. */
const PREVIEW_OVER_FLOOR = 1.4;
const ROUND_TRIP_OVER_FLOOR = 1.15;
const ID = REFERENCED_ID;
const MIX = previewMix();

/** The plugin's CPU (from /proc) and the wall time of `run`. */
async function pluginCost(plugin: Plugin, run: () => Promise<unknown>): Promise<{ cpuMs: number; wallMs: number }> {
  const before = processFigures(plugin.pid!).cpuMs;
  const started = now();
  await run();
  return { wallMs: now() - started, cpuMs: processFigures(plugin.pid!).cpuMs - before };
}

/**
 * The Check and the Diff of one resource of the preview, as the engine sends them: the Diff carries what the Check
 * answered.
 */
interface PreviewStep {
  check: provproto.CheckRequest;
  diff(checked: provproto.CheckResponse): provproto.DiffRequest;
}

function previewStep(i: number): PreviewStep {
  const { type, name, inputs } = stackResource(MIX, i);
  const check = addressed(new provproto.CheckRequest(), type, name);
  check.setNews(Struct.fromJavaScript(inputs as Record<string, JavaScriptValue>));
  check.setOlds(Struct.fromJavaScript(inputs as Record<string, JavaScriptValue>));
  return {
    check,
    diff(checked) {
      const diff = addressed(new provproto.DiffRequest(), type, name);
      diff.setId(ID);
      diff.setOlds(checked.getInputs());
      diff.setNews(checked.getInputs());
      diff.setOldInputs(checked.getInputs());
      return diff;
    },
  };
}

/**
 * The requests a preview of `count` resources sent, to send again (to the floor): each Check, and the Diff that
 * followed it.
 */
export type SentPreview = Array<{ check: provproto.CheckRequest; diff: provproto.DiffRequest }>;

/** A preview of `count` resources: Check then Diff for each, 16 at a time; its requests go into `sent`, if given. */
export function preview(plugin: Plugin, count: number, sent?: SentPreview) {
  return pluginCost(plugin, () =>
    pool(count, ENGINE_PARALLELISM, async (i) => {
      const step = previewStep(i);
      const diff = step.diff(await plugin.call<provproto.CheckResponse>("check", step.check));
      await plugin.call("diff", diff);
      if (sent) sent[i] = { check: step.check, diff };
    }),
  );
}

/** The same requests again, in the same order and at the same parallelism. */
export function replay(plugin: Plugin, sent: SentPreview) {
  return pluginCost(plugin, () =>
    pool(sent.length, ENGINE_PARALLELISM, async (i) => {
      await plugin.call("check", sent[i].check);
      await plugin.call("diff", sent[i].diff);
    }),
  );
}

/** `count` empty calls, 16 at a time: the gRPC floor of as many calls as a preview makes. */
export function emptyCalls(plugin: Plugin, count: number) {
  return pluginCost(plugin, () => pool(count, ENGINE_PARALLELISM, () => plugin.call("getPluginInfo", new Empty())));
}

/** One Check + Diff, as the engine sends them one at a time: the pair, its round trip measured from here. */
export type Pair = (plugin: Plugin, i: number) => Promise<unknown>;

/** A Container changed from its state: the pair the start-up and the earlier rows measured. */
export const containerPair: Pair = async (plugin) => {
  const olds = { name: "web", image: IMAGE, httpPort: 8080, running: true, projectId: PROJECT, status: "running" };
  const news = { name: "web", image: "registry.example.com/acme/web:1.0.1" };
  const checked = await plugin.check(CONTAINER, "web", news, olds);
  await plugin.diff(CONTAINER, "web", ID, olds, checked.inputs, olds);
};

/** The preview's own mix, one resource after another: each kind's example changed from its inputs. */
export const mixPair: Pair = async (plugin, i) => {
  const { type, name, inputs, changed } = MIX[i % MIX.length];
  const checked = await plugin.check(type, name, changed, inputs);
  await plugin.diff(type, name, ID, inputs, checked.inputs, inputs);
};

/** The median round trip of `count` pairs sent one at a time. */
async function medianPair(plugin: Plugin, pair: Pair, count = PAIRS_PER_ROUND): Promise<number> {
  const trips: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = now();
    await pair(plugin, i);
    trips.push(now() - t);
  }
  return median(trips);
}

/** The raw replies the provider gives a Container of the stack: its Check's, then its Diff's. */
export async function containerReplies(plugin: Plugin): Promise<{ check: Uint8Array; diff: Uint8Array }> {
  const step = previewStep(MIX.findIndex((r) => r.type === CONTAINER));
  const checked = await plugin.call<provproto.CheckResponse>("check", step.check);
  const diffed = await plugin.call<provproto.DiffResponse>("diff", step.diff(checked));
  return { check: checked.serializeBinary(), diff: diffed.serializeBinary() };
}

/** A freshly started and configured plugin, as `pulumi preview` has one. */
async function onFreshPlugin<T>(run: (plugin: Plugin) => Promise<T>): Promise<T> {
  const { plugin, close } = await rig();
  try {
    return await run(plugin);
  } finally {
    await close();
  }
}

/** A fresh floor plugin (bench/floor/start.ts) answering every Check and Diff with the Container's replies. */
async function onFreshFloor<T>(replies: Replies, run: (floor: Plugin) => Promise<T>): Promise<T> {
  const floor = await startFloor(replies);
  try {
    return await run(floor);
  } finally {
    await floor.stop();
  }
}

type Cost = { cpuMs: number; wallMs: number };
type Replies = { check: Uint8Array; diff: Uint8Array };

/**
 * Cold previews, alternated: a fresh plugin's preview (and the same again, warm), then the same
 * requests sent to a fresh floor (cold, and again), round by round. The requests are those of a
 * first preview made before the rounds (which also warms the file system cache).
 */
async function previews() {
  const sent: SentPreview = [];
  const replies = await onFreshPlugin(async (plugin) => {
    await preview(plugin, PREVIEW, sent);
    return containerReplies(plugin);
  });
  const rounds = await alternate(PREVIEW_ROUNDS, {
    plugin: () =>
      onFreshPlugin(async (plugin) => ({ cold: await preview(plugin, PREVIEW), warm: await preview(plugin, PREVIEW) })),
    floor: () =>
      onFreshFloor(replies, async (floor) => ({ cold: await replay(floor, sent), warm: await replay(floor, sent) })),
  });
  const cpu = (costs: Array<{ cold: Cost; warm: Cost }>, which: "cold" | "warm") => costs.map((c) => c[which].cpuMs);
  return {
    replies,
    plugin: {
      cold: spread(cpu(rounds.plugin, "cold")),
      warm: spread(cpu(rounds.plugin, "warm")),
      coldWall: spread(rounds.plugin.map((c) => c.cold.wallMs)),
    },
    floor: { cold: spread(cpu(rounds.floor, "cold")), warm: spread(cpu(rounds.floor, "warm")) },
    cold: roundRatios(cpu(rounds.plugin, "cold"), cpu(rounds.floor, "cold")),
    warm: roundRatios(cpu(rounds.plugin, "warm"), cpu(rounds.floor, "warm")),
    warmOverCold: roundRatios(cpu(rounds.plugin, "warm"), cpu(rounds.floor, "cold")),
  };
}

/** Pairs one at a time on one warm plugin and one warm floor, alternated round by round: a Container's, the mix's. */
async function roundTrips(replies: Replies) {
  return onFreshPlugin((plugin) =>
    onFreshFloor(replies, async (floor) => {
      const rounds = await alternate(
        TRIP_ROUNDS,
        {
          container: () => medianPair(plugin, containerPair),
          floorContainer: () => medianPair(floor, containerPair),
          mix: () => medianPair(plugin, mixPair),
          floorMix: () => medianPair(floor, mixPair),
        },
        { warmUp: 2 },
      );
      const emptyMs = await medianPair(plugin, (p) => p.call("getPluginInfo", new Empty()));
      return {
        container: spread(rounds.container),
        floorContainer: spread(rounds.floorContainer),
        mix: spread(rounds.mix),
        floorMix: spread(rounds.floorMix),
        containerRatio: roundRatios(rounds.container, rounds.floorContainer),
        mixRatio: roundRatios(rounds.mix, rounds.floorMix),
        emptyMs,
        rounds,
      };
    }),
  );
}

export async function overhead(): Promise<Row[]> {
  const cost = await previews();
  const empties = await onFreshPlugin((plugin) => emptyCalls(plugin, 2 * PREVIEW));
  const trips = await roundTrips(cost.replies);
  const kinds = [...new Set(MIX.map((r) => r.type.split(":").at(-1)))].join(", ");
  const previewMet = cost.cold.median <= PREVIEW_OVER_FLOOR;
  const containerMet = trips.containerRatio.median <= ROUND_TRIP_OVER_FLOOR;
  const mixMet = trips.mixRatio.median <= ROUND_TRIP_OVER_FLOOR;
  const alternation =
    "The plugin and the floor alternate round by round (A B, B A, …); ratios are the median of the rounds' ratios, with their range.";
  return [
    {
      id: 5,
      name: `Preview of ${thousands(PREVIEW)} resources, the package's mix of kinds (Check + Diff each, ${ENGINE_PARALLELISM} at a time, fresh plugin); one Container Check + Diff at a time`,
      baseline: `the floor answering the same requests: ${msSpread(cost.floor.cold)} CPU; one Check + Diff on the floor: ${msSpread(trips.floorContainer)} round trip`,
      measured: `${msSpread(cost.plugin.cold)} plugin CPU (${ms(cost.plugin.coldWall.median)} wall); one Container Check + Diff: ${msSpread(trips.container)} round trip`,
      ratio: `${timesSpread(cost.cold)} / ${timesSpread(trips.containerRatio)} the floor`,
      target: `preview ≤ ${PREVIEW_OVER_FLOOR}×, round trip ≤ ${ROUND_TRIP_OVER_FLOOR}× the floor`,
      met: previewMet && containerMet,
      figures: {
        previewResources: PREVIEW,
        kinds: MIX.map((r) => `${r.type} ${r.name}`),
        previewRounds: PREVIEW_ROUNDS,
        previewCpuMs: cost.plugin.cold,
        previewWallMs: cost.plugin.coldWall,
        warmPreviewCpuMs: cost.plugin.warm,
        carriedCpuMs: cost.floor.cold,
        carriedWarmCpuMs: cost.floor.warm,
        previewRatio: cost.cold,
        warmPreviewRatio: cost.warm,
        warmOverFloorColdRatio: cost.warmOverCold,
        emptyCalls: 2 * PREVIEW,
        emptyCallsCpuMs: empties.cpuMs,
        emptyCallsWallMs: empties.wallMs,
        tripRounds: TRIP_ROUNDS,
        pairsPerRound: PAIRS_PER_ROUND,
        checkDiffMedianMs: trips.container,
        floorCheckDiffMedianMs: trips.floorContainer,
        emptyCallMedianMs: trips.emptyMs,
        tripRatio: trips.containerRatio,
      },
      notes: [
        `The mix: ${MIX.length} examples (${kinds}), from the declarations (scripts/preview-mix.ts). Context: the same preview again on the warm plugin, ${msSpread(cost.plugin.warm)} CPU (${timesSpread(cost.warmOverCold)} the floor's first pass, ${timesSpread(cost.warm)} its second); ${thousands(2 * PREVIEW)} empty calls on a fresh plugin, ${ms(empties.cpuMs)}; one empty call, ${ms(trips.emptyMs)} round trip. Round trips are measured from the engine's side (this process, a grpc-js client), ${PAIRS_PER_ROUND} pairs a round; plugin CPU from /proc. ${alternation}`,
      ],
    },
    {
      id: 15,
      name: `One Check + Diff at a time, the preview's own mix of kinds (${MIX.length} examples, each changed)`,
      baseline: `the floor answering the same pairs: ${msSpread(trips.floorMix)} round trip`,
      measured: `${msSpread(trips.mix)} round trip`,
      ratio: `${timesSpread(trips.mixRatio)} the floor`,
      target: `≤ ${ROUND_TRIP_OVER_FLOOR}× the floor`,
      met: mixMet,
      figures: {
        tripRounds: TRIP_ROUNDS,
        pairsPerRound: PAIRS_PER_ROUND,
        mixMedianMs: trips.mix,
        floorMixMedianMs: trips.floorMix,
        mixRatio: trips.mixRatio,
        rounds: trips.rounds,
      },
      notes: [`Kinds: ${kinds}; the floor answers each with a Container's replies. ${alternation}`],
    },
  ];
}
