// The release machinery that can run here: the workflow passes a linter of GitHub's workflow
// schema (action-validator, which runs offline), and a release tag must name package.json's version.
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { ROOT, VERSION, repositoryCopy } from "./helpers";

const run = (file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  promisify(execFile)(file, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err) => ({ code: Number(err.code ?? 1), out: `${err.stdout ?? ""}${err.stderr ?? ""}` }),
  );
const VALIDATOR = join(ROOT, "node_modules/.bin/action-validator");
const WORKFLOW = join(ROOT, ".github/workflows/release.yml");

test("make lint-workflows passes the release workflow", async () => {
  const result = await run("make", ["--no-print-directory", "lint-workflows"]);
  expect(result).toEqual({ code: 0, out: expect.any(String) });
});

test("the linter does check: a misspelt key and a job that needs a missing one fail", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hosting-workflow-"));
  try {
    const broken = join(dir, "release.yml");
    writeFileSync(
      broken,
      readFileSync(WORKFLOW, "utf8")
        .replace("if-no-files-found: error", "if-no-file-found: error")
        .replace("needs: [plugin, sdk, sdk-languages]", "needs: [plugin, sdks, sdk-languages]"),
    );
    const result = await run(VALIDATOR, [broken]);
    expect(result.code).not.toBe(0);
    expect(result.out).toContain("unresolved job sdks");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the workflow builds every platform the engine asks for, and publishes what make writes", () => {
  const text = readFileSync(WORKFLOW, "utf8");
  for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"])
    expect(text).toContain(`platform: ${platform}`);
  for (const target of [
    "make release-check",
    "make package",
    "make package-test",
    "make sdk-pack",
    "make sdk-compare",
    "make sdk-languages",
  ])
    expect(text).toContain(target);
  expect(text).toMatch(/tags: \["v\*"\]/);
  expect(text).toContain("needs: [plugin, sdk, sdk-languages]");
});

test("the SDK goes to npm only after the GitHub release holds the plugin, with the NPM_TOKEN secret", () => {
  const workflow = require("js-yaml").load(readFileSync(WORKFLOW, "utf8"));
  const npm = workflow.jobs.npm;
  expect(npm.needs).toBe("release");
  expect(npm.steps.find((step: any) => step.uses?.startsWith("actions/download-artifact@"))?.with).toEqual({
    name: "sdk-nodejs",
    path: "dist",
  });
  const publish = npm.steps.find((step: any) => step.run?.includes("make sdk-publish"));
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template literal
  expect(publish.env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
  expect(publish.run).toContain("::error title=NPM_TOKEN is not set::");
});

test("the workflow installs the Pulumi CLI at the version make pulumi-cli pins", () => {
  const text = readFileSync(WORKFLOW, "utf8");
  const sed = /sh -s -- --version "\$\(sed -n '([^']+)' scripts\/pulumi-cli\.sh\)"/.exec(text)?.[1];
  expect(sed).toBeDefined();
  const version = execFileSync("sed", ["-n", sed!, "scripts/pulumi-cli.sh"], { cwd: ROOT, encoding: "utf8" }).trim();
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
});

describe("make sdk-languages", () => {
  let repo: string;
  let bin: string;
  beforeAll(() => {
    repo = repositoryCopy("hosting-sdk-languages-");
    // A stand-in for the Pulumi CLI (which cannot be installed here): records its arguments and
    // writes a file where `pulumi package gen-sdk --language L --out D` writes the SDK, D/L.
    bin = mkdtempSync(join(tmpdir(), "hosting-fake-pulumi-"));
    writeFileSync(
      join(bin, "pulumi"),
      `#!/usr/bin/env bash
echo "$@" >> "${bin}/calls"
while [ $# -gt 0 ]; do case "$1" in --language) language=$2; shift ;; --out) out=$2; shift ;; esac; shift; done
mkdir -p "$out/$language" && echo "the $language SDK" > "$out/$language/README.md"
`,
    );
    chmodSync(join(bin, "pulumi"), 0o755);
  });
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  });

  test(
    "generates the Python, Go and .NET SDKs from schema.json with pulumi package gen-sdk, " + "one archive each",
    async () => {
      const result = await run("make", ["--no-print-directory", "sdk-languages"], {
        cwd: repo,
        env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
      });
      expect(result.code).toBe(0);
      expect(readFileSync(join(bin, "calls"), "utf8").trim().split("\n")).toEqual(
        ["python", "go", "dotnet"].map(
          (language) => `package gen-sdk schema.json --language ${language} --out dist/sdk`,
        ),
      );
      for (const language of ["python", "go", "dotnet"]) {
        const archive = join(repo, `dist/hosting-sdk-${language}-${VERSION}.tar.gz`);
        expect(execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).split("\n").filter(Boolean).sort()).toEqual(
          [`${language}/`, `${language}/README.md`],
        );
      }
    },
  );

  const pulumiOnPath = (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, "pulumi")));
  if (pulumiOnPath) console.log("make sdk-languages without a Pulumi CLI: skipped, because a pulumi is on PATH");
  (pulumiOnPath ? test.skip : test)("without a Pulumi CLI it stops at once, saying what to install", async () => {
    const path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => dir && !existsSync(join(dir, "pulumi")))
      .join(delimiter);
    const result = await run("make", ["--no-print-directory", "sdk-languages"], {
      cwd: repo,
      env: { ...process.env, PATH: path },
    });
    expect(result.code).not.toBe(0);
    expect(result.out).toContain(
      "make sdk-languages needs the Pulumi CLI on PATH: install it (https://www.pulumi.com/docs/install/)",
    );
  });
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
