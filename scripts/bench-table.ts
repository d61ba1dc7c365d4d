// bench/results.json as a record, and docs/performance.md's table of it: the generator. bench/run.ts
// writes the record and then the table (`writePerformanceTable`); by hand, from the repository's root:
// `make bench-table`. A test fails while the document's table is not the record's
// (test/bench/table.test.ts). It loads nothing of the benchmarks (no simulator, no plugin).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/** One line of the table: a figure beside its baseline, and the target it is held to. */
export interface Row {
  id: number;
  /** Rows measured by one benchmark at two settings share their number: 16a, 16b. */
  part?: string;
  name: string;
  baseline: string;
  measured: string;
  /** measured / baseline, where the two are comparable. */
  ratio: string;
  target: string;
  met: boolean;
  /** Everything measured, for bench/results.json. */
  figures: Record<string, unknown>;
  notes?: string[];
  /** When and where the row was measured, and how busy the machine was (written by bench/run.ts). */
  run?: RowRun;
}

export interface RowRun {
  /** The benchmark that measured it: `npm run bench -- --only <bench>` measures it again. */
  bench?: string;
  date: string;
  machine: string;
  /** The commit the row was measured on (`git rev-parse HEAD`; none before rows carried it). */
  commit?: string;
  /** provider/src had changes not yet committed when the row was measured: the commit does not say what ran. */
  uncommitted?: boolean;
  /** The lowest and highest 1-minute load average while the row ran, sampled every 10 s (none before it was kept). */
  loadAverage?: [number, number];
}

/** The sources a row measures: a commit that changes them may change its figures. */
export const MEASURED_SOURCES = ["provider/src"];
/**
 * A row stays in the record while at most this many commits touching MEASURED_SOURCES came after the one it was
 * measured on (test/bench/fresh.test.ts): a few small changes may land between two runs of the whole bench, no more.
 */
export const MAX_COMMITS_BEHIND = 5;

/** bench/results.json: the last figures of every row, each row with its own run. */
export interface Results {
  /** When the file was last written. */
  date: string;
  /** The machine of the last run. */
  machine: string;
  rows: Row[];
}

export const rowKey = (row: Pick<Row, "id" | "part">) => `${row.id}${row.part ?? ""}`;

/**
 * The record after a run: the rows it measured replace theirs; the others stay as they were measured, each keeping
 * its run (a row from before rows carried one takes the record's date and machine).
 */
export function mergeRows(recorded: Results | undefined, measured: readonly Row[]): Row[] {
  const replaced = new Set(measured.map(rowKey));
  const kept = (recorded?.rows ?? [])
    .filter((row) => !replaced.has(rowKey(row)))
    .map((row) => ({ ...row, run: row.run ?? { date: recorded!.date, machine: recorded!.machine } }));
  return [...kept, ...measured].sort((a, b) => a.id - b.id || (a.part ?? "").localeCompare(b.part ?? ""));
}

/**
 * `2026-11-27 (3f2a9c1; load 0.8–1.2)`: when a row was measured, on which commit, on which machine if not the last
 * run's, how busy it was.
 */
function when(row: Row, results: Results): string {
  const run = row.run ?? { date: results.date, machine: results.machine };
  const machine = run.machine === results.machine ? "" : `${run.machine}; `;
  const commit = run.commit ? `${run.commit.slice(0, 7)}${run.uncommitted ? " with uncommitted changes" : ""}; ` : "";
  const [before, after] = run.loadAverage?.map((x) => x.toFixed(1)) ?? [];
  const load = before === undefined ? "load not recorded" : `load ${before === after ? before : `${before}–${after}`}`;
  return `${run.date.slice(0, 10)} (${commit}${machine}${load})`;
}

/** The table, Markdown, as `npm run bench` prints it and docs/performance.md shows it. */
export function renderTable(results: Results): string {
  return [
    "| # | benchmark | baseline (same run) | measured | ratio | target | met | measured on |",
    "|---|---|---|---|---|---|---|---|",
    ...results.rows.map(
      (r) =>
        `| ${rowKey(r)} | ${r.name} | ${r.baseline} | ${r.measured} | ${r.ratio} | ${r.target} | ${r.met ? "yes" : "**no**"} | ${when(r, results)} |`,
    ),
  ].join("\n");
}

export const TABLE_START =
  "<!-- The table below is generated from bench/results.json by scripts/bench-table.ts (`npm run bench` runs it); do not edit it by hand. -->";
export const TABLE_END = "<!-- End of the generated table. -->";

/** The document with its generated table replaced by `table`; fails when the markers are missing. */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(
      `docs/performance.md has lost its generated table's markers: put back ${TABLE_START} and ${TABLE_END}`,
    );
  return `${doc.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${doc.slice(end)}`;
}

/** How a row's commit stands against HEAD in `repo`: how many commits touching MEASURED_SOURCES came after it. */
function commitsBehind(repo: string, commit: string): number | string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: "pipe" }).trim();
  try {
    git("rev-parse", "--git-dir");
  } catch {
    return `its commit ${commit.slice(0, 7)} cannot be looked for: ${repo} is not a git checkout (clone the repository)`;
  }
  try {
    git("merge-base", "--is-ancestor", commit, "HEAD");
  } catch {
    const shallow = git("rev-parse", "--is-shallow-repository") === "true";
    return shallow
      ? `its commit ${commit.slice(0, 7)} is not in this shallow clone: fetch the history (git fetch --unshallow; in CI, checkout's fetch-depth: 0)`
      : `its commit ${commit.slice(0, 7)} is not in HEAD's history (a rebase or a squash dropped it)`;
  }
  return Number(git("rev-list", "--count", `${commit}..HEAD`, "--", ...MEASURED_SOURCES));
}

/**
 * Every row of the record that no longer says what HEAD's provider does, each with why: measured on no recorded
 * commit, with uncommitted changes to the sources, on a commit not in HEAD's history, or more than MAX_COMMITS_BEHIND
 * commits touching MEASURED_SOURCES before HEAD.
 */
export function staleRows(results: Results, repo: string): Array<{ row: Row; why: string }> {
  return results.rows.flatMap((row) => {
    const run = row.run;
    if (!run?.commit) return [{ row, why: "it records no commit" }];
    if (run.uncommitted)
      return [{ row, why: `it was measured with uncommitted changes to ${MEASURED_SOURCES.join(", ")}` }];
    const behind = commitsBehind(repo, run.commit);
    if (typeof behind === "string") return [{ row, why: behind }];
    return behind > MAX_COMMITS_BEHIND
      ? [
          {
            row,
            why: `${behind} commits touching ${MEASURED_SOURCES.join(", ")} came after its commit ${run.commit.slice(0, 7)}`,
          },
        ]
      : [];
  });
}

export const readResults = (file: string): Results => JSON.parse(readFileSync(file, "utf8")) as Results;

/** Rewrites the document's table from the record; says whether it changed. */
export function writePerformanceTable(resultsFile: string, docFile: string): boolean {
  const before = readFileSync(docFile, "utf8");
  const after = withTable(before, renderTable(readResults(resultsFile)));
  if (after !== before) writeFileSync(docFile, after);
  return after !== before;
}

if (process.argv[1]?.endsWith("bench-table.ts")) {
  const changed = writePerformanceTable("bench/results.json", "docs/performance.md");
  process.stdout.write(`${changed ? "wrote" : "unchanged:"} docs/performance.md\n`);
}
