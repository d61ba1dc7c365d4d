// docs/simulator.md is the simulator's manual: it lists every API endpoint with every body field
// the endpoint takes, every admin endpoint, every flag and switch, and every fault kind, all
// read from the simulator's own tables (the collections' routes, the admin routes, FLAGS,
// DEFAULT_SWITCHES, FAULT_KINDS), and lists nothing the simulator does not have.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SWITCHES } from "../../simulator/src";
import { ADMIN_ROUTES } from "../../simulator/src/admin";
import { KINDS } from "../../simulator/src/collections";
import { FAULT_KINDS } from "../../simulator/src/faults";
import { FLAGS } from "../../simulator/src/flags";
import { ROUTES } from "../../simulator/src/routes";

const DOC = readFileSync(join(__dirname, "../../docs/simulator.md"), "utf8");

/** The table under a `## heading`: its rows, each as its cells. */
function table(heading: string): string[][] {
  const section = DOC.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/simulator.md has no section "## ${heading}"`);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** "/v1/projects/:projectId/volumes" as the doc writes it: "/v1/projects/{projectId}/volumes". */
const written = (route: { method: string; pattern: string }) =>
  `\`${route.method} ${route.pattern.replace(/:(\w+)/g, "{$1}")}\``;

/** Each row by its first cell. */
const rowsByFirstCell = (rows: string[][]) => new Map(rows.map((row) => [row[0], row]));

describe("API endpoints", () => {
  const rows = rowsByFirstCell(table("API endpoints"));

  const cases = ROUTES.map((route) => [written(route), route] as const);
  test.each(cases)("%s has its row, naming every body field", (name, route) => {
    const row = rows.get(name);
    expect(row).toBeDefined();
    for (const field of route.body ?? []) expect(row![1]).toContain(`\`${field}\``);
    if (!route.body) expect(row![1]).toBe("");
    expect(row![2]).toMatch(/^\d{3}\b/);
  });

  test("lists no endpoint the simulator does not have", () => {
    expect([...rows.keys()].sort()).toEqual(ROUTES.map(written).sort());
  });
});

describe("admin API", () => {
  const rows = rowsByFirstCell(table("Admin API"));

  test("one row per admin route, and no other", () => {
    expect([...rows.keys()].sort()).toEqual(ADMIN_ROUTES.map(written).sort());
  });

  test("names every collection as a {kind}", () => {
    const kinds = /`\{kind\}` is a collection of the world: ([\s\S]*?)\.\n/.exec(DOC)?.[1];
    expect(kinds?.match(/`(\w+)`/g)?.map((kind) => kind.slice(1, -1))).toEqual(KINDS);
  });
});

describe("flags and switches", () => {
  const rows = table("Command-line flags");

  test("one row per flag, in the order --help gives them, with its argument", () => {
    const usage = (flag: (typeof FLAGS)[number]) => `\`--${flag.name}${flag.arg ? ` ${flag.arg}` : ""}\``;
    expect(rows.map((row) => row[0])).toEqual(FLAGS.map(usage));
  });

  test("a flag's row names the switch it sets; every switch has a flag", () => {
    expect(rows.map((row) => row[1])).toEqual(FLAGS.map((flag) => (flag.sets ? `\`${flag.sets.switch}\`` : "")));
    const set = FLAGS.flatMap((flag) => (flag.sets ? [flag.sets.switch] : []));
    expect(set.sort()).toEqual(Object.keys(DEFAULT_SWITCHES).sort());
  });
});

describe("faults", () => {
  test("one row per fault kind, and no other", () => {
    expect(table("Faults").map((row) => row[0])).toEqual(FAULT_KINDS.map((kind) => `\`${kind}\``));
  });
});
