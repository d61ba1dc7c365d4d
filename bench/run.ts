// `npm run bench` (make bench): every performance target (issues 5 and 21), each figure measured beside
// its baseline in this one run, against the simulator and the built plugin over gRPC. Prints
// the table (Markdown), writes bench/results.json and the table in docs/performance.md from it
// (scripts/bench-table.ts). Each row records its date and the machine's load average as it ran.
//   --only ROW,ROW,...   run some rows only (they replace theirs in bench/results.json; the other rows stay as they
//                        were measured); a ROW is one of startup, refresh, refresh1000, volume, rate, sharedLimit,
//                        sharedLimitTight, overhead, memory, up1000, parallel1000, parallel5000, byId, snapshot,
//                        functionAnswer, codec, cli, cliCurve, cliCheckpoints, instructions
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { machine, runMain, writeFigures, type Row } from "./lib";
import { memory } from "./memory";
import { overhead } from "./overhead";
import { byIdKinds, containers1000, containers5000, snapshot } from "./parallelism";
import { rateLimit } from "./rateLimit";
import { refresh, refreshLarge } from "./refresh";
import { scaleUp } from "./scaleUp";
import { sharedLimit, sharedLimitTight } from "./sharedLimit";
import { startup } from "./startup";
import {
  MEASURED_SOURCES,
  mergeRows,
  readResults,
  renderTable,
  rowKey,
  writePerformanceTable,
} from "../scripts/bench-table";
import { volume } from "./volume";
import { codecRoundTrip, functionAnswer } from "./wire";
import { cliCheckpoints, cliCommands, cliCurve } from "./cli";
import { instructions } from "./instructions";

const ROOT = resolve(__dirname, "../..");
const RESULTS = resolve(ROOT, "bench/results.json");

// A benchmark makes one row, or several that share a run (volume: rows 3 and 8; up1000: rows 9 and 10).
const BENCHES: Record<string, () => Promise<Row | Row[]>> = {
  startup,
  refresh,
  refresh1000: refreshLarge,
  volume,
  rate: rateLimit,
  sharedLimit,
  sharedLimitTight,
  overhead,
  memory,
  up1000: scaleUp,
  parallel1000: containers1000,
  parallel5000: containers5000,
  byId: byIdKinds,
  snapshot,
  functionAnswer,
  codec: codecRoundTrip,
  cli: cliCommands,
  cliCurve,
  cliCheckpoints,
  instructions,
};

/** The commit the rows are measured on, and whether the provider's sources had changes not committed. */
function sourceCommit(): { commit?: string; uncommitted?: boolean } {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  try {
    const uncommitted = git("status", "--porcelain", "--", ...MEASURED_SOURCES) !== "";
    return { commit: git("rev-parse", "HEAD"), ...(uncommitted ? { uncommitted } : {}) };
  } catch {
    return {}; // not a git checkout: the rows carry no commit, and test/bench/fresh.test.ts says so
  }
}

/** One benchmark's rows, each with when it ran and how busy the machine was (the 1-minute load average, sampled). */
async function measure(name: string): Promise<Row[]> {
  const loads = [loadavg()[0]];
  const sampling = setInterval(() => loads.push(loadavg()[0]), 10_000).unref();
  try {
    const made = [await BENCHES[name]()].flat();
    loads.push(loadavg()[0]);
    const loadAverage: [number, number] = [Math.min(...loads), Math.max(...loads)];
    const run = { bench: name, date: new Date().toISOString(), machine: machine(), loadAverage, ...sourceCommit() };
    return made.map((row) => ({ ...row, run }));
  } finally {
    clearInterval(sampling);
  }
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
    const made = await measure(name);
    process.stderr.write(
      `bench: ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s: ${made.map((row) => row.measured).join(" | ")}\n`,
    );
    rows.push(...made);
  }
  // A whole run is the record; some rows replace theirs in it.
  const recorded = values.only && existsSync(RESULTS) ? readResults(RESULTS) : undefined;
  const results = { date: new Date().toISOString(), machine: machine(), rows: mergeRows(recorded, rows) };

  process.stdout.write(`\n${renderTable({ ...results, rows: mergeRows(undefined, rows) })}\n\n`);
  for (const row of rows) for (const note of row.notes ?? []) process.stdout.write(`${rowKey(row)}. ${note}\n`);
  process.stdout.write(`\n${machine()}; ${((Date.now() - started) / 1000).toFixed(0)} s in all.\n`);
  writeFigures("results.json", { rows: results.rows });
  writePerformanceTable(RESULTS, resolve(__dirname, "../../docs/performance.md"));
  process.stdout.write("wrote the table in docs/performance.md from bench/results.json\n");
}

runMain("bench", main);
