// bench/results.json must say what the provider at HEAD does: every row measured on a commit with at most
// MAX_COMMITS_BEHIND commits touching the provider's sources after it (scripts/bench-table.ts `staleRows`).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  MAX_COMMITS_BEHIND,
  MEASURED_SOURCES,
  readResults,
  rowKey,
  staleRows,
  type Results,
  type Row,
  type RowRun,
} from "../../scripts/bench-table";

const root = resolve(__dirname, "../..");

test(`every row of bench/results.json was measured at most ${MAX_COMMITS_BEHIND} commits touching ${MEASURED_SOURCES.join(", ")} before HEAD`, () => {
  const stale = staleRows(readResults(resolve(root, "bench/results.json")), root);
  const benches = [...new Set(stale.map(({ row }) => row.run?.bench))];
  const again = benches.includes(undefined)
    ? "npm run bench (the whole bench: rows without a recorded benchmark name)"
    : `npm run bench -- --only ${benches.join(",")}`;
  const lines = stale.map(({ row, why }) => `row ${rowKey(row)} (${row.run?.date.slice(0, 10) ?? "no date"}): ${why}`);
  const message = `${stale.length} rows of bench/results.json no longer say what the provider at HEAD does (a row may be measured at most ${MAX_COMMITS_BEHIND} commits touching ${MEASURED_SOURCES.join(", ")} before HEAD). Measure them again on a committed tree: ${again}.\n${lines.join("\n")}`;
  expect(stale.length === 0 ? "" : message).toBe("");
});

describe("staleRows", () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  const commit = (file: string, text: string) => {
    mkdirSync(join(repo, file, ".."), { recursive: true });
    writeFileSync(join(repo, file), text);
    git("add", "-A");
    git("commit", "-q", "-m", `${file}: ${text}`);
    return git("rev-parse", "HEAD");
  };
  const row = (run?: Partial<RowRun>): Row => ({
    id: 1,
    name: "row 1",
    baseline: "b",
    measured: "m",
    ratio: "1.00×",
    target: "t",
    met: true,
    figures: {},
    ...(run ? { run: { date: "2026-11-27T00:00:00.000Z", machine: "m", ...run } } : {}),
  });
  const results = (...rows: Row[]): Results => ({ date: "2026-11-27T00:00:00.000Z", machine: "m", rows });
  const why = (r: Row) => staleRows(results(r), repo).map((s) => s.why);

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), "hosting-fresh-"));
    git("init", "-q");
    git("config", "user.email", "bench@example.com");
    git("config", "user.name", "bench");
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  test(`a row stays while at most ${MAX_COMMITS_BEHIND} commits touching the sources follow its own, and goes stale at one more`, () => {
    const measured = commit("provider/src/a.ts", "0");
    for (let i = 1; i <= MAX_COMMITS_BEHIND; i++) commit("provider/src/a.ts", String(i));
    expect(why(row({ commit: measured }))).toEqual([]);
    commit("provider/src/b.ts", "one more");
    expect(why(row({ commit: measured }))).toEqual([
      `${MAX_COMMITS_BEHIND + 1} commits touching provider/src came after its commit ${measured.slice(0, 7)}`,
    ]);
  });

  test("commits elsewhere (docs, tests, the record itself) do not count", () => {
    const measured = commit("provider/src/a.ts", "0");
    for (let i = 0; i < 3 * MAX_COMMITS_BEHIND; i++)
      commit(i % 2 ? "docs/performance.md" : "bench/results.json", String(i));
    expect(why(row({ commit: measured }))).toEqual([]);
  });

  test("a row with no commit, with uncommitted changes, or on a commit HEAD does not contain, is stale", () => {
    const first = commit("provider/src/a.ts", "0");
    git("checkout", "-q", "-b", "other");
    const elsewhere = commit("provider/src/a.ts", "elsewhere");
    git("checkout", "-q", "-");
    expect(why(row())).toEqual(["it records no commit"]);
    expect(why(row({ commit: first, uncommitted: true }))).toEqual([
      "it was measured with uncommitted changes to provider/src",
    ]);
    expect(why(row({ commit: elsewhere }))).toEqual([
      `its commit ${elsewhere.slice(0, 7)} is not in HEAD's history (a rebase or a squash dropped it)`,
    ]);
  });
});
