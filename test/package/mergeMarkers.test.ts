// No tracked file holds a merge's conflict markers: a merge resolved by hand can leave one behind
// in a page no other test reads.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const MARKER = /^(<{7}|>{7}) |^={7}$/m;

test("no tracked text file holds a conflict marker", () => {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((file) => /\.(md|ts|mts|js|mjs|cjs|json|ya?ml|sh|go)$|^Makefile$/.test(file));
  const marked = files.filter((file) => MARKER.test(readFileSync(path.join(ROOT, file), "utf8")));
  expect(marked).toEqual([]);
});
