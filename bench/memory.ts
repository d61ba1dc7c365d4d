// 6. Memory: the plugin's resident memory after 1,000 and 2,000 lifecycle operations (create,
// read, update, delete of containers, registries and volumes, 8 at a time), beside its memory
// once configured. Sampled from /proc every 100 operations.
import { CONTAINER, IMAGE, VOLUME, pool, processFigures, rig, type Row } from "./lib";
import { secret, type Plugin } from "../test/grpc/engine";

const SAMPLE_EVERY = 100;

type Cycle = (plugin: Plugin, n: number) => Promise<number>;

/** One resource through create, read, update and delete: 4 operations. */
const cycles: Cycle[] = [
  async (plugin, n) => {
    const name = `app-${n}`;
    const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE, env: { N: String(n) } });
    const created = await plugin.create(CONTAINER, name, inputs);
    const read = await plugin.read(CONTAINER, name, created.id, created.properties, inputs);
    const news = (await plugin.check(CONTAINER, name, { name, image: "registry.example.com/acme/web:1.0.1" }, inputs)).inputs;
    const updated = await plugin.update(CONTAINER, name, created.id, read.properties, news, inputs);
    await plugin.delete(CONTAINER, name, created.id, updated.properties, news);
    return 4;
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
    return 4;
  },
  async (plugin, n) => {
    const name = `data-${n}`;
    const { inputs } = await plugin.check(VOLUME, name, { name, sizeGb: 1 });
    const created = await plugin.create(VOLUME, name, inputs);
    const read = await plugin.read(VOLUME, name, created.id, created.properties, inputs);
    const news = (await plugin.check(VOLUME, name, { name, sizeGb: 2 }, inputs)).inputs;
    const updated = await plugin.update(VOLUME, name, created.id, read.properties, news, inputs);
    await plugin.delete(VOLUME, name, created.id, updated.properties, news);
    return 4;
  },
];

export async function memory(totalOps = 2_000): Promise<Row> {
  const { plugin, close } = await rig({ volumeProvisioningMs: 0 });
  try {
    const pid = plugin.pid!;
    const configuredMb = processFigures(pid).rssMb;
    const samples: Array<{ ops: number; rssMb: number }> = [];
    let ops = 0;
    let nextSample = SAMPLE_EVERY;
    await pool(totalOps / 4, 8, async (n) => {
      const done = await cycles[n % cycles.length](plugin, n);
      ops += done;
      while (ops >= nextSample) {
        samples.push({ ops: nextSample, rssMb: processFigures(pid).rssMb });
        nextSample += SAMPLE_EVERY;
      }
    });
    const at = (n: number) => {
      const sample = samples.find((s) => s.ops === n);
      if (!sample) throw new Error(`no sample at ${n} operations (${JSON.stringify(samples.map((s) => s.ops))})`);
      return sample.rssMb;
    };
    const at1000 = at(totalOps / 2);
    const at2000 = at(totalOps);
    const peak = Math.max(...samples.map((s) => s.rssMb));
    const growth = at2000 - at1000;
    const mb = (x: number) => `${x.toFixed(1)} MB`;
    return {
      id: 6,
      name: "Memory (plugin RSS after 1,000 and 2,000 lifecycle operations)",
      baseline: `configured, idle: ${mb(configuredMb)}`,
      measured: `1,000 ops: ${mb(at1000)}; 2,000 ops: ${mb(at2000)} (${growth >= 0 ? "+" : ""}${mb(growth)}); peak ${mb(peak)}`,
      ratio: `${(at2000 / configuredMb).toFixed(2)}× idle`,
      target: "< 120 MB; no growth 1,000 → 2,000",
      met: peak < 120 && growth <= 0,
      figures: { configuredMb, at1000, at2000, growthMb: growth, peakMb: peak, samples },
    };
  } finally {
    await close();
  }
}
