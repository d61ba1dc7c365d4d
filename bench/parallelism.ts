// 11–14. Refresh at the engine's real parallelism: the engine keeps a sliding window of P Reads in
// flight (P = 4 × CPUs by default: pkg/cmd/pulumi/operations/up.go, step_executor.go), sending the
// next as each is answered. Measured for N = 1,000 and 5,000 at P = 8, 16, 32 and 64, the Reads
// sent by the engine side of engineSide.ts (grpc-go where Go is installed), against a simulator in
// a process of its own:
//   11, 12. containers, strict (the default `readConsistency: fresh`): list GETs, and the wall time
//       against as many list GETs timed one after another from this process;
//   13. volumes and registries, which the API reads by id too: GETs to the API (lists and reads by
//       id; a Read sends nothing else);
//   14. `readConsistency: snapshot`: 5,000 containers at P = 8 against all 5,000 Reads at once
//       (strict); at P = 16, 32, 64 and all at once as information.
// Where a row's ratio has a measured baseline (11, 12: one list GET; 14: every Read at once), the
// plugin's pass and the baseline alternate round by round (bench/stats.ts `alternate`), and the
// ratio is the median of the rounds' ratios, with their range.
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ALICE } from "../simulator/src";
import { Plugin } from "../test/grpc/engine";
import { engineSide, type EngineSide } from "./engineSide";
import { containerStack, readRequest, refreshPass, timedList, type Pass, type Resource } from "./refresh";
import { medianRun } from "./stats";
import {
  CONTAINER,
  PROJECT,
  VOLUME,
  alternate,
  api,
  kb,
  listPath,
  listPattern,
  median,
  ms,
  msSpread,
  pool,
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

const REGISTRY = "hosting:index:Registry";
const WINDOWS = [8, 16, 32, 64];
const SIZES = [1_000, 5_000];
/** Strict mode: a refresh may take this many times its list GETs timed one after another. */
const WALL_OVER_LISTS = 1.3;
/** Snapshot mode at P = 8 may take this many times a refresh with every Read at once. */
const SNAPSHOT_OVER_ALL_AT_ONCE = 1.5;
/** Room over the least the design needs: the first Reads may go before the window has filled. */
const SLACK = 2;
const SEED_CONCURRENCY = 32;
/** Rounds of a pass beside its baseline, where the row's ratio has one. */
const ROUNDS = 3;

/**
 * How many requests a window of P needs at least: every Read answered by a request that began after it, P waiting at
 * a time.
 */
const leastRequests = (count: number, window: number) => Math.ceil(count / window);

interface Measured {
  count: number;
  window: number;
  pass: Pass;
}

/** Reads of `requests` at each window, one pass each (the stack's set-up has warmed the plugin). */
async function atEachWindow(
  rig: RemoteRig,
  engine: EngineSide,
  requests: ReturnType<typeof readRequest>[],
  counted: RegExp,
): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const window of WINDOWS) {
    const pass = await refreshPass(rig, engine, requests, window, counted);
    if (!pass.allFound) throw new Error(`a Read at P = ${window} did not find its resource`);
    measured.push({ count: requests.length, window, pass });
  }
  return measured;
}

/** Runs `measure` against a fresh simulator process and plugin, with the engine side dialled to the plugin. */
async function withRig<T>(
  simulatorArgs: string[],
  measure: (rig: RemoteRig, engine: EngineSide) => Promise<T>,
): Promise<T> {
  const rig = await remoteRig(simulatorArgs);
  try {
    const engine = await engineSide(rig.plugin);
    try {
      return await measure(rig, engine);
    } finally {
      await engine.close();
    }
  } finally {
    await rig.close();
  }
}

// ---- 11 and 12: containers, strict ----

interface ContainerFigures {
  count: number;
  listMs: number;
  listBytes: number;
  /**
   * Each window: the pass of median wall time of ROUNDS, each round's wall over its lists × a list
   * GET timed in the same round, and the same Reads carried by the floor (canned replies, nothing
   * decoded), P at a time: wall time.
   */
  windows: Array<Measured & { leastLists: number; wallRatio: Spread; floorWallMs: number }>;
  engineSide: string;
}

