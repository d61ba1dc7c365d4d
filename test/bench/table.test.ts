// docs/performance.md's table is bench/results.json's (scripts/bench-table.ts writes it; `npm run bench` runs it),
// and a run of some rows replaces only theirs in the record.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  TABLE_END,
  TABLE_START,
  mergeRows,
  renderTable,
  withTable,
  type Results,
  type Row,
} from "../../scripts/bench-table";

const root = resolve(__dirname, "../..");

test("docs/performance.md's table is the one bench/results.json makes (run `make bench-table` if not)", () => {
  const results = JSON.parse(readFileSync(resolve(root, "bench/results.json"), "utf8")) as Results;
  const doc = readFileSync(resolve(root, "docs/performance.md"), "utf8");
  expect(doc).toBe(withTable(doc, renderTable(results)));
});

describe("the record", () => {
  const row = (id: number, part?: string, measured = "old"): Row => ({
    id,
    ...(part ? { part } : {}),
    name: `row ${id}${part ?? ""}`,
    baseline: "b",
    measured,
    ratio: "1.00×",
    target: "t",
    met: true,
    figures: {},
  });

  test("a run of some rows replaces theirs and keeps the others, in order (16a before 16b), each with its run", () => {
    const recorded: Results = {
      date: "2026-11-25T09:31:57.216Z",
      machine: "2 × AMD EPYC",
      rows: [row(1), row(16, "a"), row(16, "b"), row(17)],
    };
    const merged = mergeRows(recorded, [row(16, "b", "new"), row(2, undefined, "new")]);
    expect(merged.map((r) => `${r.id}${r.part ?? ""} ${r.measured}`)).toEqual([
      "1 old",
      "2 new",
      "16a old",
      "16b new",
      "17 old",
    ]);
    // A row from before rows carried their run keeps the record's: a later run on another machine does not take it.
    expect(merged[0].run).toEqual({ date: "2026-11-25T09:31:57.216Z", machine: "2 × AMD EPYC" });
    expect(merged[1].run).toBeUndefined(); // what the run measured comes with its own (bench/run.ts)
  });

  test("each row says when it was measured and how busy the machine was; a row from before says it was not recorded", () => {
    const results: Results = {
      date: "2026-11-25T09:31:57.216Z",
      machine: "2 × AMD EPYC",
      rows: [
        row(1),
        {
          ...row(16, "b"),
          run: { date: "2026-11-27T10:00:00.000Z", machine: "2 × AMD EPYC", loadAverage: [0.84, 1.26] },
        },
      ],
    };
    const lines = renderTable(results).split("\n");
    expect(lines[2]).toMatch(/^\| 1 \| row 1 \|.*\| yes \| 2026-11-25 \(load not recorded\) \|$/);
    expect(lines[3]).toMatch(/^\| 16b \| row 16b \|.*\| 2026-11-27 \(load 0\.8–1\.3\) \|$/);
  });

  test("a document without the markers is refused, naming them", () => {
    expect(() => withTable("# Performance\n", "| table |")).toThrow(TABLE_START);
    expect(withTable(`a\n${TABLE_START}\nold\n${TABLE_END}\nb`, "| new |")).toBe(
      `a\n${TABLE_START}\n\n| new |\n\n${TABLE_END}\nb`,
    );
  });
});
