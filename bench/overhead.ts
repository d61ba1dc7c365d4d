// 5. A preview of 1,000 resources of mixed kinds, as the engine sends it (Check then Diff for each,
// 16 at a time): the CPU a fresh plugin spends, against the floor: a fresh grpc-js server
// (bench/floor/start.ts) answering the same requests with canned replies, decoding nothing. And
// Check + Diff one at a time, as the engine sends them by default (`ParallelDiff` off): the round
// trip of one Container's pair, against the same pair answered by the floor. As context: the same
// preview again (warm), and as many empty gRPC calls (GetPluginInfo).
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Plugin, addressed } from "../test/grpc/engine";
import { CONTAINER, ENGINE_PARALLELISM, IMAGE, PROJECT, median, ms, now, pool, processFigures, rig, startFloor, thousands, times, type Row } from "./lib";

const ROUNDS = 2_000;
const PREVIEW = 1_000;
/** A cold preview may cost this many times the floor's CPU; a Check + Diff round trip this many times the floor's. */
const PREVIEW_OVER_FLOOR = 1.4;
const ROUND_TRIP_OVER_FLOOR = 1.15;
const ID = "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00";

/** The stack of a preview: a mix of every type, with the state a refresh left. */
function stackResource(i: number): { type: string; inputs: Record<string, JavaScriptValue> } {
  const kinds: Array<{ type: string; inputs: Record<string, JavaScriptValue> }> = [
    { type: CONTAINER, inputs: { name: `app-${i}`, image: IMAGE, env: { LOG_LEVEL: "info", PORT: "8080" }, replicas: 2 } },
    { type: "hosting:index:Postgres", inputs: { name: `db-${i}` } },
    { type: "hosting:index:Volume", inputs: { name: `data-${i}`, sizeGb: 10 } },
    { type: "hosting:index:Registry", inputs: { name: `reg-${i}`, host: "ghcr.io", username: "ci" } },
    { type: "hosting:index:VolumeAttachment", inputs: { volumeId: ID, containerId: ID, mountPath: "/data" } },
  ];
  return kinds[i % kinds.length];
}

/** The plugin's CPU (from /proc) and the wall time of `run`. */
async function pluginCost(plugin: Plugin, run: () => Promise<unknown>): Promise<{ cpuMs: number; wallMs: number }> {
  const before = processFigures(plugin.pid!).cpuMs;
  const started = now();
  await run();
  return { wallMs: now() - started, cpuMs: processFigures(plugin.pid!).cpuMs - before };
}

/** The Check and the Diff of one resource of the preview, as the engine sends them: the Diff carries what the Check answered. */
interface PreviewStep {
  check: provproto.CheckRequest;
  diff(checked: provproto.CheckResponse): provproto.DiffRequest;
}

function previewStep(i: number): PreviewStep {
  const { type, inputs } = stackResource(i);
  const name = `r-${i}`;
  const check = addressed(new provproto.CheckRequest(), type, name);
  check.setNews(Struct.fromJavaScript(inputs));
  check.setOlds(Struct.fromJavaScript(inputs));
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

/** The requests a preview of `count` resources sent, to send again (to the floor): each Check, and the Diff that followed it. */
type SentPreview = Array<{ check: provproto.CheckRequest; diff: provproto.DiffRequest }>;

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
function replay(plugin: Plugin, sent: SentPreview) {
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

/** Median round trips of one Container Check + Diff and of one empty call, alternately, after a warm-up. */
async function roundTrips(plugin: Plugin) {
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
  return { pairMs: median(pairs), pairP90Ms: [...pairs].sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)], emptyMs: median(empties) };
}

/** The raw replies the provider gives the first resource of the stack (a Container): its Check's, then its Diff's. */
async function containerReplies(plugin: Plugin): Promise<{ check: Uint8Array; diff: Uint8Array }> {
  const step = previewStep(0);
  const checked = await plugin.call<provproto.CheckResponse>("check", step.check);
  const diffed = await plugin.call<provproto.DiffResponse>("diff", step.diff(checked));
  return { check: checked.serializeBinary(), diff: diffed.serializeBinary() };
}

