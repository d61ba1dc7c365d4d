// 6. Memory, a leak test: the plugin's resident memory after 2,000 and after 10,000 lifecycle
// operations (create, read, update, delete of containers, registries and volumes that start at
// once, 16 at a time), beside its memory once configured. RSS is read from /proc as it is (the
// plugin offers no way to force a garbage collection): each figure once the operations before it
// have all answered, and every 500 operations on the way. As information, a second plugin runs
// the same operations beside it with --expose-gc and reports its live heap after a forced GC.
import { CONTAINER, ENGINE_PARALLELISM, IMAGE, VOLUME, mb, pool, processFigures, rig, sleep, thousands, type Row } from "./lib";
import { PLUGIN, secret, type Plugin } from "../test/grpc/engine";

const SAMPLE_EVERY = 500;
const FIRST = 2_000;
const LAST = 10_000;
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
    const news = (await plugin.check(CONTAINER, name, { name, image: "registry.example.com/acme/web:1.0.1" }, inputs)).inputs;
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
    const news = (await plugin.check(type, name, { name, host: "ghcr.io", username: "ci", password: secret(`pw-${n}`) }, inputs)).inputs;
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
 * The lifecycle cycles, 16 at a time, until `FIRST` and then `LAST` operations have answered; at
 * each of the two marks, with nothing in flight, `mark` takes its figure. RSS every 500 on the way.
 */
async function lifecycles<T>(plugin: Plugin, mark: () => Promise<T>) {
  const samples: Array<{ ops: number; rssMb: number }> = [];
  let ops = 0;
  const runTo = async (total: number) => {
    const first = ops / OPS_PER_CYCLE;
    await pool(total / OPS_PER_CYCLE - first, ENGINE_PARALLELISM, async (i) => {
      const n = first + i;
      const done = await memoryCycles[n % memoryCycles.length](plugin, n);
      ops += done;
      if (ops % SAMPLE_EVERY === 0) samples.push({ ops, rssMb: processFigures(plugin.pid!).rssMb });
    });
    return mark();
  };
  const atFirst = await runTo(FIRST);
  const atLast = await runTo(LAST);
  return { atFirst, atLast, samples };
}

/** Loaded into the diagnostic plugin: on SIGUSR2, collect garbage and print the live heap. */
const GC_ON_SIGNAL =
  "data:text/javascript," +
  encodeURIComponent('process.on("SIGUSR2", () => { globalThis.gc(); process.stderr.write(`heap-after-gc ${process.memoryUsage().heapUsed}\\n`); });');

/** The live heap (MB) of the diagnostic plugin after a full garbage collection. */
async function heapAfterGc(plugin: Plugin): Promise<number> {
  const from = plugin.stderr.length;
  plugin.signal("SIGUSR2");
  for (let i = 0; i < 250; i++) {
    const printed = /heap-after-gc (\d+)/.exec(plugin.stderr.slice(from));
    if (printed) return Number(printed[1]) / 1024 / 1024;
    await sleep(20);
  }
  throw new Error(`the diagnostic plugin did not print its heap: ${plugin.stderr.slice(from)}`);
}

const SWITCHES = { volumeProvisioningMs: 0, serviceStartMs: 0 };

/** The target: the plugin as built, its RSS as it is. */
async function residentMemory() {
  const { plugin, close } = await rig(SWITCHES);
  try {
    const configuredMb = processFigures(plugin.pid!).rssMb;
    return { configuredMb, ...(await lifecycles(plugin, async () => processFigures(plugin.pid!).rssMb)) };
  } finally {
    await close();
  }
}

/** Information: the same run in a second plugin started with --expose-gc, which reports its live heap at each mark. */
async function liveHeap() {
  const { plugin, close } = await rig(SWITCHES, { command: process.execPath, args: ["--expose-gc", "--import", GC_ON_SIGNAL, PLUGIN] });
  try {
    return await lifecycles(plugin, () => heapAfterGc(plugin));
  } finally {
    await close();
  }
}

export async function memory(): Promise<Row> {
  const started = Date.now();
  // Side by side: the diagnostic plugin's forced collections must not touch the measured one.
  const [rss, heap] = await Promise.all([residentMemory(), liveHeap()]);
  const growth = rss.atLast - rss.atFirst;
  const peak = Math.max(rss.atFirst, rss.atLast, ...rss.samples.map((s) => s.rssMb));
  return {
    id: 6,
    name: `Memory, a leak test (plugin RSS after ${thousands(FIRST)} and ${thousands(LAST)} lifecycle operations)`,
    baseline: `configured, idle: ${mb(rss.configuredMb)}`,
    measured:
      `${thousands(FIRST)} ops: ${mb(rss.atFirst)}; ${thousands(LAST)} ops: ${mb(rss.atLast)} (${growth >= 0 ? "+" : ""}${mb(growth)}); peak ${mb(peak)}; ` +
      `information: live heap after a forced GC ${mb(heap.atFirst)} → ${mb(heap.atLast)}`,
    ratio: `${(rss.atLast / rss.configuredMb).toFixed(2)}× idle`,
    target: `growth ≤ ${MAX_GROWTH_MB} MB from ${thousands(FIRST)} to ${thousands(LAST)} (RSS: information)`,
    met: growth <= MAX_GROWTH_MB,
    figures: {
      configuredMb: rss.configuredMb,
      atFirst: rss.atFirst,
      atLast: rss.atLast,
      growthMb: growth,
      peakMb: peak,
      samples: rss.samples,
      liveHeapAfterGcMb: { atFirst: heap.atFirst, atLast: heap.atLast },
      seconds: (Date.now() - started) / 1000,
    },
    notes: [
      `The live heap comes from a second plugin run beside the measured one, started with --expose-gc and told to collect ` +
        `garbage at each mark (the plugin as built offers no way to); RSS also holds V8's young generation and heap slack, ` +
        `which move by several MB between readings.`,
    ],
  };
}
