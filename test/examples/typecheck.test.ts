// Every example program is a complete Pulumi project that typechecks with its own tsconfig.
// "@hosting/pulumi" is mapped onto sdk/nodejs with `paths`, so no npm install is needed here;
// a user's `npm install` links what `make sdk-build` compiles from it (file:../../sdk/nodejs/bin).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.

const ROOT = resolve(__dirname, "../..");
const EXAMPLES = join(ROOT, "examples");
const programs = readdirSync(EXAMPLES).filter((name) => existsSync(join(EXAMPLES, name, "Pulumi.yaml")));
const run = promisify(execFile);

let work: string;
/** One tsc run per program, started together in beforeAll: the output, empty when clean. */
const typecheck = new Map<string, Promise<string>>();
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "hosting-examples-"));
  for (const name of programs) typecheck.set(name, tsc(name));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function tsc(name: string): Promise<string> {
  const dir = join(EXAMPLES, name);
  const tsconfig = join(work, `${name}.tsconfig.json`);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(dir, "tsconfig.json"),
      compilerOptions: {
        noEmit: true,
        pretty: false,
        paths: { "@hosting/pulumi": [join(ROOT, "sdk/nodejs/index.ts")] },
        // What the example's own devDependency @types/node provides after npm install.
        typeRoots: [join(ROOT, "node_modules/@types")],
        types: ["node"],
      },
    }),
  );
  const result = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", tsconfig], { cwd: dir }).catch((e) => e);
  return `${result.stdout ?? ""}${result.stderr ?? ""}`;
}

test("the program examples are app-with-postgres and volume", () => {
  expect(programs.sort()).toEqual(["app-with-postgres", "volume"]);
});

describe.each(programs)("examples/%s", (name) => {
  const dir = join(EXAMPLES, name);

  test("is a Node.js Pulumi project that uses the local SDK", () => {
    const project = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(new RegExp(`^name: ${name}$`, "m"));
    expect(project).toMatch(/^runtime: nodejs$/m);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.dependencies["@hosting/pulumi"]).toBe("file:../../sdk/nodejs/bin");
    expect(pkg.dependencies["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(pkg.devDependencies.typescript).toBeDefined();
    expect(JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")).compilerOptions.strict).toBe(true);
  });

  test("typechecks with tsc and its own tsconfig", async () => {
    expect(await typecheck.get(name)).toBe("");
  });
});
