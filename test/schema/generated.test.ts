// schema.json, sdk/<language> (with the Go SDK's module, sdk/go.mod), docs/reference and the generated
// sections of README.md, docs/functions.md and docs/simulator.md are generated and committed. These tests
// run the real `make schema sdk docs` into a temporary directory (never over the working tree) and fail
// when the committed files differ from what it writes, and when a second run would change anything.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { docSections } from "../../scripts/doc-sections";
import { KINDS } from "../../simulator/src/collections";
import { ROUTES } from "../../simulator/src/routes";
import { schemaWithExamples } from "../scripts/fixtures";

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.
/** Builds (generators, tsc over a copy) are CPU-bound: minutes on a loaded 2-core machine; this catches a hang. */
const BUILDS_MS = 600_000;

const ROOT = resolve(__dirname, "../..");
/**
 * What a build or an install leaves in an SDK's folder (sdk/nodejs/node_modules, sdk/nodejs/bin, a .NET
 * build's obj, a Python build's dist); `make sdk` neither writes nor removes it (scripts/gen-sdk.sh).
 */
const NOT_GENERATED = new Set(["node_modules", "bin", "obj", "build", "target", ".gradle", "dist", "venv", ".venv"]);
const LANGUAGES = ["nodejs", "python", "go", "dotnet", "java"];

type Tree = Map<string, Buffer>;

/** The files under dir; in each of `languages` (folders of dir), what builds leave is skipped. */
function readTree(dir: string, languages: string[] = []): Tree {
  const tree: Tree = new Map();
  const buildFolders = new Set(languages.map((language) => join(dir, language)));
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if ((at === dir || buildFolders.has(at)) && NOT_GENERATED.has(entry.name)) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else tree.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return tree;
}

const fileTree = (path: string, name: string): Tree => new Map([[name, readFileSync(path)]]);

/** The hand-written pages that hold generated sections (README.md, docs/simulator.md, …), from the root. */
const SECTION_PAGES = Object.keys(
  docSections(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")), { routes: ROUTES, kinds: KINDS }),
);
const pagesTree = (root: string): Tree => new Map(SECTION_PAGES.map((page) => [page, readFileSync(join(root, page))]));

/** Why `committed` is not what the generator writes (`fresh`), or undefined when it is. */
function staleness(what: string, fresh: Tree, committed: Tree, command = "make schema sdk"): string | undefined {
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
  return problems.length
    ? `${what} is stale: ${problems.join("; ")}. Run \`${command}\` and commit the result.`
    : undefined;
}

const run = promisify(execFile);
/**
 * `make <targets>`, writing into `dir` instead of the working tree: the pages with generated sections
 * are the committed ones, copied into `dir/pages` first unless they are there.
 */
async function makeInto(dir: string, targets = ["schema", "sdk", "docs"]) {
  for (const page of SECTION_PAGES) {
    const copy = join(dir, "pages", page);
    mkdirSync(dirname(copy), { recursive: true });
    if (!existsSync(copy)) cpSync(join(ROOT, page), copy);
  }
  const into = [
    `SCHEMA_JSON=${join(dir, "schema.json")}`,
    `SDK_DIR=${join(dir, "sdk")}`,
    `DOCS_REFERENCE=${join(dir, "reference")}`,
    `DOCS_PAGES=${join(dir, "pages")}`,
  ];
  await run("make", ["--no-print-directory", ...targets, ...into], { cwd: ROOT, maxBuffer: 16 << 20 });
}

let work: string;
let first: { schema: Tree; sdk: Tree; docs: Tree; pages: Tree };
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hosting-generated-"));
  await makeInto(work);
  first = {
    schema: fileTree(join(work, "schema.json"), "schema.json"),
    sdk: readTree(join(work, "sdk"), LANGUAGES),
    docs: readTree(join(work, "reference")),
    pages: pagesTree(join(work, "pages")),
  };
}, BUILDS_MS);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("schema.json is exactly what `make schema` writes", () => {
  expect(staleness("schema.json", first.schema, fileTree(join(ROOT, "schema.json"), "schema.json"))).toBeUndefined();
});

test("sdk/ (every language's SDK, and the Go SDK's go.mod) is exactly what `make sdk` writes, file for file", () => {
  for (const language of LANGUAGES)
    expect([...first.sdk.keys()].filter((path) => path.startsWith(`${language}/`)).length).toBeGreaterThan(5);
  expect(first.sdk.has("go.mod")).toBe(true);
  expect(staleness("sdk", first.sdk, readTree(join(ROOT, "sdk"), LANGUAGES))).toBeUndefined();
});

test("docs/reference is exactly what `make docs` writes, page for page", () => {
  expect(first.docs.size).toBeGreaterThan(10);
  expect(staleness("docs/reference", first.docs, readTree(join(ROOT, "docs/reference")), "make docs")).toBeUndefined();
});

test("the generated sections of README.md, docs/functions.md and docs/simulator.md are what `make docs` writes", () => {
  expect(SECTION_PAGES).toEqual(expect.arrayContaining(["README.md", "docs/functions.md", "docs/simulator.md"]));
  expect(staleness("the generated sections", first.pages, pagesTree(ROOT), "make docs")).toBeUndefined();
});

