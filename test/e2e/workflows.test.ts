// The workflows users copy, as shipped, under the real CLI: examples/drift-check/drift-check.sh and
// examples/pr-preview/pr-preview.sh run against YAML programs (the scripts are program-agnostic, and
// the CLI runs a YAML program from its folder), with the provider's token in HOSTING_TOKEN as the
// GitHub workflows pass it. Each test reads the simulator's records beside the scripts' output.
// GitHub's API cannot be reached here: `gh` is a stand-in that answers with the pull requests
// recorded in test/examples/prPreview/ (test/examples/prPreview.test.ts tests the rest of it).
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALICE } from "../../simulator/src";
import { type CliResult, PROJECT_ID, ROOT, useE2E } from "./harness";

const e2e = useE2E();

const DRIFT_CHECK = join(ROOT, "examples/drift-check/drift-check.sh");
const PR_PREVIEW_DIR = join(ROOT, "examples/pr-preview");
const RECORDED_PULLS = join(ROOT, "test/examples/prPreview");
const IMAGE = "registry.example.com/shop/web:1.4.2";

/** A YAML program as a team's would be: an app linked to its cache, LOG_LEVEL from the program. */
function shop(logLevel: string, options: Record<string, unknown> = {}) {
  return {
    config: { logLevel: { type: "string", default: logLevel } },
    resources: {
      cache: { type: "hosting:Redis" },
      web: {
        type: "hosting:Container",
        properties: { image: IMAGE, public: true, env: { LOG_LEVEL: "${logLevel}" }, links: ["${cache.id}"] },
        ...(Object.keys(options).length ? { options } : {}),
      },
    },
    outputs: { url: "${web.publicUrl}" },
  };
}

