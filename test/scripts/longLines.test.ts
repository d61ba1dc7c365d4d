// scripts/long-lines.mjs, run in a scratch git repository: code and comments over 120 columns fail it;
// columns inside string and template literals do not count.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const script = path.resolve(__dirname, "../../scripts/long-lines.mjs");
const repo = mkdtempSync(path.join(tmpdir(), "long-lines-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function check(source: string) {
  writeFileSync(path.join(repo, "file.ts"), source);
  spawnSync("git", ["init", "-q"], { cwd: repo });
  // The script loads typescript from beside itself, so it runs from this repository's node_modules.
  return spawnSync(process.execPath, [script], { cwd: repo, encoding: "utf8" });
}

const message = "x".repeat(200);

test.each([
  ["a long string on one line", `throw new Error("${message}");\n`],
  [
    "a long template literal with what it embeds",
    `const a = 1;\nthrow new Error(\`${message} \${a + a} ${message}\`);\n`,
  ],
  ["a line of exactly 120 columns", `const b = ${"1".repeat(109)};\n`],
])("passes %s", (_, source) => {
  const result = check(source);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
});

test.each([
  ["a long comment", `// ${message}\n`, 1, 203],
  ["long code beside a short string", `const c = [${"1, ".repeat(45)}"ok"];\n`, 1, 148],
  ["long code on the second line", `const d = 1;\nconst e = ${"d + ".repeat(40)}d;\n`, 2, 172],
])("fails %s, naming the line and its columns outside literals", (_, source, line, columns) => {
  const result = check(source);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`file.ts:${line}: ${columns} columns outside string literals`);
});
