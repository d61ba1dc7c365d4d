// Where it breaks (`make bench-curve`, or ARGS="--sizes 1000,5000,10000 --engine16-up-to 5000"):
// the preview and refresh rows (5 and 7) pushed to larger stacks. Per size: the preview's plugin
// CPU and wall time; the refresh's wall time and list calls with every Read at once and 16 at a
// time; the size of one list GET's body and its time from this process; the gRPC messages of one
// Read; the plugin's RSS after each. Prints a Markdown table and writes bench/curve.json.
import { parseArgs } from "node:util";
import { ENGINE_PARALLELISM, kb, machine, mb, ms, processFigures, rig, runMain, thousands, writeFigures } from "./lib";
import { preview } from "./overhead";
import { measureRefresh, type RefreshFigures } from "./refresh";

interface Point {
  size: number;
  preview: { cpuMs: number; wallMs: number; rssMb: number };
  refresh: RefreshFigures;
}

async function previewAt(size: number): Promise<Point["preview"]> {
  const { plugin, close } = await rig();
  try {
    const cost = await preview(plugin, size);
    return { ...cost, rssMb: processFigures(plugin.pid!).rssMb };
  } finally {
    await close();
  }
}

export const lists = (n: number) => `${n} list${n === 1 ? "" : "s"}`;

function curveTable(points: Point[]): string {
  const rows = points.map(({ size, preview: p, refresh: r }) =>
    [
      thousands(size),
      `${ms(p.cpuMs)} CPU, ${ms(p.wallMs)}, ${mb(p.rssMb)}`,
      `${ms(r.together.wallMs)}, ${lists(r.together.listCalls)}`,
      r.engine16 ? `${ms(r.engine16.wallMs)}, ${lists(r.engine16.listCalls)}` : "not run",
      `${kb(r.listBytes)}, ${ms(r.listMs)}`,
      `${r.together.requestBytes} B / ${r.together.responseBytes} B`,
      mb(r.pluginRssMb),
    ].join(" | "),
  );
  return [
    "| resources | preview (plugin CPU, wall, RSS after) | refresh, all Reads at once (wall, list GETs) | refresh, 16 at a time | one list GET (body, time) | one Read (request / response) | plugin RSS after refresh |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

async function main() {
  const { values } = parseArgs({ options: { sizes: { type: "string" }, "engine16-up-to": { type: "string" } } });
  const sizes = (values.sizes ?? "1000,5000,10000").split(",").map((s) => Number(s.trim()));
  const engine16UpTo = Number(values["engine16-up-to"] ?? 5_000);
  const started = Date.now();
  const points: Point[] = [];
  for (const size of sizes) {
    process.stderr.write(`curve: ${thousands(size)} resources…\n`);
    const t = Date.now();
    const previewFigures = await previewAt(size);
    const refresh = await measureRefresh(size, { engine16: size <= engine16UpTo, withFloor: false });
    points.push({ size, preview: previewFigures, refresh });
    process.stderr.write(`curve: ${thousands(size)} done in ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
  }
  process.stdout.write(
    `\n${curveTable(points)}\n\n${machine()}; ${((Date.now() - started) / 1000).toFixed(0)} s in all; 16 at a time = the engine's default parallelism on a 4-CPU box (${ENGINE_PARALLELISM}).\n`,
  );
  writeFigures("curve.json", { points });
}

runMain("curve", main);
