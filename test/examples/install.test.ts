// The example programs as a newcomer runs them: in a copy of the repository with nothing built
// (no node_modules, no compiled SDK), `npm install` in an example's folder works by itself (its
// postinstall builds the SDK it links, `make sdk-build`), leaves nothing untracked behind (no
// lockfile), and the program then loads the SDK and compiles with the example's own TypeScript.
// This needs the npm registry (or npm's cache), as a user's `npm install` does.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { hostingPackage } from "../../provider/src/package";
import { ROOT, git, repositoryCopy } from "../package/helpers";

const run = promisify(execFile);
/** The example programs: every folder of examples/ that is a Pulumi project. */
const EXAMPLES = readdirSync(join(ROOT, "examples")).filter((name) =>
  existsSync(join(ROOT, "examples", name, "Pulumi.yaml")),
);
/** The package's resources, by the names the SDK exports them under. */
const TYPE_NAMES = hostingPackage.resources.map((resource) => resource.typeName);

let repo: string;
beforeAll(() => {
  repo = repositoryCopy("hosting-examples-install-");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

// One after the other, as a user would: the second finds the SDK built and does not build it again.
describe.each(EXAMPLES)("examples/%s", (name) => {
  const dir = () => join(repo, "examples", name);

  test("npm install works on a fresh copy of the repository and leaves nothing untracked", async () => {
    const { stdout, stderr } = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: dir(),
      env: { ...process.env, npm_config_loglevel: "warn" },
      maxBuffer: 16 << 20,
    }).catch((err) => {
      throw new Error(`npm install in examples/${name} failed: ${err.stdout}${err.stderr}`);
    });
    expect(`${stdout}${stderr}`).not.toMatch(/npm (ERR|error)/);
    expect(existsSync(join(repo, "sdk/nodejs/bin/index.js"))).toBe(true);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  test("the program loads every resource from the SDK it installed, and compiles with its own tsc", async () => {
    const types = `${JSON.stringify(TYPE_NAMES)}.map((n) => hosting[n]?.__pulumiType)`;
    const probe = `const hosting = require("@hosting/pulumi"); console.log(JSON.stringify(${types}))`;
    const { stdout } = await run(process.execPath, ["-e", probe], { cwd: dir() });
    expect(JSON.parse(stdout)).toEqual(TYPE_NAMES.map((typeName) => `hosting:index:${typeName}`));
    const tsc = await run(join(dir(), "node_modules/.bin/tsc"), ["--noEmit", "-p", "."], { cwd: dir() }).catch(
      (err) => err,
    );
    expect(`${tsc.stdout ?? ""}${tsc.stderr ?? ""}`).toBe("");
  });
});
