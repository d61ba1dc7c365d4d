// The sections of hand-written pages that `make docs` writes (scripts/gen-docs.ts): the README's
// tables of resources and of functions and docs/functions.md's, from schema.json; docs/simulator.md's
// table of endpoints and its list of collections, from the simulator's own tables. Each stands
// between two markers, and the prose around it is left as written:
//
//   <!-- generated: resources -->
//   …
//   <!-- /generated -->
//
// So a new resource (its declaration and its simulator entry) brings its rows with it, and no page
// keeps a list of kinds by hand. Pure and deterministic, like reference-docs.ts.
import type { PackageSpec } from "../provider/src/framework/packageSchema";
import type { Route } from "../simulator/src/context";
import {
  exampleCode,
  firstSentence,
  nameOfToken,
  referencePage,
  sortedEntries,
  splitDescription,
  tableCell,
} from "./schema-text";

const SECTION = /<!-- generated: ([\w-]+) -->\n[\s\S]*?<!-- \/generated -->/g;

/** What the simulator's tables give the pages: every route, and the names of the world's collections. */
export interface SimulatorTables {
  routes: readonly Route[];
  kinds: readonly string[];
}

/** The generated sections of each page, by its path from the root, then by the section's name. */
export type PageSections = Record<string, Record<string, string>>;

/** A markdown table: its heading cells, then one row each (an empty cell is one space). */
function table(headings: string[], rows: string[][]): string {
  const line = (cells: string[]) => `|${cells.map((text) => (text ? ` ${text} ` : " ")).join("|")}|`;
  return [line(headings), `|${headings.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

const code = (text: string) => `\`${tableCell(text)}\``;

/**
 * The last statement of an example program, on one line, as an expression: `const web = new
 * hosting.Container("web", {…});` gives `new hosting.Container("web", {…})`.
 */
export function exampleExpression(program: string): string {
  const lines = program.trimEnd().split("\n");
  const starts = lines.flatMap((line, index) => (/^(export )?const /.test(line) ? [index] : []));
  return lines
    .slice(starts.at(-1) ?? 0)
    .join("\n")
    .replace(/,\s*\n\s*([}\]])/g, " $1")
    .replace(/\s*\n\s*/g, " ")
    .replace(/^(export )?const [\w$]+ = /, "")
    .replace(/;$/, "");
}

/** The first example of a resource or function, as one expression ("" when it has none). */
const firstExample = (description: string | undefined) => {
  const program = exampleCode(splitDescription(description).examples, "typescript")[0];
  return program === undefined ? "" : code(exampleExpression(program));
};

/** Every resource, linked to its reference page (under `reference`, relative to the page), with its first example. */
export function resourceTable(pkg: PackageSpec, reference: string): string {
  const rows = sortedEntries(pkg.resources).map(([token, resource]) => [
    `[${nameOfToken(token)}](${reference}/${referencePage(token)})`,
    firstExample(resource.description),
  ]);
  return table(["resource", "example"], rows);
}

/** Every function, linked to its reference page, with its first example. */
export function functionTable(pkg: PackageSpec, reference: string): string {
  const rows = sortedEntries(pkg.functions).map(([token, fn]) => [
    `[${nameOfToken(token)}](${reference}/${referencePage(token)})`,
    firstExample(fn.description),
  ]);
  return table(["function", "example"], rows);
}

/** Every function with what it does and its arguments (which are required), linked to its reference page. */
export function functionArgumentsTable(pkg: PackageSpec, reference: string): string {
  const rows = sortedEntries(pkg.functions).map(([token, fn]) => {
    const required = new Set(fn.inputs?.required ?? []);
    const args = sortedEntries(fn.inputs?.properties).map(
      ([name]) => `\`${name}\`${required.has(name) ? " (required)" : ""}`,
    );
    return [
      `[${nameOfToken(token)}](${reference}/${referencePage(token)})`,
      tableCell(firstSentence(fn.description)),
      args.join(", "),
    ];
  });
  return table(["function", "what it does", "arguments"], rows);
}

/** `/v1/projects/:projectId/volumes` as the pages write it: `/v1/projects/{projectId}/volumes`. */
export const writtenPattern = (pattern: string) => pattern.replace(/:(\w+)/g, "{$1}");

/** Every API endpoint the simulator serves: its body's fields and what it answers, from the route itself. */
export function endpointTable(routes: readonly Route[]): string {
  const rows = routes.map((route) => [
    code(`${route.method} ${writtenPattern(route.pattern)}`),
    tableCell(route.doc.body ?? (route.body ?? []).map((field) => `\`${field}\``).join(", ")),
    tableCell(route.doc.answers),
  ]);
  return table(["endpoint", "body", "answers"], rows);
}

/** The sentence that names the collections an admin route's `{kind}` may be. */
export const kindsSentence = (kinds: readonly string[]) =>
  `\`{kind}\` is a collection of the world: ${kinds.map((kind) => `\`${kind}\``).join(", ")}.`;

/** What `make docs` writes into each page, by section. */
export function docSections(pkg: PackageSpec, simulator: SimulatorTables): PageSections {
  return {
    "README.md": { resources: resourceTable(pkg, "docs/reference"), functions: functionTable(pkg, "docs/reference") },
    "docs/functions.md": { functions: functionArgumentsTable(pkg, "reference") },
    "docs/simulator.md": { endpoints: endpointTable(simulator.routes), kinds: kindsSentence(simulator.kinds) },
  };
}

/**
 * The page with each generated section holding what `sections` give it. Every section given must stand in the page
 * once, between its markers, and the page may hold no other: a page that lost its markers, or that names a section
 * no generator writes, is refused, naming the page and the section.
 */
export function withSections(page: string, text: string, sections: Record<string, string>): string {
  const found = [...text.matchAll(SECTION)].map((match) => match[1]);
  for (const name of Object.keys(sections)) {
    const times = found.filter((other) => other === name).length;
    if (times !== 1)
      throw new Error(
        `${page} has ${times === 0 ? "no" : times} generated section "${name}" (make docs writes it once): put <!-- generated: ${name} --> and <!-- /generated --> on lines of their own where it goes`,
      );
  }
  const unknown = found.filter((name) => !(name in sections));
  if (unknown.length > 0)
    throw new Error(
      `${page} has a generated section that make docs does not write: ${unknown.join(", ")}; it writes ${Object.keys(sections).join(", ")}`,
    );
  return text.replace(
    SECTION,
    (_, name: string) => `<!-- generated: ${name} -->\n\n${sections[name]}\n\n<!-- /generated -->`,
  );
}
