// 2 and 7. Refresh of 200 and of 1,000 containers, Reads over gRPC as the engine sends them: all
// at once (the engine's parallelism at least the stack's size, `--parallel 1000`), which is what
// the targets hold; and 16 at a time (the default 4 × CPUs on a 4-CPU CI box), for information.
// The Reads are sent by grpc-go, the engine's own gRPC library, where Go is installed
// (engineSide.ts). Beside them, from the same run: one list GET of that size timed directly, plus
// the gRPC cost of as many empty calls sent at once; and, as information, the same Reads carried by
// the floor plugin (bench/floor/start.ts), which answers each with a canned reply. The simulator
// runs in a process of its own: in the same process as the bench, each list GET of thousands of
// records would hold the sending up. The plugin's passes, the list GET and the floor's passes
// alternate round by round (bench/stats.ts `alternate`); the ratio is the median of the rounds'
// ratios, with their range.
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ALICE } from "../simulator/src";
import { type Plugin, addressed } from "../test/grpc/engine";
import { engineSide, type EngineSide } from "./engineSide";
import { medianRun } from "./stats";
import {
  CONTAINER,
  ENGINE_PARALLELISM,
  IMAGE,
  alternate,
  api,
  kb,
  listPath,
  listPattern,
  median,
  ms,
  msSpread,
  now,
  pool,
  processFigures,
  remoteRig,
  roundRatios,
  spread,
  startFloor,
  thousands,
  timesSpread,
  type RemoteRig,
  type Row,
  type Spread,
} from "./lib";

const SEED_CONCURRENCY = 32;

