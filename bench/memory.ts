// 6. Memory, a leak test: the plugin's resident memory from 2,000 to 10,000 lifecycle operations
// (create, read, update, delete of containers, registries and volumes that start at once, 16 at a
// time), beside its memory once configured. A leak is what a full garbage collection cannot give
// back, so the target is read after one: the same plugin, started with --expose-gc and a hook that
// collects garbage on SIGUSR2, reports its RSS and live heap at a mark every 1,000 operations. The
// growth is read from the trend of those nine marks (the median slope between every pair), not
// from two single readings: after a full GC, RSS still moves by ±5 MB from one reading to the next
// (the C allocator keeps and returns pages at its own pace) while the live heap stays flat, so two
// readings alone decided the target by chance. As information, a plugin started as the engine
// starts it runs the same operations beside it, its RSS read from /proc as it is (V8 grows and
// shrinks its heap between collections, so that figure moves by tens of MB between readings).
import {
  CONTAINER,
  ENGINE_PARALLELISM,
  IMAGE,
  VOLUME,
  mb,
  pool,
  processFigures,
  rig,
  sleep,
  thousands,
  type Row,
} from "./lib";
import { PLUGIN, secret, type Plugin } from "../test/grpc/engine";
import { trendGrowth } from "./stats";

const SAMPLE_EVERY = 500;
const FIRST = 2_000;
const LAST = 10_000;
const MARK_EVERY = 1_000;
const MAX_GROWTH_MB = 5;
const OPS_PER_CYCLE = 4;

type Cycle = (plugin: Plugin, n: number) => Promise<number>;

/** One resource through create, read, update and delete: 4 operations. */
export const memoryCycles: Cycle[] = [
  async (plugin, n) => {
    const name = `app-${n}`;
    const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE, env: { N: String(n) } });
    const created = await plugin.create(CONTAINER, name, inputs);
    const read = await plugin.read(CONTAINER, name, created.id, created.properties, inputs);
    const news = (await plugin.check(CONTAINER, name, { name, image: "registry.example.com/acme/web:1.0.1" }, inputs))
      .inputs;
    const updated = await plugin.update(CONTAINER, name, created.id, read.properties, news, inputs);
    await plugin.delete(CONTAINER, name, created.id, updated.properties, news);
    return OPS_PER_CYCLE;
  },
  async (plugin, n) => {
    const type = "hosting:index:Registry";
    const name = `reg-${n}`;
    const { inputs } = await plugin.check(type, name, { name, host: "ghcr.io", password: secret(`pw-${n}`) });
    const created = await plugin.create(type, name, inputs);
    const read = await plugin.read(type, name, created.id, created.properties, inputs);
    const news = (
      await plugin.check(type, name, { name, host: "ghcr.io", username: "ci", password: secret(`pw-${n}`) }, inputs)
    ).inputs;
    const updated = await plugin.update(type, name, created.id, read.properties, news, inputs);
    await plugin.delete(type, name, created.id, updated.properties, news);
    return OPS_PER_CYCLE;
  },
  async (plugin, n) => {
    const name = `data-${n}`;
    const { inputs } = await plugin.check(VOLUME, name, { name, sizeGb: 1 });
    const created = await plugin.create(VOLUME, name, inputs);
    const read = await plugin.read(VOLUME, name, created.id, created.properties, inputs);
    const news = (await plugin.check(VOLUME, name, { name, sizeGb: 2 }, inputs)).inputs;
    const updated = await plugin.update(VOLUME, name, created.id, read.properties, news, inputs);
    await plugin.delete(VOLUME, name, created.id, updated.properties, news);
    return OPS_PER_CYCLE;
  },
];

/**
 * The lifecycle cycles, 16 at a time, until `FIRST` operations have answered, then on to `LAST`; at
 * a mark every `MARK_EVERY` operations from `FIRST`, with nothing in flight, `mark` takes its
 * figure. RSS every 500 on the way.
 */
async function lifecycles<T>(plugin: Plugin, mark: () => Promise<T>) {
  const samples: Array<{ ops: number; rssMb: number }> = [];
  const marks: Array<{ ops: number; figure: T }> = [];
  let ops = 0;
  const runTo = async (total: number) => {
    const first = ops / OPS_PER_CYCLE;
    await pool(total / OPS_PER_CYCLE - first, ENGINE_PARALLELISM, async (i) => {
      const n = first + i;
      const done = await memoryCycles[n % memoryCycles.length](plugin, n);
      ops += done;
      if (ops % SAMPLE_EVERY === 0) samples.push({ ops, rssMb: processFigures(plugin.pid!).rssMb });
    });
    marks.push({ ops: total, figure: await mark() });
  };
  for (let total = FIRST; total <= LAST; total += MARK_EVERY) await runTo(total);
  return { marks, samples };
}

