// Writes docs/performance.md's table of the benchmarks from bench/results.json (bench/table.ts), so
// the document shows what the record holds and cannot lag behind it. bench/run.ts runs it after
// writing the record; by hand: `node scripts/run-ts.mjs scripts/bench-table.ts`. A test fails while
// the document's table is not this (test/bench/table.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderTable, withTable, type Results } from "../bench/table";

const root = resolve(__dirname, "../..");
export const RESULTS = resolve(root, "bench/results.json");
export const PERFORMANCE_DOC = resolve(root, "docs/performance.md");

export const readResults = (file = RESULTS): Results => JSON.parse(readFileSync(file, "utf8")) as Results;

/** Rewrites the document's table from the record; says whether it changed. */
export function writePerformanceTable(results = readResults(), doc = PERFORMANCE_DOC): boolean {
  const before = readFileSync(doc, "utf8");
  const after = withTable(before, renderTable(results));
  if (after !== before) writeFileSync(doc, after);
  return after !== before;
}

if (process.argv[1]?.endsWith("bench-table.ts")) {
  const changed = writePerformanceTable();
  process.stdout.write(`${changed ? "wrote" : "unchanged:"} ${PERFORMANCE_DOC}\n`);
}
