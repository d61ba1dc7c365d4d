// The README's first program, as a newcomer types it: the files its `printf` lines write are what
// they claim (valid JSON, a tsconfig.json that makes `npx tsc --noEmit` check index.ts rather than
// print its help), it installs this release of the SDK and the TypeScript the examples pin, and its
// stack lives in a local backend set for the shell (no `pulumi login` that would switch the user's),
// with the passphrase the local backend asks for.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, codeBlocks, read } from "./markdown";

const pkg = require("../../package.json");
const example = require("../../examples/app-with-postgres/package.json");
const readme = read("README.md");
const section = readme.slice(
  readme.indexOf("## A first program against the simulator"),
  readme.indexOf("\n## ", readme.indexOf("## A first program against the simulator") + 3),
);
const shell = codeBlocks(section, "sh");
const setUp = shell.find((block) => block.includes("mkdir hello-hosting"))!;
const deploy = shell.find((block) => block.includes("pulumi up"))!;
const [program] = codeBlocks(section, "typescript");

let dir: string;
beforeAll(() => {
  // Inside the checkout (dist/ is ignored), where the SDK's declarations and @pulumi/pulumi can be linked in.
  dir = join(ROOT, "dist", `first-program-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The printf lines, as the README has them (mkdir and cd are the folder we are in; npm is checked below).
  const printfs = setUp.split("\n").filter((line) => line.startsWith("printf "));
  expect(printfs).toHaveLength(3);
  execFileSync("bash", ["-euc", printfs.join("\n")], { cwd: dir });
  writeFileSync(join(dir, "index.ts"), program);
  // node_modules as npm install leaves it, for the types: the SDK's declarations, @pulumi/pulumi and @types/node.
  const sdk = join(dir, "node_modules/@hosting/pulumi");
  execFileSync(join(ROOT, "node_modules/.bin/tsc"), [
    "-p",
    join(ROOT, "sdk/nodejs"),
    "--emitDeclarationOnly",
    "--outDir",
    sdk,
  ]);
  writeFileSync(join(sdk, "package.json"), JSON.stringify({ name: "@hosting/pulumi", types: "index.d.ts" }));
  symlinkSync(join(ROOT, "node_modules/@pulumi"), join(dir, "node_modules/@pulumi"));
  symlinkSync(join(ROOT, "node_modules/@types"), join(dir, "node_modules/@types"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("its printf lines write Pulumi.yaml, and package.json and tsconfig.json as valid JSON", () => {
  expect(readFileSync(join(dir, "Pulumi.yaml"), "utf8")).toBe("name: hello-hosting\nruntime: nodejs\n");
  expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({ main: "index.ts" });
  const tsconfig = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
  expect(tsconfig).toMatchObject({ compilerOptions: { strict: true }, files: ["index.ts"] });
});

test("npx tsc --noEmit, there, checks the program and finds nothing wrong", async () => {
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  const ran = await promisify(execFile)(tsc, ["--noEmit"], { cwd: dir }).catch((err) => err);
  expect(`${ran.stdout ?? ""}${ran.stderr ?? ""}`).toBe("");
  // And it does check: a wrong program fails there.
  writeFileSync(join(dir, "index.ts"), `${program}\nconst wrong: number = web.publicUrl;\n`);
  const failed = await promisify(execFile)(tsc, ["--noEmit"], { cwd: dir }).catch((err) => err);
  expect(failed.stdout).toMatch(/index\.ts\(\d+,\d+\): error TS2322/);
  writeFileSync(join(dir, "index.ts"), program);
});

test("it installs this release of the SDK, and the TypeScript and Node.js types the examples pin", () => {
  const installs = setUp.split("\n").filter((line) => line.startsWith("npm install"));
  expect(installs.join(" ")).toContain(`@hosting/pulumi@${pkg.version}`);
  expect(installs.join(" ")).toContain(`typescript@${example.devDependencies.typescript}`);
  expect(installs.join(" ")).toContain(`@types/node@${example.devDependencies["@types/node"]}`);
  expect(installs.find((line) => line.includes("typescript@"))).toMatch(/^npm install --save-dev /);
});

test("its stack is on a local backend set for the shell, with the passphrase, and never a pulumi login", () => {
  expect(deploy).toMatch(/^export PULUMI_BACKEND_URL="file:\/\/\$PWD\/[^"]+"$/m);
  expect(deploy).toMatch(/^export PULUMI_CONFIG_PASSPHRASE=/m);
  for (const block of shell) expect(block).not.toContain("pulumi login");
  expect(deploy.indexOf("PULUMI_BACKEND_URL")).toBeLessThan(deploy.indexOf("pulumi stack init"));
});