/** Wall time of the floor plugin answering `requests` with `reply`, at each window. */
async function floorAtEachWindow(requests: ReturnType<typeof readRequest>[], reply: Uint8Array): Promise<number[]> {
  const floor = await startFloor({ read: reply });
  try {
    const engine = await engineSide(floor);
    try {
      await engine.sendAll("read", requests, requests.length); // the warm-up
      const walls: number[] = [];
      for (const window of WINDOWS) walls.push((await engine.sendAll("read", requests, window)).wallMs);
      return walls;
    } finally {
      await engine.close();
    }
  } finally {
    await floor.stop();
  }
}

/** A window's rounds: each pass, and the list GET timed beside it. */
type WindowRounds = Measured & { passes: Pass[]; lists: number[] };

/** At each window, ROUNDS passes alternated with one list GET each (the baseline of that round). */
async function alternatedAtEachWindow(
  rig: RemoteRig,
  engine: EngineSide,
  requests: ReturnType<typeof readRequest>[],
): Promise<WindowRounds[]> {
  const measured: WindowRounds[] = [];
  for (const window of WINDOWS) {
    const rounds = await alternate(ROUNDS, {
      pass: () => refreshPass(rig, engine, requests, window, listPattern("containers")),
      list: async () => (await timedList(rig.sim, listPath("containers"), 1)).listMs,
    });
    if (!rounds.pass.every((p) => p.allFound)) throw new Error(`a Read at P = ${window} did not find its resource`);
    measured.push({
      count: requests.length,
      window,
      pass: medianRun(rounds.pass),
      passes: rounds.pass,
      lists: rounds.list,
    });
  }
  return measured;
}

async function containersAt(count: number): Promise<ContainerFigures> {
  const { requests, reply, ...figures } = await withRig([], async (rig, engine) => {
    const stack = await containerStack(rig.sim, rig.plugin, count);
    const requests = stack.map((resource) => readRequest(CONTAINER, resource));
    const measured = await alternatedAtEachWindow(rig, engine, requests);
    const { listBytes } = await timedList(rig.sim, listPath("containers"), 1);
    const reply = (await rig.plugin.call<provproto.ReadResponse>("read", requests[0])).serializeBinary();
    return { requests, reply, measured, listBytes, engineName: engine.name };
  });
  const floorWalls = await floorAtEachWindow(requests, reply);
  return {
    count,
    listMs: median(figures.measured.flatMap((m) => m.lists)),
    listBytes: figures.listBytes,
    engineSide: figures.engineName,
    windows: figures.measured.map(({ lists, passes, ...m }, i) => ({
      ...m,
      leastLists: leastRequests(count, m.window),
      wallRatio: roundRatios(
        passes.map((p) => p.wallMs),
        passes.map((p, round) => p.listCalls * lists[round]),
      ),
      floorWallMs: floorWalls[i],
    })),
  };
}

function containersRow(id: number, count: number) {
  return async (): Promise<Row> => {
    const f = await containersAt(count);
    const listsMet = (w: ContainerFigures["windows"][number]) => w.pass.listCalls <= w.leastLists + SLACK;
    const worst = f.windows.reduce((a, b) => (b.wallRatio.median > a.wallRatio.median ? b : a));
    return {
      id,
      name: `Refresh of ${thousands(count)} containers, P Reads in flight (P = ${WINDOWS.join(", ")}; strict, the default; sent by ${f.engineSide.split(" ")[0]})`,
      baseline: `one list GET of ${thousands(count)} (${kb(f.listBytes)}), timed in each round: ${ms(f.listMs)}`,
      measured: f.windows
        .map((w) => `P=${w.window}: ${w.pass.listCalls} lists (least ${w.leastLists}), ${ms(w.pass.wallMs)}`)
        .join("; "),
      ratio: `wall ≤ ${timesSpread(worst.wallRatio)} lists × one list GET (P=${worst.window})`,
      target: `lists ≤ ⌈N/P⌉ + ${SLACK}; wall ≤ ${WALL_OVER_LISTS}× lists × one list GET`,
      met: f.windows.every((w) => listsMet(w) && w.wallRatio.median <= WALL_OVER_LISTS),
      figures: { ...f },
      notes: [
        `Per resource at N = ${thousands(count)}: ${f.windows.map((w) => `P=${w.window} ${ms(w.pass.wallMs / count)}`).join(", ")} (no cliff past P = 31: the loader sends a batch as soon as every Read in flight is waiting, with no quiet time).`,
        `Where the time goes, each window's wall beside its lists timed one after another plus the floor carrying the same ${thousands(count)} Reads P at a time (canned replies, nothing decoded; bench/floor/start.ts): ` +
          f.windows
            .map(
              (w) =>
                `P=${w.window} ${ms(w.pass.wallMs)} against ${ms(w.pass.listCalls * f.listMs)} + ` +
                `${ms(w.floorWallMs)} = ${ms(w.pass.listCalls * f.listMs + w.floorWallMs)}`,
            )
            .join("; ") +
          ".",
      ],
    };
  };
}

