// `make sdk-pack`, on a copy of the repository with nothing built: the tarball is what `npm publish`
// of sdk/nodejs/bin would send (npm's own dry run lists the same files), the package as Pulumi's providers
// publish theirs, and it holds the SDK as users install it (README.md, which is its npm page, LICENSE,
// package.json, the compiled code with its types and their maps) and nothing else: no TypeScript
// sources, tsconfig or node_modules.
// This needs the npm registry (or npm's cache): the build installs the SDK's own dependencies.
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { repositoryCopy } from "../package/helpers";

const run = promisify(execFile);
const ROOT = join(__dirname, "../..");
const schema = require("../../schema.json");
const VERSION: string = schema.version;

let repo: string;
let packed: string[];
let dryRun: string[];
beforeAll(async () => {
  repo = repositoryCopy("hosting-sdk-pack-");
  await run("make", ["--no-print-directory", "sdk-pack"], { cwd: repo, maxBuffer: 16 << 20 });
  const tarball = join(repo, `dist/hosting-pulumi-${VERSION}.tgz`);
  packed = (await run("tar", ["-tzf", tarball], { cwd: repo })).stdout
    .trim()
    .split("\n")
    .map((path) => path.replace(/^package\//, ""))
    .sort();
  const [report] = JSON.parse(
    (await run("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: join(repo, "sdk/nodejs/bin") }))
      .stdout,
  );
  dryRun = report.files.map((file: { path: string }) => file.path).sort();
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

test("the tarball holds exactly what npm publish would send", () => {
  expect(packed).toEqual(dryRun);
});

test("make sdk-publish, the release's npm step, publishes that tarball as the public @hosting/pulumi (a dry run)", async () => {
  // Offline: npm 11's dry run asks the registry whether the version exists, which this test need not.
  const { stdout, stderr } = await run("make", ["--no-print-directory", "sdk-publish", "NPM_PUBLISH_FLAGS=--dry-run"], {
    cwd: repo,
    env: { ...process.env, npm_config_offline: "true", NODE_AUTH_TOKEN: "" },
  });
  const out = `${stdout}${stderr}`;
  expect(out).toContain(`npm publish ./dist/hosting-pulumi-${VERSION}.tgz --access public --dry-run`);
  expect(out).toMatch(/name: +@hosting\/pulumi\b/);
  expect(out).toMatch(new RegExp(`version: +${VERSION.replace(/\./g, "\\.")}\\b`));
  expect(out).toMatch(/with tag latest and public access \(dry-run\)/);
  expect(out).toContain(`+ @hosting/pulumi@${VERSION}`);
  for (const file of ["README.md", "LICENSE", "package.json", "index.js", "index.d.ts"])
    expect(out).toMatch(new RegExp(` ${file.replace(/\./g, "\\.")}\n`));
});

test("make sdk-publish without a tarball stops, saying to run make sdk-pack", async () => {
  const result = await run("make", ["--no-print-directory", "sdk-publish", "VERSION=0.0.0-none"], { cwd: repo }).catch(
    (err) => err,
  );
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("make sdk-publish needs dist/hosting-pulumi-0.0.0-none.tgz: run make sdk-pack first");
});

test("it has the README, the license, package.json, and the compiled code with its types for every resource and function", () => {
  expect(packed).toEqual(
    expect.arrayContaining([
      "README.md",
      "LICENSE",
      "package.json",
      "index.js",
      "index.d.ts",
      "config/index.js",
      "types/input.d.ts",
    ]),
  );
  const modules = [
    ...Object.keys(schema.resources).map((token) => token.split(":")[2].replace(/^./, (c) => c.toLowerCase())),
    ...Object.keys(schema.functions).map((token) => token.split(":")[2]),
    "provider",
  ];
  for (const module of modules) expect(packed).toEqual(expect.arrayContaining([`${module}.js`, `${module}.d.ts`]));
});

test("and nothing else: no TypeScript sources, tsconfig, lockfile or node_modules", () => {
  const stray = packed.filter(
    (path) => !["README.md", "LICENSE", "package.json"].includes(path) && !/^.+\.(js|d\.ts)(\.map)?$/.test(path),
  );
  expect(stray).toEqual([]);
});

test("its README and LICENSE are the generated ones, and its package.json says where the project lives", async () => {
  const tarball = join(repo, `dist/hosting-pulumi-${VERSION}.tgz`);
  const fileOf = async (path: string) =>
    (await run("tar", ["-xzOf", tarball, `package/${path}`], { maxBuffer: 16 << 20 })).stdout;
  expect(await fileOf("README.md")).toBe(readFileSync(join(ROOT, "sdk/nodejs/README.md"), "utf8"));
  expect(await fileOf("LICENSE")).toBe(readFileSync(join(ROOT, "LICENSE"), "utf8"));
  const pkg = JSON.parse(await fileOf("package.json"));
  expect(pkg).toMatchObject({
    name: "@hosting/pulumi",
    version: VERSION,
    license: "Apache-2.0",
    homepage: schema.homepage,
    repository: { type: "git", url: `git+${schema.repository}.git` },
  });
});
