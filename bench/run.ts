// `npm run bench` (make bench): every performance target (issues 5 and 21), each figure measured beside
// its baseline in this one run, against the simulator and the built plugin over gRPC. Prints
// the table (Markdown, as the README quotes it) and writes bench/results.json.
//   --only ROW,ROW,...   run some rows only; a ROW is one of startup, refresh, refresh1000, volume, rate,
//                        sharedLimit, overhead, memory, up1000, parallel1000, parallel5000, byId, snapshot,
//                        functionAnswer, codec
import { parseArgs } from "node:util";
import { machine, runMain, writeFigures, type Row } from "./lib";
import { memory } from "./memory";
import { overhead } from "./overhead";
import { byIdKinds, containers1000, containers5000, snapshot } from "./parallelism";
import { rateLimit } from "./rateLimit";
import { refresh, refreshLarge } from "./refresh";
import { scaleUp } from "./scaleUp";
import { sharedLimit } from "./sharedLimit";
import { startup } from "./startup";
import { volume } from "./volume";
import { codecRoundTrip, functionAnswer } from "./wire";

// A benchmark makes one row, or several that share a run (volume: rows 3 and 8; up1000: rows 9 and 10).
const BENCHES: Record<string, () => Promise<Row | Row[]>> = {
  startup,
  refresh,
  refresh1000: refreshLarge,
  volume,
  rate: rateLimit,
  sharedLimit,
  overhead,
  memory,
  up1000: scaleUp,
  parallel1000: containers1000,
  parallel5000: containers5000,
  byId: byIdKinds,
  snapshot,
  functionAnswer,
  codec: codecRoundTrip,
};

export function table(rows: Row[]): string {
  const lines = [
    "| # | benchmark | baseline (same run) | measured | ratio | target | met |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.name} | ${r.baseline} | ${r.measured} | ${r.ratio} | ${r.target} | ${r.met ? "yes" : "**no**"} |`,
    ),
  ];
  return lines.join("\n");
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: "string" } } });
  const names = values.only ? values.only.split(",").map((s) => s.trim()) : Object.keys(BENCHES);
  for (const name of names)
    if (!BENCHES[name]) throw new Error(`unknown benchmark ${name}; one of ${Object.keys(BENCHES).join(", ")}`);

  const started = Date.now();
  const rows: Row[] = [];
  for (const name of names) {
    process.stderr.write(`bench: ${name}…\n`);
    const t = Date.now();
    const made = [await BENCHES[name]()].flat();
    process.stderr.write(
      `bench: ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s: ${made.map((row) => row.measured).join(" | ")}\n`,
    );
    rows.push(...made);
  }
  rows.sort((a, b) => a.id - b.id);

  process.stdout.write(`\n${table(rows)}\n\n`);
  for (const row of rows) for (const note of row.notes ?? []) process.stdout.write(`${row.id}. ${note}\n`);
  process.stdout.write(`\n${machine()}; ${((Date.now() - started) / 1000).toFixed(0)} s in all.\n`);
  writeFigures("results.json", { rows });
}

runMain("bench", main);