/** Runs a shipped script with bash, as a workflow's step does: the CLI and the token in its environment. */
function script(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<CliResult>((done) =>
    execFile(
      "bash",
      [file, ...args],
      {
        cwd: options.cwd ?? e2e.work,
        env: { ...process.env, ...e2e.env, HOSTING_TOKEN: ALICE.token, ...options.env },
        maxBuffer: 64 << 20,
      },
      (err, stdout, stderr) => done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** `pulumi <args>` in `dir` with the token in the environment, failing the test with the CLI's words when it fails. */
async function pulumi(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const ran = await e2e.cli(args, { cwd: dir, env: { HOSTING_TOKEN: ALICE.token, ...env } });
  if (ran.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${ran.code}: ${ran.stdout}${ran.stderr}`);
  return ran;
}

/** A stack of the YAML project in `dir`, configured for the simulator; the token comes from HOSTING_TOKEN. */
async function stackOf(dir: string, stack: string) {
  await pulumi(dir, ["stack", "init", stack]);
  await pulumi(dir, ["config", "set", "--stack", stack, "hosting:baseUrl", e2e.sim.url]);
  await pulumi(dir, ["config", "set", "--stack", stack, "hosting:projectId", PROJECT_ID]);
}

const apps = () => e2e.records("services").filter((s) => s.type === "container");
const appNamed = (pattern: RegExp) => apps().find((s) => pattern.test(s.name));
const rewrite = (dir: string, program: Record<string, unknown>, name: string) =>
  writeFileSync(join(dir, "Pulumi.yaml"), JSON.stringify({ name, runtime: "yaml", ...program }, null, 2));

describe("examples/drift-check/drift-check.sh", () => {
  let dir: string;
  const check = (env: Record<string, string> = {}) => script(DRIFT_CHECK, [dir, "production"], { env });

  beforeAll(async () => {
    dir = e2e.yamlProject("inventory", shop("info"));
    await stackOf(dir, "production");
    await pulumi(dir, ["up", "--yes", "--stack", "production"]);
  });
  afterAll(async () => {
    await pulumi(dir, ["destroy", "--yes", "--stack", "production"]);
    expect(e2e.records("services")).toEqual([]);
  });

  test("no drift: exit 0, counting the app and its cache (not the stack, not the provider)", async () => {
    const ran = await check();
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toContain("no drift (2 resources checked)");
    expect(ran.stdout).toContain("drift-check: production: no drift");
    expect(
      e2e
        .records("services")
        .map((s) => s.type)
        .sort(),
    ).toEqual(["container", "redis"]);
  });

  test("drift made outside Pulumi: the CLI exits 7, the script 1, naming the resource, the path and when", async () => {
    const app = apps()[0];
    e2e.sim.control.mutate("services", app.id, { env: { ...app.env, LOG_LEVEL: "debug" } });
    const cli = await e2e.cli(["preview", "--refresh", "--expect-no-changes", "--json", "--stack", "production"], {
      cwd: dir,
      env: { HOSTING_TOKEN: ALICE.token },
    });
    expect(cli.code).toBe(7);
    const ran = await check();
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(
      [
        "DRIFT: 1 resource changed outside Pulumi",
        "  hosting:index:Container web: update",
        '    env.LOG_LEVEL: live "debug", the program "info"',
      ].join("\n"),
    );
    expect(ran.stdout).toMatch(
      /^ {4}changed outside Pulumi at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(env\.LOG_LEVEL\); last/m,
    );
    expect(ran.stdout).toContain("drift-check: production: DRIFT: the live resources differ from the program");
    // A check writes nothing: the platform keeps the change.
    expect(apps()[0].env.LOG_LEVEL).toBe("debug");
  });

  test("the advice is right: a program changed to the live value, or ignoreChanges on the path, checks clean", async () => {
    rewrite(dir, shop("debug"), "inventory");
    expect((await check()).code).toBe(0);
    rewrite(dir, shop("info", { ignoreChanges: ["env.LOG_LEVEL"] }), "inventory");
    const ignored = await check();
    expect([ignored.code, ignored.stdout]).toEqual([0, expect.stringContaining("no drift (2 resources checked)")]);
    // While a refresh alone leaves the program declaring the old value: the next check is red again.
    rewrite(dir, shop("info"), "inventory");
    await pulumi(dir, ["refresh", "--yes", "--stack", "production"]);
    expect((await check()).code).toBe(1);
    expect(apps()[0].env.LOG_LEVEL).toBe("debug");
  });

  test("a failure that is not drift (a token the API refuses): exit 2, the API's reason, never drift", async () => {
    const ran = await check({ HOSTING_TOKEN: "expired-token" });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toMatch(/ERROR: the check could not run \(pulumi exited with 1\)\n {2}\S+: .*UNAUTHORIZED/);
    expect(ran.stdout).toContain("drift-check: production: ERROR: the check could not run");
    expect(ran.stdout).not.toContain("DRIFT");
    expect(apps()[0].env.LOG_LEVEL).toBe("debug");
  });
});

describe("examples/pr-preview/pr-preview.sh, run from examples/pr-preview/", () => {
  let dir: string;
  let files: string;
  let gh: string;
  const env = () => ({
    PATH: `${gh}:${e2e.env.PATH}`,
    COMMENT_FILE: join(files, "comment.md"),
    GITHUB_STEP_SUMMARY: join(files, "summary.md"),
    GITHUB_REPOSITORY: "acme/shop",
  });
  const prPreview = (args: string[], extra: Record<string, string> = {}) =>
    script("./pr-preview.sh", args, { cwd: PR_PREVIEW_DIR, env: { ...env(), ...extra } });
  const comment = () => readFileSync(join(files, "comment.md"), "utf8");
  const stacks = async () => JSON.parse((await pulumi(dir, ["stack", "ls", "--json"])).stdout).map((s: any) => s.name);

  beforeAll(async () => {
    files = mkdtempSync(join(e2e.work, "pr-preview-"));
    writeFileSync(join(files, "summary.md"), "");
    // gh: GitHub's answers for pull requests, as recorded; a number it has none for is GitHub's 404.
    gh = join(files, "bin");
    mkdirSync(gh);
    writeFileSync(
      join(gh, "gh"),
      `#!/usr/bin/env bash
n=\${2##*/}
if [ "$1 \${2%/*}" = "api repos/acme/shop/pulls" ] && [ -e "${RECORDED_PULLS}/pull-$n.json" ]; then cat "${RECORDED_PULLS}/pull-$n.json"; exit 0; fi
cat "${RECORDED_PULLS}/pull-not-found.json"; echo "gh: Not Found (HTTP 404)" >&2; exit 1
`,
    );
    chmodSync(join(gh, "gh"), 0o755);
    dir = e2e.yamlProject("shop", shop("info"));
    await stackOf(dir, "production");
    await pulumi(dir, ["up", "--yes", "--stack", "production"]);
    // What every pull request's stack starts from (PR_CONFIG_FROM): configuration, never deployed.
    await stackOf(dir, "pr-template");
  });
  afterAll(async () => {
    await pulumi(dir, ["destroy", "--yes", "--stack", "production"]);
    expect(e2e.records("services")).toEqual([]);
    rmSync(files, { recursive: true, force: true });
  });

  test("preview of the shared stack with the pull request's change: the comment says what changes; nothing changes", async () => {
    rewrite(dir, shop("debug"), "shop");
    const ran = await prPreview(["preview", dir, "production"]);
    expect(ran.code).toBe(0);
    const lines = comment().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "<!-- pr-preview:preview-production -->",
      "#### `pulumi preview` of `production`: ~ 1 to update, 2 unchanged",
    ]);
    expect(comment()).toMatch(/~ env\s*: \{\n\s*~ LOG_LEVEL: "info" => "debug"/);
    expect(apps().map((app) => app.env.LOG_LEVEL)).toEqual(["info"]);
  });

  test("preview --diff --json names the key that changed: env.LOG_LEVEL", async () => {
    const ran = await pulumi(dir, ["preview", "--diff", "--json", "--stack", "production"]);
    const steps = JSON.parse(ran.stdout).steps.filter((step: any) => step.op === "update");
    expect(steps.map((step: any) => [step.urn.split("::").pop(), step.detailedDiff])).toEqual([
      ["web", { "env.LOG_LEVEL": { kind: "update", inputDiff: false } }],
    ]);
  });

  test("up: a stack of its own, pr-12, autonamed name-stack-random beside production's, its address commented", async () => {
    const production = apps().map((app) => app.name);
    const ran = await prPreview(["up", dir, "pr-template", "12"]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    const web = appNamed(/^web-pr-12-[0-9a-f]{6}$/);
    expect(web).toMatchObject({ image: IMAGE, env: expect.objectContaining({ LOG_LEVEL: "debug" }) });
    expect(e2e.records("services").filter((s) => /^cache-pr-12-[0-9a-f]{6}$/.test(s.name))).toHaveLength(1);
    // Production's app is untouched, under its own name.
    expect(
      apps()
        .filter((app) => production.includes(app.name))
        .map((app) => app.env.LOG_LEVEL),
    ).toEqual(["info"]);
    expect(comment().split("\n").slice(0, 4)).toEqual([
      "<!-- pr-preview:stack-pr-12 -->",
      `#### This pull request runs in stack \`pr-12\`: ${web.public_url}`,
      "",
      "+ 3 created. It is destroyed, and the stack removed, when the pull request closes.",
    ]);
    // The stack file holds the stack-file form of the autonaming configuration.
    expect(readFileSync(join(dir, "Pulumi.pr-12.yaml"), "utf8")).toMatch(
      /^ {2}pulumi:autonaming:\n {4}pattern: \$\{name\}-\$\{stack\}-\$\{hex\(6\)\}$/m,
    );
  });

  test("preview of the pull request's own stack: nothing to change, and nothing changed", async () => {
    const before = e2e.records("services");
    const ran = await prPreview(["preview", dir, "pr-12"]);
    expect(ran.code).toBe(0);
    expect(comment().split("\n")[1]).toBe("#### `pulumi preview` of `pr-12`: 3 unchanged");
    expect(e2e.records("services")).toEqual(before);
  });

  test("destroy: the stack's resources deleted and the stack removed; production's stay", async () => {
    const ran = await prPreview(["destroy", dir, "12"]);
    expect(ran.code).toBe(0);
    expect(comment()).toContain("#### Stack `pr-12` is destroyed and removed: - 3 deleted");
    expect(e2e.records("services").filter((s) => s.name.includes("-pr-12-"))).toEqual([]);
    expect(apps()).toHaveLength(1);
    expect(await stacks()).not.toContain("pr-12");
  });

  test("destroy of a pull request that never had a stack: nothing to destroy (the CLI's exit 6)", async () => {
    const ran = await prPreview(["destroy", dir, "77"]);
    expect(ran.code).toBe(0);
    expect(comment()).toBe("<!-- pr-preview:stack-pr-77 -->\n#### Stack `pr-77` does not exist: nothing to destroy\n");
  });

  test("destroy when the backend cannot be read: it fails, destroys nothing, and the stack's resources keep running", async () => {
    expect((await prPreview(["up", dir, "pr-template", "16"])).code).toBe(0);
    const running = e2e.records("services").filter((s) => s.name.includes("-pr-16-"));
    expect(running).toHaveLength(2);
    const ran = await prPreview(["destroy", dir, "16"], { PULUMI_BACKEND_URL: `file://${join(files, "gone")}` });
    expect(ran.code).toBe(1);
    expect(comment()).toContain("#### Could not tell whether stack `pr-16` exists: nothing was destroyed (exit 1)");
    expect(comment()).toContain("unable to open state directory");
    expect(e2e.records("services").filter((s) => s.name.includes("-pr-16-"))).toEqual(running);
  });

  test("sweep: the stack of a closed pull request removed; an open one's kept; one GitHub cannot answer for kept, and the sweep fails", async () => {
    await pulumi(dir, ["stack", "init", "pr-14"]);
    await pulumi(dir, ["stack", "init", "pr-31"]);
    const ran = await prPreview(["sweep", dir]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain("pr-preview: sweep: stack pr-14 kept: pull request #14 is open");
    expect(ran.stderr).toContain("stack pr-31 kept: the state of pull request #31 of acme/shop could not be read");
    expect(readFileSync(join(files, "summary.md"), "utf8")).toContain(
      "#### Stacks of closed pull requests: 1 removed, 1 kept (open), 1 failed",
    );
    expect(e2e.records("services").filter((s) => s.name.includes("-pr-16-"))).toEqual([]);
    expect((await stacks()).sort()).toEqual(["pr-14", "pr-31", "pr-template", "production"]);
    expect(apps()).toHaveLength(1);
  });
});
