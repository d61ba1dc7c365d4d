// Reading schema.json, for the generator that writes it out as docs (gen-docs.ts: docs/reference/ and the
// generated sections of the docs): its descriptions, its object types, the order and the table cells.
//
// A description is markdown. Resources and functions may carry Pulumi's example shortcodes, as
// Pulumi's registry expects them, and a resource may end with an `## Import` section:
//
//   <text>
//
//   {{% examples %}}
//   ## Example Usage
//   {{% example %}}
//   ### <title>
//
//   ```typescript
//   <code>
//   ```
//   {{% /example %}}
//   {{% /examples %}}
//
//   ## Import
//   <text>
//
// Outside Pulumi's registry the shortcodes mean nothing, so they are dropped and the markdown kept.
import type { PackageSpec, PropertySpec } from "../provider/src/framework/packageSchema";

const SHORTCODE_LINE = /^[ \t]*\{\{%[ \t]*\/?[ \t]*[\w-]+[ \t]*%\}\}[ \t]*$/;

/** The description with its shortcode lines blank, and no run of more than one blank line. */
export function stripShortcodes(text: string): string {
  return text
    .split("\n")
    .map((line) => (SHORTCODE_LINE.test(line) ? "" : line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export interface DescriptionParts {
  /** What the resource or function is: the text before its examples and its import section. */
  summary: string;
  /**
   * The examples' markdown (each `### <title>` and its code), without the shortcodes and the `## Example Usage`
   * heading.
   */
  examples?: string;
  /** The `## Import` section's markdown, without its heading. */
  importSection?: string;
}

/** The `## Heading` section of `text` (until the next `## ` heading), and the text without it. */
function takeSection(text: string, heading: RegExp): { section?: string; rest: string } {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => heading.test(line));
  if (start === -1) return { rest: text };
  const length = lines.slice(start + 1).findIndex((line) => /^## /.test(line));
  const end = length === -1 ? lines.length : start + 1 + length;
  return {
    section: lines
      .slice(start + 1, end)
      .join("\n")
      .trim(),
    rest: [...lines.slice(0, start), ...lines.slice(end)].join("\n"),
  };
}

/** A description in its three parts; a description with no examples and no import section is all summary. */
export function splitDescription(description: string | undefined): DescriptionParts {
  const text = description ?? "";
  const open = text.indexOf("{{% examples %}}");
  const close = text.indexOf("{{% /examples %}}");
  let examples: string | undefined;
  let rest = text;
  if (open !== -1 && close > open) {
    examples = stripShortcodes(text.slice(open, close + "{{% /examples %}}".length))
      .replace(/^## Example Usage[ \t]*\n?/m, "")
      .trim();
    rest = text.slice(0, open) + text.slice(close + "{{% /examples %}}".length);
  }
  const { section: importSection, rest: summary } = takeSection(stripShortcodes(rest), /^## Import[ \t]*$/);
  return {
    summary: summary.trim(),
    ...(examples ? { examples } : {}),
    ...(importSection ? { importSection } : {}),
  };
}

/** The first sentence of a description's summary, on one line (for tables and lists). */
export function firstSentence(description: string | undefined): string {
  const summary = splitDescription(description).summary.replace(/\s+/g, " ").trim();
  const match = /^(.+?[.!?])(?:\s|$)/.exec(summary);
  return match ? match[1] : summary;
}

/** The code of each example (the fenced blocks), in order; with `language`, only the blocks fenced with it. */
export function exampleCode(examples: string | undefined, language?: string): string[] {
  return [...(examples ?? "").matchAll(/^```([\w-]*)\n([\s\S]*?)^```[ \t]*$/gm)]
    .filter((m) => language === undefined || m[1] === language)
    .map((m) => m[2]);
}

/** The examples' markdown as each example's title and its code, by the fence of each block (`typescript`, …). */
export function examplesByLanguage(
  examples: string | undefined,
): Array<{ title: string; code: Record<string, string> }> {
  return (examples ?? "")
    .split(/^### /m)
    .slice(1)
    .map((example) => ({
      title: example.slice(0, example.indexOf("\n")).trim(),
      code: Object.fromEntries([...example.matchAll(/^```([\w-]*)\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => [m[1], m[2]])),
    }));
}

/** `hosting:index:ServiceLink` -> `ServiceLink`. */
export const nameOfToken = (token: string) => token.split(":")[2];

/**
 * The reference page of a resource or function, relative to docs/reference/: `servicelink.md`, as Pulumi's registry
 * names them.
 */
export const referencePage = (token: string) => `${nameOfToken(token).toLowerCase()}.md`;

/** A record's entries in the order of their keys: the generators write in it, so one schema gives the same bytes. */
export const sortedEntries = <T>(record: Record<string, T> | undefined): Array<[string, T]> =>
  Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Text for one markdown table cell: on one line, with its pipes escaped. */
export const tableCell = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/** `#/types/hosting:index:Connection` -> `hosting:index:Connection`; the schema refers to nothing else. */
export function typeToken(ref: string): string {
  const match = /^#\/types\/(.+)$/.exec(ref);
  if (!match) throw new Error(`unsupported $ref ${ref}: only #/types/... refs`);
  return match[1];
}

/** The tokens of the object types that groups of properties refer to, directly or through other types. */
export function typesReferenced(
  pkg: PackageSpec,
  groups: Array<Record<string, PropertySpec> | undefined>,
): Set<string> {
  const found = new Set<string>();
  const visit = (spec: PropertySpec | undefined) => {
    if (!spec) return;
    if (spec.$ref) {
      const token = typeToken(spec.$ref);
      if (found.has(token)) return;
      found.add(token);
      for (const inner of Object.values(pkg.types?.[token]?.properties ?? {})) visit(inner);
    }
    visit(spec.items);
    visit(spec.additionalProperties);
  };
  for (const group of groups) for (const spec of Object.values(group ?? {})) visit(spec);
  return found;
}
