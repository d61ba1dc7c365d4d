// The SDK compiles with its own tsconfig (strict), and what it emits, with package.json beside it (as
// `make sdk-build` lays out sdk/nodejs/bin), is a loadable package: index.js and index.d.ts, every
// resource class exported, its version read from that package.json.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const SDK = join(ROOT, "sdk/nodejs");
const run = promisify(execFile);
const schema = require("../../schema.json");
/** Every resource the schema declares, by name. */
const RESOURCES: string[] = Object.keys(schema.resources).map((token) => token.split(":")[2]);

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.

let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "hosting-sdk-build-"));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

test("tsc -p sdk/nodejs (strict) compiles it without errors, into a package that loads", async () => {
  // Pulumi's generator writes its tsconfig.json with comments, which tsc reads and JSON.parse does not.
  const tsconfig = ts.readConfigFile(join(SDK, "tsconfig.json"), ts.sys.readFile).config;
  expect(tsconfig.compilerOptions.strict).toBe(true);

  const tsc = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", SDK, "--outDir", join(out, "bin")], {
    cwd: ROOT,
  }).catch((e) => e);
  expect(`${tsc.stdout ?? ""}${tsc.stderr ?? ""}`).toBe("");

  cpSync(join(SDK, "package.json"), join(out, "bin/package.json"));
  expect(existsSync(join(out, "bin/index.js"))).toBe(true);
  expect(existsSync(join(out, "bin/index.d.ts"))).toBe(true);

  // Load the compiled package in a plain Node.js process, resolving @pulumi/pulumi from the repo.
  const probe = `
    const sdk = require(${JSON.stringify(join(out, "bin"))});
    const pulumi = require("@pulumi/pulumi");
    console.log(JSON.stringify({
      exports: Object.keys(sdk).sort(),
      types: ${JSON.stringify(RESOURCES)}.map((n) => sdk[n].__pulumiType),
      module: typeof pulumi.runtime.getResourceModule("hosting", "index", ${JSON.stringify(schema.version)})?.construct,
      config: Object.keys(sdk.config).sort(),
      version: require(${JSON.stringify(join(out, "bin/utilities.js"))}).getVersion(),
    }));`;
  const { stdout } = await run(process.execPath, ["-e", probe], {
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
  });
  const loaded = JSON.parse(stdout);
  expect(loaded.exports).toEqual(
    [
      ...RESOURCES,
      "Provider",
      "config",
      "types",
      ...Object.keys(schema.functions).flatMap((token) => [token.split(":")[2], `${token.split(":")[2]}Output`]),
    ].sort(),
  );
  expect(loaded.types).toEqual(Object.keys(schema.resources));
  expect(loaded.module).toBe("function");
  expect(loaded.config).toEqual(Object.keys(schema.config.variables).sort());
  expect(loaded.version).toBe(schema.version);
});