/** Loaded into the diagnostic plugin: on SIGUSR2, collect garbage and print the live heap. */
const GC_ON_SIGNAL =
  "data:text/javascript," +
  encodeURIComponent(
    'process.on("SIGUSR2", () => { globalThis.gc(); const m = process.memoryUsage(); ' +
      'process.stderr.write("after-gc " + m.heapUsed + " " + m.rss + "\\n"); });',
  );

/** The live heap and the RSS (MB) of the diagnostic plugin after a full garbage collection. */
async function afterGc(plugin: Plugin): Promise<{ heapMb: number; rssMb: number }> {
  const from = plugin.stderr.length;
  plugin.signal("SIGUSR2");
  for (let i = 0; i < 250; i++) {
    const printed = /after-gc (\d+) (\d+)/.exec(plugin.stderr.slice(from));
    if (printed) return { heapMb: Number(printed[1]) / 1024 / 1024, rssMb: Number(printed[2]) / 1024 / 1024 };
    await sleep(20);
  }
  throw new Error(`the diagnostic plugin did not print its heap: ${plugin.stderr.slice(from)}`);
}

const SWITCHES = { volumeProvisioningMs: 0, serviceStartMs: 0 };

/** Information: the plugin as the engine starts it, its RSS as it is. */
async function residentMemory() {
  const { plugin, close } = await rig(SWITCHES);
  try {
    const configuredMb = processFigures(plugin.pid!).rssMb;
    return { configuredMb, ...(await lifecycles(plugin, async () => processFigures(plugin.pid!).rssMb)) };
  } finally {
    await close();
  }
}

/**
 * The target: the same plugin started with --expose-gc, which collects garbage at each mark and reports its RSS and
 * live heap.
 */
async function collected() {
  const { plugin, close } = await rig(SWITCHES, {
    command: process.execPath,
    args: ["--expose-gc", "--import", GC_ON_SIGNAL, PLUGIN],
  });
  try {
    const configured = await afterGc(plugin);
    return { configured, ...(await lifecycles(plugin, () => afterGc(plugin))) };
  } finally {
    await close();
  }
}

export async function memory(): Promise<Row> {
  const started = Date.now();
  // Side by side: the forced collections of the one must not touch the other.
  const [gc, raw] = await Promise.all([collected(), residentMemory()]);
  const first = gc.marks[0].figure;
  const last = gc.marks.at(-1)!.figure;
  const growth = trendGrowth(gc.marks.map(({ ops, figure }) => ({ x: ops, y: figure.rssMb })));
  const heapGrowth = trendGrowth(gc.marks.map(({ ops, figure }) => ({ x: ops, y: figure.heapMb })));
  const rawFirst = raw.marks[0].figure;
  const rawLast = raw.marks.at(-1)!.figure;
  const peak = Math.max(...raw.marks.map((m) => m.figure), ...raw.samples.map((s) => s.rssMb));
  const signed = (x: number) => `${x >= 0 ? "+" : ""}${mb(x)}`;
  return {
    id: 6,
    name: `Memory, a leak test (plugin RSS from ${thousands(FIRST)} to ${thousands(LAST)} lifecycle operations, after a full GC at every ${thousands(MARK_EVERY)})`,
    baseline: `configured, idle, after a full GC: ${mb(gc.configured.rssMb)}`,
    measured: `growth along the trend of the ${gc.marks.length} marks: ${signed(growth)} (readings: ${thousands(FIRST)} ops ${mb(first.rssMb)}, ${thousands(LAST)} ops ${mb(last.rssMb)}); live heap ${mb(first.heapMb)} → ${mb(last.heapMb)} (trend ${signed(heapGrowth)}); information, RSS as it is with no GC: ${mb(rawFirst)} → ${mb(rawLast)} (${signed(rawLast - rawFirst)}), peak ${mb(peak)}`,
    ratio: `${(last.rssMb / gc.configured.rssMb).toFixed(2)}× idle`,
    target: `growth ≤ ${MAX_GROWTH_MB} MB from ${thousands(FIRST)} to ${thousands(LAST)} (the absolute RSS: information)`,
    met: growth <= MAX_GROWTH_MB,
    figures: {
      afterGc: { configured: gc.configured, marks: gc.marks, growthMb: growth, heapGrowthMb: heapGrowth },
      asItIs: { configuredMb: raw.configuredMb, marks: raw.marks, peakMb: peak, samples: raw.samples },
      seconds: (Date.now() - started) / 1000,
    },
    notes: [
      `A leak is what a full garbage collection cannot give back: the figures are read after one, from the same plugin started with --expose-gc and a hook that collects on SIGUSR2 (the plugin as built has no way to). Read as it is, RSS also holds the heap V8 has grown and not yet given back, which moves by tens of MB between readings. Even after a full GC, RSS moves by about ±5 MB from one reading to the next while the live heap stays flat (the C allocator keeps and returns pages at its own pace), so the growth is read from the median slope between every pair of the ${gc.marks.length} marks, where a leak shows as a slope and one unlucky reading does not.`,
    ],
  };
}
