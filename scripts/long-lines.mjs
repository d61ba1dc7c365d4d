// No line of code over 120 columns (make lint). Biome's formatter breaks code at 120 columns but never a
// string, a template literal or a comment, and biome has no rule for their length: this check is the one
// that sees them. It reads the files biome reads (biome.jsonc's `files.includes`): tracked or new, not ignored.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MAX_COLUMNS = 120;
const CODE = /\.(ts|mts|js|mjs|cjs)$/;
const GENERATED = /^sdk\/nodejs\//; // biome.jsonc says why it is left alone

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
  text.split("\n").forEach((line, i) => {
    const columns = [...line].length; // characters, as an editor counts them, not UTF-8 bytes
    if (columns > MAX_COLUMNS) long.push(`${file}:${i + 1}: ${columns} columns`);
  });
}

if (long.length > 0) {
  console.error(long.join("\n"));
  console.error(`${long.length} line(s) over ${MAX_COLUMNS} columns: split them by hand (after make format).`);
  process.exitCode = 1; // not process.exit(): that can cut off what stderr has not written yet to a pipe
} else {
  console.log(`no line over ${MAX_COLUMNS} columns in ${files.length} files`);
}
