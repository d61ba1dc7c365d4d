// schema.json and sdk/nodejs are generated and committed. These tests run the real
// `make schema sdk` into a temporary directory (never over the working tree) and fail when the
// committed files differ from what it writes, and when a second run would change anything.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.
jest.setTimeout(180_000);

const ROOT = resolve(__dirname, "../..");
/** What a build or an install leaves in sdk/nodejs; the generator neither writes nor removes it. */
const NOT_GENERATED = new Set(["node_modules", "bin", "package-lock.json"]);

type Tree = Map<string, Buffer>;

function readTree(dir: string): Tree {
  const tree: Tree = new Map();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (at === dir && NOT_GENERATED.has(entry.name)) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else tree.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return tree;
}

const fileTree = (path: string, name: string): Tree => new Map([[name, readFileSync(path)]]);

/** Why `committed` is not what the generator writes (`fresh`), or undefined when it is. */
function staleness(what: string, fresh: Tree, committed: Tree): string | undefined {
  const problems: string[] = [];
  for (const [path, bytes] of fresh) {
    const have = committed.get(path);
    if (!have) problems.push(`${path} is missing`);
    else if (!have.equals(bytes)) {
      const [a, b] = [have.toString().split("\n"), bytes.toString().split("\n")];
      const line = a.findIndex((text, i) => text !== b[i]);
      problems.push(`${path} differs from line ${(line === -1 ? a.length : line) + 1}`);
    }
  }
  for (const path of committed.keys()) if (!fresh.has(path)) problems.push(`${path} is not generated`);
  return problems.length ? `${what} is stale: ${problems.join("; ")}. Run \`make schema sdk\` and commit the result.` : undefined;
}

const run = promisify(execFile);
/** `make schema sdk`, writing into `dir` instead of the working tree. */
async function makeSchemaSdk(dir: string) {
  await run("make", ["--no-print-directory", "schema", "sdk", `SCHEMA_JSON=${join(dir, "schema.json")}`, `SDK_NODEJS=${join(dir, "nodejs")}`], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  });
}

let work: string;
let first: { schema: Tree; sdk: Tree };
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hosting-generated-"));
  await makeSchemaSdk(work);
  first = { schema: fileTree(join(work, "schema.json"), "schema.json"), sdk: readTree(join(work, "nodejs")) };
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("schema.json is exactly what `make schema` writes", () => {
  expect(staleness("schema.json", first.schema, fileTree(join(ROOT, "schema.json"), "schema.json"))).toBeUndefined();
});

test("sdk/nodejs is exactly what `make sdk` writes, file for file", () => {
  expect(first.sdk.size).toBeGreaterThan(10);
  expect(staleness("sdk/nodejs", first.sdk, readTree(join(ROOT, "sdk/nodejs")))).toBeUndefined();
});

test("a hand edit, a deleted file or an extra file makes the comparison fail, saying what to run", () => {
  const copy = join(work, "hand-edited");
  cpSync(join(ROOT, "sdk/nodejs"), copy, { recursive: true, filter: (src) => !NOT_GENERATED.has(relative(join(ROOT, "sdk/nodejs"), src)) });
  const container = join(copy, "container.ts");
  writeFileSync(container, readFileSync(container, "utf8").replace("Port the app serves HTTP on.", "Port the app listens on."));
  rmSync(join(copy, "types/output.ts"));
  writeFileSync(join(copy, "extra.ts"), "export const x = 1;\n");
  const message = staleness("sdk/nodejs", first.sdk, readTree(copy));
  expect(message).toMatch(/^sdk\/nodejs is stale: /);
  expect(message).toMatch(/container\.ts differs from line \d+/);
  expect(message).toContain("types/output.ts is missing");
  expect(message).toContain("extra.ts is not generated");
  expect(message).toContain("Run `make schema sdk`");

  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  schema.resources["hosting:index:Volume"].description += " Edited by hand.";
  const edited = new Map([["schema.json", Buffer.from(JSON.stringify(schema, null, 2) + "\n")]]);
  expect(staleness("schema.json", first.schema, edited)).toMatch(/^schema\.json is stale: schema\.json differs from line \d+\. Run `make schema sdk`/);
});

test("`make schema sdk` is idempotent: a second run changes nothing, and clears files it did not write", async () => {
  const sdk = join(work, "nodejs");
  writeFileSync(join(sdk, "leftover.ts"), "// from an older generator\n");
  mkdirSync(join(sdk, "node_modules"));
  writeFileSync(join(sdk, "node_modules", "kept"), "");
  await makeSchemaSdk(work);
  expect(readFileSync(join(work, "schema.json")).equals(first.schema.get("schema.json")!)).toBe(true);
  expect(staleness("the second run's sdk", first.sdk, readTree(sdk))).toBeUndefined();
  expect(readdirSync(join(sdk, "node_modules"))).toEqual(["kept"]);
}, 120_000);