export interface Resource {
  name: string;
  id: string;
  outputs: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

export interface Pass {
  concurrency: number;
  listCalls: number;
  wallMs: number;
  /** CPU spent meanwhile by the plugin and by the engine side (from /proc, or this process's for grpc-js). */
  pluginCpuMs: number;
  engineCpuMs: number;
  allFound: boolean;
  /** The first Read's request and response, serialized. */
  requestBytes: number;
  responseBytes: number;
}

export interface RefreshFigures {
  count: number;
  /** Who sent the Reads (engineSide.ts): "grpc-go", or grpc-js where Go is missing. */
  engineSide: string;
  /** All Reads at once: the pass of median wall time of ROUNDS (list calls: the most of any). */
  together: Pass;
  /** The same passes' wall times: median and range. */
  togetherWall: Spread;
  /** 16 at a time (not run when the caller leaves it out: at 10,000 it takes minutes). */
  engine16?: Pass;
  /** One list GET of `count` records from this process: median time, and the body's size. */
  listMs: number;
  listBytes: number;
  /** `count` empty gRPC calls (GetPluginInfo) sent at once: wall time. */
  grpcMs: number;
  /**
   * The same Reads sent at once to the floor plugin (bench/floor/start.ts), which answers each with
   * a canned ReadResponse of the real size and decodes nothing: what carrying the refresh's messages
   * through grpc-js costs, after a warm-up: the round of median wall time (wall, and the floor plugin's CPU meanwhile).
   */
  carried?: { wallMs: number; pluginCpuMs: number };
  /** Each round's wall over its baseline (one list GET + the floor's pass), from alternated rounds. */
  wallRatio?: Spread;
  /** Each round's baseline, one list GET + the floor's pass. */
  baseline?: Spread;
  pluginRssMb: number;
}

/**
 * A stack of `count` containers as a refresh finds it: created through the API (quicker than
 * `pulumi up`, and the same records), with the inputs Check gives and the outputs a first Read
 * returns, which is what the engine's state holds.
 */
export async function containerStack(sim: { url: string }, plugin: Plugin, count: number): Promise<Resource[]> {
  const ids = await pool(count, SEED_CONCURRENCY, async (i) => {
    const res = await api(sim, "POST", listPath("containers"), { name: `app-${i}`, image: IMAGE, http_port: 8080 });
    if (res.status >= 300) throw new Error(`seeding app-${i}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.id as string;
  });
  return pool(count, count, async (i) => {
    const name = `app-${i}`;
    const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE });
    const read = await plugin.read(CONTAINER, name, ids[i], {}, inputs);
    return { name, id: ids[i], outputs: read.properties, inputs };
  });
}

/**
 * The Read the engine sends for a resource of its state (built before the clock starts, as the engine has it
 * ready).
 */
export function readRequest(type: string, resource: Resource): provproto.ReadRequest {
  const request = addressed(new provproto.ReadRequest(), type, resource.name);
  request.setId(resource.id);
  request.setProperties(Struct.fromJavaScript(resource.outputs as any));
  request.setInputs(Struct.fromJavaScript(resource.inputs as any));
  return request;
}

/**
 * Every Read of the stack (`readRequest`s), `concurrency` at a time: the API calls counted (GETs
 * of a path matching `counted`: by default the containers list), wall time, and whether each
 * Read found its resource.
 */
export async function refreshPass(
  { plugin, served, clearRequests }: RemoteRig,
  engine: EngineSide,
  requests: provproto.ReadRequest[],
  concurrency: number,
  counted = listPattern("containers"),
): Promise<Pass> {
  await clearRequests();
  const pluginCpu = processFigures(plugin.pid!).cpuMs;
  const engineCpu = engine.cpuMs();
  const { wallMs, replies: reads } = await engine.sendAll<provproto.ReadResponse>("read", requests, concurrency);
  const engineCpuMs = engine.cpuMs() - engineCpu;
  const pluginCpuMs = processFigures(plugin.pid!).cpuMs - pluginCpu;
  return {
    concurrency,
    listCalls: await served("GET", counted),
    wallMs,
    pluginCpuMs,
    engineCpuMs,
    allFound: reads.every((r, i) => r.getId() === requests[i].getId()),
    requestBytes: requests[0].serializeBinary().length,
    responseBytes: reads[0].serializeBinary().length,
  };
}

/**
 * One GET of a list (the containers') from this process (as the plugin would make it): median time of `times`, and
 * the body's size.
 */
export async function timedList(
  sim: { url: string },
  path = listPath("containers"),
  times = 5,
): Promise<{ listMs: number; listBytes: number }> {
  const samples: number[] = [];
  let listBytes = 0;
  for (let i = 0; i < times; i++) {
    const started = now();
    const res = await fetch(sim.url + path, { headers: { authorization: `Bearer ${ALICE.token}` } });
    const body = await res.text();
    JSON.parse(body);
    samples.push(now() - started);
    listBytes = Buffer.byteLength(body);
  }
  return { listMs: median(samples), listBytes };
}

/**
 * `count` empty gRPC calls sent at once: what the engine's calls cost before the provider does anything.
 * Median of 3.
 */
export async function emptyCallsAtOnce(engine: EngineSide, count: number): Promise<number> {
  const walls: number[] = [];
  for (let round = 0; round < 3; round++) {
    const empties = Array.from({ length: count }, () => new Empty());
    walls.push((await engine.sendAll("getPluginInfo", empties, count)).wallMs);
  }
  return median(walls);
}

/**
 * Rounds measured, all Reads at once, for the plugin and for its floor alike (after the same warm-up: the stack's
 * set-up, or one pass).
 */
const ROUNDS = 5;

/**
 * The pass of median wall time, with the most list calls any pass made, and whether every pass found every
 * container.
 */
const medianPass = (passes: Pass[]): Pass => ({
  ...medianRun(passes),
  listCalls: Math.max(...passes.map((p) => p.listCalls)),
  allFound: passes.every((p) => p.allFound),
});

/** The floor plugin answering every Read with `cannedRead`, and an engine side sending to it. */
async function withFloor<T>(
  cannedRead: Uint8Array,
  run: (floor: Plugin, engine: EngineSide) => Promise<T>,
): Promise<T> {
  const floor = await startFloor({ read: cannedRead });
  try {
    const engine = await engineSide(floor);
    try {
      return await run(floor, engine);
    } finally {
      await engine.close();
    }
  } finally {
    await floor.stop();
  }
}

/** The Reads sent at once to the floor: wall time, and the floor plugin's CPU meanwhile. */
async function floorPass(
  floor: Plugin,
  engine: EngineSide,
  requests: provproto.ReadRequest[],
): Promise<{ wallMs: number; pluginCpuMs: number }> {
  const cpu = processFigures(floor.pid!).cpuMs;
  const { wallMs } = await engine.sendAll("read", requests, requests.length);
  return { wallMs, pluginCpuMs: processFigures(floor.pid!).cpuMs - cpu };
}

export async function measureRefresh(
  count: number,
  { engine16 = true, withFloor: floored = true } = {},
): Promise<RefreshFigures> {
  const rig = await remoteRig();
  const { sim, plugin, close } = rig;
  try {
    const engine = await engineSide(plugin);
    try {
      const stack = await containerStack(sim, plugin, count);
      // Built before any clock starts, as the engine has them ready.
      const requests = stack.map((resource) => readRequest(CONTAINER, resource));
      const pass = () => refreshPass(rig, engine, requests, count);
      const list = async () => (await timedList(sim, listPath("containers"), 1)).listMs;
      let passes: Pass[];
      let lists: number[];
      let carried: Array<{ wallMs: number; pluginCpuMs: number }> | undefined;
      if (floored) {
        const cannedRead = (await plugin.call<provproto.ReadResponse>("read", requests[0])).serializeBinary();
        ({ passes, lists, carried } = await withFloor(cannedRead, async (floor, floorEngine) => {
          await floorPass(floor, floorEngine, requests); // the floor's warm-up; the plugin's was the stack's set-up
          const rounds = await alternate(ROUNDS, {
            plugin: pass,
            list,
            floor: () => floorPass(floor, floorEngine, requests),
          });
          return { passes: rounds.plugin, lists: rounds.list, carried: rounds.floor };
        }));
      } else {
        const rounds = await alternate(ROUNDS, { plugin: pass, list });
        ({ plugin: passes, list: lists } = rounds);
      }
      const at16 = engine16 ? await refreshPass(rig, engine, requests, ENGINE_PARALLELISM) : undefined;
      const { listBytes } = await timedList(sim, listPath("containers"), 1);
      const grpcMs = await emptyCallsAtOnce(engine, count);
      const pluginRssMb = processFigures(plugin.pid!).rssMb;
      const baselines = carried?.map((c, i) => lists[i] + c.wallMs);
      return {
        count,
        engineSide: engine.name,
        together: medianPass(passes),
        togetherWall: spread(passes.map((p) => p.wallMs)),
        engine16: at16,
        listMs: median(lists),
        listBytes,
        grpcMs,
        carried: carried ? medianRun(carried) : undefined,
        baseline: baselines ? spread(baselines) : undefined,
        wallRatio: baselines
          ? roundRatios(
              passes.map((p) => p.wallMs),
              baselines,
            )
          : undefined,
        pluginRssMb,
      };
    } finally {
      await engine.close();
    }
  } finally {
    await close();
  }
}

function refreshRow(id: number, count: number, maxListCalls: number, maxWallRatio?: number) {
  return async (): Promise<Row> => {
    const f = await measureRefresh(count);
    const at16 = f.engine16!;
    const carried = f.carried!;
    // The floor: one list GET, and the same Reads carried by grpc-js with canned replies, in each round.
    const baselineMs = f.baseline!.median;
    const wallRatio = f.wallRatio!.median;
    const callsMet = f.together.listCalls <= maxListCalls;
    const wallMet = maxWallRatio === undefined || wallRatio <= maxWallRatio;
    const found = f.together.allFound && at16.allFound;
    const floor = Math.ceil(count / ENGINE_PARALLELISM);
    return {
      id,
      name: `Refresh of ${thousands(count)} containers (all Reads at once; ${ENGINE_PARALLELISM} at a time as information; sent by ${f.engineSide.split(" ")[0]})`,
      baseline: `one list GET of ${thousands(count)} (${kb(f.listBytes)}): ${ms(f.listMs)} + the same Reads answered by the floor: ${ms(carried.wallMs)} = ${msSpread(f.baseline!)}`,
      measured: `all at once (${ROUNDS} rounds): ${f.together.listCalls} list call${f.together.listCalls === 1 ? "" : "s"} at most, ${msSpread(f.togetherWall)} (CPU meanwhile: plugin ${ms(f.together.pluginCpuMs)}, engine side ${ms(f.together.engineCpuMs)}); ${ENGINE_PARALLELISM} at a time: ${at16.listCalls} list calls, ${ms(at16.wallMs)}`,
      ratio: `${timesSpread(f.wallRatio!)} baseline`,
      target: `≤ ${maxListCalls} list calls${maxWallRatio === undefined ? "" : `, wall ≤ ${maxWallRatio}× baseline`} (all at once)`,
      met: callsMet && wallMet && found,
      figures: { ...f, baselineMs, wallRatio, floorAt16: floor },
      notes: [
        ...(found ? [] : ["some Read did not return its container"]),
        ...(f.engineSide === "grpc-go"
          ? []
          : [`The Reads were sent by ${f.engineSide}, a heavier client than the engine's, on the same cores.`]),
        `The floor is a grpc-js server that answers each Read with a canned reply of the real size and decodes nothing (bench/floor/start.ts), after a warm-up; its CPU meanwhile: ${ms(carried.pluginCpuMs)}. The plugin's pass, the list GET and the floor's pass alternate round by round; the ratio is the median of the rounds' ratios, with their range. As context, ${thousands(count)} empty gRPC calls at once: ${ms(f.grpcMs)}.`,
        `${ENGINE_PARALLELISM} at a time (information), ${at16.listCalls} list calls against a floor of ${floor}: every Read must be answered by a list GET that began after it, and only ${ENGINE_PARALLELISM} Reads are waiting at any moment, so at least ${count} / ${ENGINE_PARALLELISM} ≈ ${floor} GETs are needed (row 11 holds this at P = 8 to 64).`,
      ],
    };
  };
}

export const refresh = refreshRow(2, 200, 3);
export const refreshLarge = refreshRow(7, 1_000, 5, 2.0);