// ---- 13: volumes and registries ----

/** Every request a Read of these kinds made counts, whatever it asked for. */
const EVERY_API_PATH = /^\/v1\//;

interface ByIdKind {
  label: string;
  type: string;
  seed(i: number): { path: string; body: Record<string, unknown> };
  inputs(i: number): Record<string, unknown>;
}

const BY_ID_KINDS: ByIdKind[] = [
  {
    label: "volumes",
    type: VOLUME,
    seed: (i) => ({ path: listPath("volumes"), body: { name: `vol-${i}`, size_gb: 1 } }),
    inputs: (i) => ({ name: `vol-${i}`, sizeGb: 1 }),
  },
  {
    label: "registries",
    type: REGISTRY,
    seed: (i) => ({
      path: "/v1/registries",
      body: { name: `reg-${i}`, host: "ghcr.io", username: "ci", password: "s3cret-password" },
    }),
    inputs: (i) => ({ name: `reg-${i}`, host: "ghcr.io", username: "ci", password: "s3cret-password" }),
  },
];

/**
 * A stack of `count` resources of `kind` as a refresh finds it: made through the API, with Check's inputs and a first
 * Read's outputs.
 */
async function stackOf(rig: RemoteRig, kind: ByIdKind, count: number): Promise<Resource[]> {
  const ids = await pool(count, SEED_CONCURRENCY, async (i) => {
    const { path, body } = kind.seed(i);
    const res = await api(rig.sim, "POST", path, body);
    if (res.status >= 300) throw new Error(`seeding ${kind.label} ${i}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.id as string;
  });
  return pool(count, count, async (i) => {
    const name = `r-${i}`;
    const { inputs } = await rig.plugin.check(kind.type, name, kind.inputs(i));
    const read = await rig.plugin.read(kind.type, name, ids[i], {}, inputs);
    return { name, id: ids[i], outputs: read.properties, inputs };
  });
}

interface ByIdFigures {
  label: string;
  windows: Array<Measured & { allowed: number }>;
}

async function byIdKindsAt(count: number): Promise<ByIdFigures[]> {
  // Volumes read running at once, and the simulator's capacity holds them all.
  return withRig(["--provisioning-ms", "0", "--capacity-gb", String(count * 2)], async (rig, engine) => {
    const figures: ByIdFigures[] = [];
    for (const kind of BY_ID_KINDS) {
      const stack = await stackOf(rig, kind, count);
      const requests = stack.map((resource) => readRequest(kind.type, resource));
      const measured = await atEachWindow(rig, engine, requests, EVERY_API_PATH);
      figures.push({
        label: kind.label,
        windows: measured.map((m) => ({ ...m, allowed: Math.min(count, leastRequests(count, m.window)) + SLACK })),
      });
    }
    return figures;
  });
}

export async function byIdKinds(): Promise<Row> {
  const all: Array<{ count: number; kinds: ByIdFigures[] }> = [];
  for (const count of SIZES) all.push({ count, kinds: await byIdKindsAt(count) });
  const cells = all.flatMap(({ count, kinds }) => kinds.map((k) => ({ count, ...k })));
  const mostOver = Math.max(
    ...cells.flatMap((c) => c.windows.map((w) => w.pass.listCalls - leastRequests(c.count, w.window))),
  );
  return {
    id: 13,
    name: `Refresh of volumes and of registries (read by id or by list), P Reads in flight (N = ${SIZES.map(thousands).join(" and ")}, P = ${WINDOWS.join(", ")})`,
    baseline: "the least a window of P needs: ⌈N/P⌉ requests",
    measured: cells
      .map(
        (c) =>
          `${c.label} ${thousands(c.count)}: ${c.windows.map((w) => `P=${w.window} ${w.pass.listCalls} req, ${ms(w.pass.wallMs)}`).join(", ")}`,
      )
      .join("; "),
    ratio: `at most ${mostOver} over ⌈N/P⌉`,
    target: `API requests ≤ min(N, ⌈N/P⌉) + ${SLACK}`,
    met: cells.every((c) => c.windows.every((w) => w.pass.listCalls <= w.allowed)),
    figures: { sizes: SIZES, windows: WINDOWS, results: all },
    notes: [
      "Every API request is counted (a Read sends only GETs: by id, or of a list). A batch of k Reads goes as k GETs by id or one list, whichever the chooser prices lower (provider/src/api/loader.ts `chooseLookup`: a request's price grows while the API is rate limiting); a lone Read is one GET by id.",
    ],
  };
}

// ---- 14: snapshot ----

/**
 * A plugin of its own configured for `readConsistency: snapshot` (the snapshot is taken once per run), and its pass at
 * `window`.
 */
async function snapshotPass(rig: RemoteRig, requests: ReturnType<typeof readRequest>[], window: number): Promise<Pass> {
  const plugin = await Plugin.start();
  try {
    await plugin.configure({
      baseUrl: rig.sim.url,
      token: ALICE.token,
      projectId: PROJECT,
      readConsistency: "snapshot",
    });
    const snapshotEngine = await engineSide(plugin);
    try {
      return await refreshPass({ ...rig, plugin }, snapshotEngine, requests, window);
    } finally {
      await snapshotEngine.close();
    }
  } finally {
    await plugin.stop();
  }
}

export async function snapshot(): Promise<Row> {
  const count = 5_000;
  const window = 8;
  const figures = await withRig([], async (rig, engine) => {
    const stack = await containerStack(rig.sim, rig.plugin, count);
    const requests = stack.map((resource) => readRequest(CONTAINER, resource));
    // P = 8 is the target, alternated with its baseline; the others are what the README's table tells a user to expect.
    const rounds = await alternate(ROUNDS, {
      allAtOnce: () => refreshPass(rig, engine, requests, count),
      snapshot: () => snapshotPass(rig, requests, window),
    });
    const passes: { window: number | "all at once"; pass: Pass }[] = [{ window, pass: medianRun(rounds.snapshot) }];
    for (const p of [...WINDOWS.filter((w) => w !== window), count])
      passes.push({ window: p === count ? "all at once" : p, pass: await snapshotPass(rig, requests, p) });
    return { rounds, passes };
  });
  const { rounds, passes } = figures;
  const allAtOnce = medianRun(rounds.allAtOnce);
  const atTarget = medianRun(rounds.snapshot);
  const ratio = roundRatios(
    rounds.snapshot.map((p) => p.wallMs),
    rounds.allAtOnce.map((p) => p.wallMs),
  );
  const lists = (n: number) => `${n} list${n === 1 ? "" : "s"}`;
  const wall = (side: Pass[]) => msSpread(spread(side.map((p) => p.wallMs)));
  return {
    id: 14,
    name: `Refresh of ${thousands(count)} containers with \`readConsistency: snapshot\`, ${window} Reads in flight (16, 32, 64 and all at once as information)`,
    baseline: `strict, every Read at once: ${lists(allAtOnce.listCalls)}, ${wall(rounds.allAtOnce)}`,
    measured: passes
      .map(
        ({ window: p, pass }) =>
          `${p === "all at once" ? p : `P=${p}`}: ${lists(pass.listCalls)}, ${p === window ? wall(rounds.snapshot) : ms(pass.wallMs)}`,
      )
      .join("; "),
    ratio: `${timesSpread(ratio)} at P=${window}`,
    target: `≤ ${SNAPSHOT_OVER_ALL_AT_ONCE}× every Read at once, at P=${window}`,
    met:
      ratio.median <= SNAPSHOT_OVER_ALL_AT_ONCE &&
      passes.every((p) => p.pass.allFound) &&
      rounds.allAtOnce.every((p) => p.allFound),
    figures: { count, window, allAtOnce, snapshot: atTarget, rounds, passes, ratio },
    notes: [
      `Snapshot mode reads each project's list once per run and again after any write of the plugin: what changes outside Pulumi during the run may be missed (docs/drift-detection.md says when to choose it). P=${window} and every Read at once (strict) alternate round by round, each snapshot pass on a fresh plugin; the ratio is the median of the rounds' ratios, with their range.`,
    ],
  };
}

export const containers1000 = containersRow(11, SIZES[0]);
export const containers5000 = containersRow(12, SIZES[1]);
