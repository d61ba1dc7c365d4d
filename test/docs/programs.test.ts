// The code the README and docs/ show compiles against the SDK: each complete program (a fenced
// block marked `typescript`; fragments are marked `ts`) on its own, and each one-line example of the
// README's resource and function tables, with the variables they may name: each resource's first
// example (web, ordersDb, data, …) and config.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { variableName } from "../../provider/src/framework/examples";
import { hostingPackage } from "../../provider/src/package";
import { ROOT, docPrograms, read } from "./markdown";

const run = promisify(execFile);

/** The cells of the README's generated tables that are an example: `new hosting.X(...)` or `hosting.getX(...)...`. */
function oneLineExamples(readme: string): string[] {
  const tables = [...readme.matchAll(/<!-- generated: (?:resources|functions) -->\n([\s\S]*?)<!-- \/generated -->/g)];
  return tables.flatMap(([, table]) =>
    [...table.matchAll(/^\|[^|\n]+\| `((?:new )?hosting\.[^`]+)` \|$/gm)].map((m) => m[1]),
  );
}

/** What the examples may name: each resource's first example, as the example programs declare it, and config. */
const PRELUDE = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as hosting from "@hosting/pulumi";',
  "declare const config: pulumi.Config;",
  ...[...new Map(hostingPackage.resources.map((r) => [variableName(r.examples[0].name), r.typeName]))].map(
    ([name, typeName]) => `declare const ${name}: hosting.${typeName};`,
  ),
  "",
].join("\n");

let work: string;
let checked = 0;
beforeAll(() => {
  // Inside the checkout (dist/ is ignored), so that @pulumi/pulumi resolves from its node_modules.
  work = join(ROOT, "dist", `doc-programs-${process.pid}`);
  mkdirSync(work, { recursive: true });
  // The SDK as a user's program sees it: its declarations (bin/index.d.ts), compiled with its own
  // tsconfig. Its sources are written for that tsconfig, not for a program's isolatedModules.
  execFileSync(join(ROOT, "node_modules/.bin/tsc"), [
    "-p",
    join(ROOT, "sdk/nodejs"),
    "--emitDeclarationOnly",
    "--outDir",
    join(work, "sdk"),
  ]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** tsc --strict over `files` (name -> source); its output, empty when they compile. */
async function typecheck(files: Record<string, string>): Promise<string> {
  const dir = join(work, String(++checked));
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        pretty: false,
        target: "es2020",
        module: "commonjs",
        moduleResolution: "node",
        skipLibCheck: true,
        isolatedModules: true,
        baseUrl: ".",
        paths: { "@hosting/pulumi": [join(work, "sdk/index.d.ts")] },
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
      },
      files: Object.keys(files),
    }),
  );
  const result = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", dir]).catch((err) => err);
  return `${result.stdout ?? ""}${result.stderr ?? ""}`;
}

const programs = docPrograms();

test("the README's first program and docs/_index.md's full example are among the programs checked", () => {
  expect(programs.map((p) => p.name)).toEqual(
    expect.arrayContaining(["README.md program 1", "docs/_index.md program 1"]),
  );
});

test.each(programs)("$name compiles against the SDK (strict)", async ({ code }) => {
  expect(await typecheck({ "index.ts": code })).toBe("");
});

test(
  "every one-line example in the README's tables compiles against the SDK, " + "one per resource and function",
  async () => {
    const examples = oneLineExamples(read("README.md"));
    const schema = require("../../schema.json");
    expect(examples).toHaveLength(Object.keys(schema.resources).length + Object.keys(schema.functions).length);
    const source = PRELUDE + examples.map((example, i) => `export const example${i} = ${example};\n`).join("");
    expect(await typecheck({ "examples.ts": source })).toBe("");
  },
);

test("a wrong example does fail", async () => {
  expect(
    await typecheck({
      "wrong.ts": `${PRELUDE}export const x = new hosting.Volume("data", { name: "data", sizeGb: "20" });\n`,
    }),
  ).toMatch(/error TS2322/);
});