test(
  "`make docs` puts back a generated section edited by hand, and keeps the prose around it",
  async () => {
    const dir = join(work, "hand-edited-pages");
    const readme = join(dir, "pages", "README.md");
    mkdirSync(dirname(readme), { recursive: true });
    cpSync(join(work, "schema.json"), join(dir, "schema.json"));
    const prose = (text: string) => text.replace("# pulumi-hosting\n", "# pulumi-hosting\n\nA line of prose.\n");
    const committed = readFileSync(join(ROOT, "README.md"), "utf8");
    const edited = prose(committed).replace("](docs/reference/container.md) |", "](elsewhere.md) |");
    expect(edited).not.toBe(prose(committed));
    writeFileSync(readme, edited);
    const fresh = new Map([["README.md", first.pages.get("README.md")!]]);
    expect(staleness("README.md", fresh, fileTree(readme, "README.md"), "make docs")).toMatch(
      /^README\.md is stale: README\.md differs from line \d+\. Run `make docs` and commit the result\.$/,
    );
    await makeInto(dir, ["docs"]);
    expect(readFileSync(readme, "utf8")).toBe(prose(committed));
  },
  BUILDS_MS,
);

test("a hand edit, a deleted file or an extra file makes the comparison fail, saying what to run", () => {
  const copy = join(work, "hand-edited");
  cpSync(join(ROOT, "sdk"), copy, {
    recursive: true,
    filter: (src) => !NOT_GENERATED.has(relative(join(ROOT, "sdk"), src).split("/")[1] ?? ""),
  });
  const container = join(copy, "nodejs/container.ts");
  writeFileSync(
    container,
    readFileSync(container, "utf8").replace("Port the app serves HTTP on.", "Port the app listens on."),
  );
  rmSync(join(copy, "python/pulumi_hosting/volume.py"));
  writeFileSync(join(copy, "go/hosting/extra.go"), "package hosting\n");
  const message = staleness("sdk", first.sdk, readTree(copy, LANGUAGES));
  expect(message).toMatch(/^sdk is stale: /);
  expect(message).toMatch(/nodejs\/container\.ts differs from line \d+/);
  expect(message).toContain("python/pulumi_hosting/volume.py is missing");
  expect(message).toContain("go/hosting/extra.go is not generated");
  expect(message).toContain("Run `make schema sdk`");

  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  schema.resources["hosting:index:Volume"].description += " Edited by hand.";
  const edited = new Map([["schema.json", Buffer.from(`${JSON.stringify(schema, null, 2)}\n`)]]);
  expect(staleness("schema.json", first.schema, edited)).toMatch(
    /^schema\.json is stale: schema\.json differs from line \d+\. Run `make schema sdk`/,
  );

  const docs = new Map(first.docs);
  docs.set("volume.md", Buffer.from(docs.get("volume.md")!.toString().replace("## Inputs", "## Arguments")));
  docs.delete("redis.md");
  expect(staleness("docs/reference", first.docs, docs, "make docs")).toMatch(
    new RegExp(
      /^docs\/reference is stale: redis\.md is missing; volume\.md differs from line \d+\. /.source +
        /Run `make docs` and commit the result\.$/.source,
    ),
  );
});

test(
  "`make schema sdk docs` is idempotent: a second run changes nothing, and clears files it did not write",
  async () => {
    const sdk = join(work, "sdk");
    writeFileSync(join(sdk, "nodejs", "leftover.ts"), "// from an older generator\n");
    writeFileSync(join(sdk, "dotnet", "Leftover.cs"), "// from an older generator\n");
    writeFileSync(join(work, "reference", "removed-resource.md"), "# gone\n");
    mkdirSync(join(sdk, "nodejs", "node_modules"));
    writeFileSync(join(sdk, "nodejs", "node_modules", "kept"), "");
    await makeInto(work);
    expect(readFileSync(join(work, "schema.json")).equals(first.schema.get("schema.json")!)).toBe(true);
    expect(staleness("the second run's sdk", first.sdk, readTree(sdk, LANGUAGES))).toBeUndefined();
    expect(staleness("the second run's docs", first.docs, readTree(join(work, "reference")))).toBeUndefined();
    expect(staleness("the second run's pages", first.pages, pagesTree(join(work, "pages")))).toBeUndefined();
    expect(readdirSync(join(sdk, "nodejs", "node_modules"))).toEqual(["kept"]);
  },
  BUILDS_MS,
);

test(
  "descriptions with Pulumi's example shortcodes: the SDK's doc comments keep the TypeScript example, not the shortcodes",
  async () => {
    const dir = join(work, "with-examples");
    mkdirSync(dir);
    writeFileSync(join(dir, "schema.json"), JSON.stringify(schemaWithExamples(), null, 2));
    await makeInto(dir, ["sdk", "docs"]);
    const container = readFileSync(join(dir, "sdk/nodejs/container.ts"), "utf8");
    expect(container).not.toContain("{{%");
    expect(container).toMatch(
      new RegExp(
        /^ \* ## Example Usage\n \* ### A public web app\n \*\n/.source +
          / \* ```typescript\n \* import \* as hosting from "@hosting\/pulumi";$/.source,
        "m",
      ),
    );
    expect(readFileSync(join(dir, "sdk/nodejs/getContainerLogs.ts"), "utf8")).not.toContain("{{%");
    expect(readFileSync(join(dir, "reference/container.md"), "utf8")).toContain("### A public web app");
  },
  BUILDS_MS,
);
