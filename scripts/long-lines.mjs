// No line of code over 120 columns (make lint), not counting what string and template literals take.
// Biome's formatter breaks code at 120 columns but never a string, a template literal or a comment, and
// biome has no rule for their length: this check sees comments and code. A message is one string on one
// line, so that grep finds where it is raised: the columns a line spends inside string and template literals
// are exempt. It reads the files biome reads (biome.jsonc's `files.includes`): tracked or new, not ignored.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const ts = createRequire(import.meta.url)("typescript");

const MAX_COLUMNS = 120;
const CODE = /\.(ts|mts|js|mjs|cjs)$/;
const GENERATED = /^sdk\/nodejs\//; // biome.jsonc says why it is left alone

/** The [start, end) offsets of every string and template literal in the file (a template with what it embeds). */
function literalRanges(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const ranges = [];
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      ranges.push([node.getStart(source), node.getEnd()]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ranges;
}

/** Characters (as an editor counts them, not UTF-8 bytes) of the line outside literals. */
function codeColumns(line, lineStart, ranges) {
  let columns = 0;
  let offset = lineStart;
  for (const character of line) {
    if (!ranges.some(([start, end]) => offset >= start && offset < end)) columns++;
    offset += character.length;
  }
  return columns;
}

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
  encoding: "utf8",
})
  .split("\0")
  .filter((file) => CODE.test(file) && !GENERATED.test(file));

const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") continue; // deleted, not yet staged
    throw err;
  }
  let ranges;
  let lineStart = 0;
  text.split("\n").forEach((line, i) => {
    if ([...line].length > MAX_COLUMNS) {
      ranges ??= literalRanges(file, text);
      const lineEnd = lineStart + line.length;
      const onLine = ranges.filter(([start, end]) => start < lineEnd && end > lineStart);
      const columns = codeColumns(line, lineStart, onLine);
      if (columns > MAX_COLUMNS) long.push(`${file}:${i + 1}: ${columns} columns outside string literals`);
    }
    lineStart += line.length + 1;
  });
}

if (long.length > 0) {
  console.error(long.join("\n"));
  console.error(
    `${long.length} line(s) over ${MAX_COLUMNS} columns of code or comment: split them by hand (after make format).`,
  );
  process.exitCode = 1; // not process.exit(): that can cut off what stderr has not written yet to a pipe
} else {
  console.log(`no line over ${MAX_COLUMNS} columns of code or comment in ${files.length} files`);
}