/**
 * The preview's own requests sent again to a fresh floor plugin (bench/floor/start.ts) that answers
 * every Check and Diff with the Container's replies, decoding nothing: what carrying the preview's
 * messages through grpc-js costs the plugin, before the provider does anything.
 */
async function previewOnFloor(sent: SentPreview, replies: { check: Uint8Array; diff: Uint8Array }) {
  const plugin = await startFloor(replies);
  try {
    return await replay(plugin, sent);
  } finally {
    await plugin.stop();
  }
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

/** Median round trips on a fresh floor plugin answering with the Container's replies. */
async function roundTripsOnFloor(replies: { check: Uint8Array; diff: Uint8Array }) {
  const plugin = await startFloor(replies);
  try {
    return await roundTrips(plugin);
  } finally {
    await plugin.stop();
  }
}

export async function overhead(): Promise<Row> {
  // Each on a fresh plugin: a preview's plugin starts cold, so its JIT warm-up is part of the cost.
  const sent: SentPreview = [];
  const { cold, warm, replies } = await onFreshPlugin(async (plugin) => ({
    cold: await preview(plugin, PREVIEW, sent),
    warm: await preview(plugin, PREVIEW),
    replies: await containerReplies(plugin),
  }));
  const empties = await onFreshPlugin((plugin) => emptyCalls(plugin, 2 * PREVIEW));
  const carried = await previewOnFloor(sent, replies);
  const trips = await onFreshPlugin(roundTrips);
  const floorTrips = await roundTripsOnFloor(replies);
  const previewRatio = cold.cpuMs / carried.cpuMs;
  const tripRatio = trips.pairMs / floorTrips.pairMs;
  return {
    id: 5,
    name: `Preview of ${thousands(PREVIEW)} resources of mixed kinds (Check + Diff each, ${ENGINE_PARALLELISM} at a time, fresh plugin); one Check + Diff at a time`,
    baseline:
      `the floor answering the same requests: ${ms(carried.cpuMs)} CPU; one Check + Diff on the floor: ${ms(floorTrips.pairMs)} round trip`,
    measured:
      `${ms(cold.cpuMs)} plugin CPU (${ms(cold.wallMs)} wall); one Container Check + Diff: ${ms(trips.pairMs)} round trip`,
    ratio: `${times(previewRatio)} / ${times(tripRatio)} the floor`,
    target: `preview ≤ ${PREVIEW_OVER_FLOOR}×, round trip ≤ ${ROUND_TRIP_OVER_FLOOR}× the floor`,
    met: previewRatio <= PREVIEW_OVER_FLOOR && tripRatio <= ROUND_TRIP_OVER_FLOOR,
    figures: {
      previewResources: PREVIEW,
      previewCpuMs: cold.cpuMs,
      previewWallMs: cold.wallMs,
      warmPreviewCpuMs: warm.cpuMs,
      warmPreviewWallMs: warm.wallMs,
      emptyCalls: 2 * PREVIEW,
      emptyCallsCpuMs: empties.cpuMs,
      emptyCallsWallMs: empties.wallMs,
      rounds: ROUNDS,
      checkDiffMedianMs: trips.pairMs,
      checkDiffP90Ms: trips.pairP90Ms,
      emptyCallMedianMs: trips.emptyMs,
      floorCheckDiffMedianMs: floorTrips.pairMs,
      carriedCpuMs: carried.cpuMs,
      carriedWallMs: carried.wallMs,
      previewRatio,
      tripRatio,
    },
    notes: [
      `Context: the same preview again on the warm plugin, ${ms(warm.cpuMs)} CPU (${times(warm.cpuMs / carried.cpuMs)} the floor); ` +
        `${thousands(2 * PREVIEW)} empty calls on a fresh plugin, ${ms(empties.cpuMs)}; one empty call, ${ms(trips.emptyMs)} round trip. ` +
        "Round trips are measured from the engine's side (this process, a grpc-js client); plugin CPU from /proc.",
    ],
  };
}
