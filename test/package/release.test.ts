// The release machinery that can run here: every workflow passes actionlint (make lint-workflows), which
// knows the runner labels GitHub still offers; the release workflow builds every platform on a runner that
// exists, with Node.js 24, and publishes every SDK with short-lived credentials where the registry offers
// them (trusted publishing: OIDC) and the secrets docs/releasing.md names where it does not; and a release
// tag must name package.json's version.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, VERSION } from "./helpers";

const run = (file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  promisify(execFile)(file, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err) => ({ code: Number(err.code ?? 1), out: `${err.stdout ?? ""}${err.stderr ?? ""}` }),
  );
const WORKFLOW = join(ROOT, ".github/workflows/release.yml");
const workflow = () => require("js-yaml").load(readFileSync(WORKFLOW, "utf8"));
const ACTIONLINT_VERSION = /^require github\.com\/rhysd\/actionlint (v\S+)$/m.exec(
  readFileSync(join(ROOT, "tools/actionlint/go.mod"), "utf8"),
)![1];
/** Where scripts/actionlint.sh keeps the binary it built. */
const actionlint = () =>
  join(
    process.env.XDG_CACHE_HOME ?? join(require("node:os").homedir(), ".cache"),
    "pulumi-hosting",
    `actionlint-${ACTIONLINT_VERSION}`,
    "actionlint",
  );

test("make lint-workflows passes every workflow with actionlint", async () => {
  const result = await run("make", ["--no-print-directory", "lint-workflows"]);
  expect(result).toEqual({ code: 0, out: expect.stringMatching(/^actionlint v[\d.]+: \d+ workflows pass$/m) });
});

test("actionlint does check: a retired runner, a misspelt key and a job that needs a missing one fail", async () => {
  await run("make", ["--no-print-directory", "lint-workflows"]);
  const dir = mkdtempSync(join(tmpdir(), "hosting-workflow-"));
  try {
    const broken = join(dir, "release.yml");
    writeFileSync(
      broken,
      readFileSync(WORKFLOW, "utf8")
        .replace("runner: macos-15-intel", "runner: macos-13")
        .replace("if-no-files-found: error", "if-no-file-found: error")
        .replace("needs: [plugin, sdks]", "needs: [plugin, sdk]"),
    );
    const result = await run(actionlint(), [broken]);
    expect(result.code).not.toBe(0);
    expect(result.out).toContain('label "macos-13" is unknown');
    expect(result.out).toContain('input "if-no-file-found" is not defined');
    expect(result.out).toContain('job "release" needs job "sdk" which does not exist');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the plugin is built for every platform the engine asks for, on runners GitHub offers, with Node.js 24", () => {
  const plugin = workflow().jobs.plugin;
  expect(Object.fromEntries(plugin.strategy.matrix.include.map((m: any) => [m.platform, m.runner]))).toEqual({
    "linux-amd64": "ubuntu-latest",
    "linux-arm64": "ubuntu-24.04-arm",
    "darwin-amd64": "macos-15-intel",
    "darwin-arm64": "macos-15",
    "windows-amd64": "windows-latest",
  });
  expect(plugin.steps.find((step: any) => step.uses?.startsWith("actions/setup-node@")).with["node-version"]).toBe(24);
  const runs = plugin.steps.map((step: any) => step.run).filter(Boolean);
  expect(runs).toEqual(expect.arrayContaining(["make package", "make package-test"]));
});

test("every SDK is checked fresh and built by make release-dry-run, then published after the GitHub release", () => {
  const { jobs } = workflow();
  expect(jobs.sdks.steps.map((step: any) => step.run).filter(Boolean)).toEqual(
    expect.arrayContaining(["make sdk && git diff --exit-code -- sdk", "make release-dry-run"]),
  );
  expect(jobs.release.needs).toEqual(["plugin", "sdks"]);
  for (const publish of ["npm", "pypi", "go", "maven", "nuget"]) expect(jobs[publish].needs).toBe("release");
});

test("npm and PyPI by trusted publishing (OIDC): id-token: write, and no token anywhere", () => {
  const { jobs } = workflow();
  for (const job of [jobs.npm, jobs.pypi]) expect(job.permissions).toEqual({ contents: "read", "id-token": "write" });
  expect(jobs.npm.steps.find((step: any) => step.run?.includes("make sdk-publish")).run).toContain("--provenance");
  expect(jobs.pypi.steps.find((step: any) => step.uses?.startsWith("pypa/gh-action-pypi-publish@"))).toBeDefined();
  const text = readFileSync(WORKFLOW, "utf8");
  expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|PYPI_(API_)?TOKEN|password: \$\{\{ secrets\.PYPI/);
});

test("the Go SDK as the module tag sdk/v<version>; Maven Central and NuGet with the secrets docs/releasing.md names", () => {
  const { jobs } = workflow();
  expect(jobs.go.permissions).toEqual({ contents: "write" });
  expect(jobs.go.steps.map((step: any) => step.run).join("\n")).toContain('tag="sdk/$GITHUB_REF_NAME"');
  const secrets = [...readFileSync(WORKFLOW, "utf8").matchAll(/secrets\.(\w+)/g)].map((m) => m[1]).sort();
  expect([...new Set(secrets)]).toEqual([
    "MAVEN_CENTRAL_PASSWORD",
    "MAVEN_CENTRAL_USERNAME",
    "MAVEN_SIGNING_KEY",
    "MAVEN_SIGNING_PASSWORD",
    "NUGET_API_KEY",
  ]);
  const releasing = readFileSync(join(ROOT, "docs/releasing.md"), "utf8");
  for (const secret of secrets) expect(releasing).toContain(`\`${secret}\``);
});

test("make release-check accepts the tag of package.json's version and refuses another", async () => {
  expect(await run("make", ["--no-print-directory", "release-check", `TAG=v${VERSION}`, "REPOSITORY="])).toEqual({
    code: 0,
    out: `release tag v${VERSION} matches package.json's version ${VERSION}\n`,
  });
  const wrong = await run("make", ["--no-print-directory", "release-check", "TAG=v9.9.9"]);
  expect(wrong.code).not.toBe(0);
  expect(wrong.out).toContain(`release tag 'v9.9.9' does not match package.json's version ${VERSION}`);
});

test("make release-check refuses to release where pluginDownloadURL does not send the engine", async () => {
  const url: string = require("../../package.json").pulumi.pluginDownloadURL;
  const home = url.replace("github://api.github.com/", "");
  const check = (repository: string) =>
    run("make", ["--no-print-directory", "release-check", `TAG=v${VERSION}`, `REPOSITORY=${repository}`]);
  expect((await check(home)).code).toBe(0);
  const fork = await check("someone/fork");
  expect(fork.code).not.toBe(0);
  expect(fork.out).toContain(
    `package.json's pluginDownloadURL (${url}) sends the engine to the releases of ${home}, but this release is made in someone/fork`,
  );
});
