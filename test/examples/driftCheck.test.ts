// examples/drift-check: the script against a stand-in `pulumi` that replays what the real CLI
// prints and exits with (the real CLI cannot run here): `pulumi preview --json` documents recorded
// in test/examples/driftCheck/ (pkg/display PreviewDigest: a clean stack; a drifted one, with the
// provider's warning of when; one whose token the API refused; one cut short) and the CLI's own error
// lines, at the exit codes of Pulumi CLI v3.226.0 and later (7 for changes, 1 for other errors) and of
// older ones (255 for every error). And the GitHub Actions workflow, as a user's repository runs it.
// test/e2e/workflows.test.ts runs the script against the real CLI.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const DIR = resolve(__dirname, "../../examples/drift-check");
const SCRIPT = join(DIR, "drift-check.sh");
const RECORDED = join(__dirname, "driftCheck");
const pkg = require("../../package.json");
const yaml = require("js-yaml");

/** Per stack name: the recorded JSON document, the recorded stderr, and the exit code. */
const SCENARIOS: Record<string, [json: string, stderr: string, code: number]> = {
  clean: ["clean.json", "", 0],
  drifted: ["drift.json", "drift-v3.226.stderr", 7],
  "drifted-older-cli": ["drift.json", "drift-older.stderr", 255],
  "drifted-newer-wording-255": ["drift.json", "drift-v3.226.stderr", 255],
  unauthorized: ["unauthorized.json", "unauthorized.stderr", 1],
  "unauthorized-older-cli": ["unauthorized.json", "unauthorized.stderr", 255],
  gone: ["", "no-stack.stderr", 255],
  // A document cut short (a full disk, a killed CLI) at either exit status: nothing is known about drift.
  "cut-short-clean": ["truncated.json", "", 0],
  "cut-short-drifted": ["truncated.json", "drift-v3.226.stderr", 7],
};

let bin: string;
beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), "hosting-drift-"));
  const cases = Object.entries(SCENARIOS)
    .map(([stack, [json, stderr, code]]) => {
      const out = json ? `cat "${join(RECORDED, json)}"` : ":";
      const err = stderr ? `cat "${join(RECORDED, stderr)}" >&2` : ":";
      return `  ${stack}) ${out}; ${err}; exit ${code} ;;`;
    })
    .join("\n");
  writeFileSync(
    join(bin, "pulumi"),
    `#!/usr/bin/env bash
echo "$@" >> "${bin}/calls"
stack=""; for ((i = 1; i <= $#; i++)); do [ "\${!i}" = "--stack" ] && { j=$((i + 1)); stack=\${!j}; }; done
case "$stack" in
${cases}
  *) echo "unexpected stack $stack" >&2; exit 99 ;;
esac
`,
  );
  chmodSync(join(bin, "pulumi"), 0o755);
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

interface Ran {
  code: number;
  out: string;
  summary: string;
  outputs: string;
}

function driftCheck(args: string[], env: NodeJS.ProcessEnv = {}, script = SCRIPT): Promise<Ran> {
  const files = mkdtempSync(join(tmpdir(), "hosting-drift-gh-"));
  const [summary, outputs] = [join(files, "summary.md"), join(files, "outputs")];
  writeFileSync(summary, "");
  writeFileSync(outputs, "");
  return new Promise((done) => {
    execFile(
      "bash",
      [script, ...args],
      {
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          GITHUB_ACTIONS: "true",
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_OUTPUT: outputs,
          ...env,
        },
      },
      (err, stdout, stderr) => {
        const ran = {
          code: err ? Number((err as { code?: number }).code) : 0,
          out: stdout + stderr,
          summary: readFileSync(summary, "utf8"),
          outputs: readFileSync(outputs, "utf8"),
        };
        rmSync(files, { recursive: true, force: true });
        done(ran);
      },
    );
  });
}

test("runs pulumi preview --refresh --expect-no-changes --json per stack; exit 0 when nothing drifted", async () => {
  rmSync(join(bin, "calls"), { force: true });
  const { code, out, outputs, summary } = await driftCheck(["infra", "clean"]);
  expect(code).toBe(0);
  // The stack is no resource: db and web are the two checked.
  expect(out).toContain("no drift (2 resources checked)");
  expect(out).toContain("drift-check: clean: no drift");
  expect(readFileSync(join(bin, "calls"), "utf8").trim().split("\n")).toEqual([
    "preview --cwd infra --stack clean --refresh --expect-no-changes --json --non-interactive",
  ]);
  expect(outputs).toBe("result=clean\ndrifted=\nfailed=\n");
  expect(summary).toContain("## Drift check: clean");
  expect(summary).toContain("### clean: no drift");
  expect(out).not.toContain("::error");
});

describe("a drifted stack (exit 7, Pulumi CLI v3.226.0 and later)", () => {
  let ran: Ran;
  beforeAll(async () => {
    ran = await driftCheck(["infra", "clean", "drifted"]);
  });

  test("exit 1, every stack checked, a DRIFT line saying what to do", () => {
    expect(ran.code).toBe(1);
    expect(ran.out).toContain("drift-check: clean: no drift");
    expect(ran.out).toContain(
      "drift-check: drifted: DRIFT: the live resources differ from the program (above). Run `pulumi up` to put the program's values back, or change the program (or its ignoreChanges) to keep the live ones.",
    );
  });

  test("the advice keeps a change by changing the program, never by a refresh the next check would undo", () => {
    expect(ran.out).toContain(
      "  Run `pulumi up` to put back the values the program declares (and recreate what was deleted). To keep a change instead, change the program to match it, or give the resource `ignoreChanges` for that path: `pulumi refresh` alone does not, since the program still declares the old values.",
    );
    expect(ran.summary).toContain("give the resource `ignoreChanges` for that path");
    expect(ran.out).not.toMatch(/refresh` to accept/);
  });

  test("the log names each drifted resource, its property paths with the live and the program's values, and when", () => {
    const report = ran.out.slice(ran.out.indexOf("::: drift check of stack drifted"));
    expect(report).toContain(
      [
        "DRIFT: 2 resources changed outside Pulumi",
        "  hosting:index:Postgres db: create: gone from the platform",
        "  hosting:index:Container web: update",
        '    env.LOG_LEVEL: live "debug", the program "info"',
        "    replicas: live 3, the program 2",
        "    changed outside Pulumi at 2026-11-27 03:12 UTC (env.LOG_LEVEL, replicas); last deployed 2026-11-25 03:10 UTC, 2 days before",
      ].join("\n"),
    );
    // The CLI's own words stay in the log.
    expect(report).toContain("  pulumi: error: no changes were expected for preview but changes were proposed");
  });

  test("the job summary: a table of what drifted, with the paths and when, and no values", () => {
    expect(ran.summary).toContain("## Drift check: drift");
    expect(ran.summary).toContain("### drifted: drift");
    expect(ran.summary).toContain(
      "| `web` (hosting:index:Container) | update | `env.LOG_LEVEL`, `replicas` | changed outside Pulumi at 2026-11-27 03:12 UTC (env.LOG_LEVEL, replicas); last deployed 2026-11-25 03:10 UTC, 2 days before |",
    );
    expect(ran.summary).toContain("| `db` (hosting:index:Postgres) | create: gone from the platform |  |  |");
    expect(ran.summary).not.toContain('"debug"');
  });

  test("an annotation for the stack that drifted, and the step outputs", () => {
    expect(ran.out).toContain(
      "::error title=Drift in drifted::changed outside Pulumi: db (create: gone from the platform), web (env.LOG_LEVEL, replicas)",
    );
    expect(ran.outputs).toBe("result=drift\ndrifted=drifted\nfailed=\n");
  });
});

test.each([
  ["older CLIs: exit 255 and the message", "drifted-older-cli"],
  ["a CLI that words it newer but exits 255", "drifted-newer-wording-255"],
])("drift recognised from the message where the exit code cannot say: %s", async (_name, stack) => {
  const { code, outputs } = await driftCheck(["infra", stack]);
  expect(code).toBe(1);
  expect(outputs).toContain("result=drift\n");
});

describe("a check that could not run", () => {
  test.each([
    ["exit 1, v3.226.0 and later", "unauthorized"],
    ["exit 255, older CLIs", "unauthorized-older-cli"],
  ])("%s: exit 2, ERROR with the API's reason, never read as drift", async (_name, stack) => {
    const { code, out, summary, outputs } = await driftCheck(["infra", stack]);
    expect(code).toBe(2);
    expect(out).toContain(`drift-check: ${stack}: ERROR: the check could not run (pulumi exited with`);
    expect(out).toContain(
      "  web: UNAUTHORIZED: the token is not valid (HTTP 401, request req-7f3a): check the token: `pulumi config set hosting:token --secret <token>`",
    );
    expect(out).toContain(`::error title=Drift check could not run for ${stack}::pulumi preview exited with`);
    expect(summary).toContain(`### ${stack}: the check could not run`);
    expect(summary).toContain("web: UNAUTHORIZED: the token is not valid");
    expect(outputs).toBe(`result=error\ndrifted=\nfailed=${stack}\n`);
  });

  test("with no JSON at all (a stack that does not exist): the CLI's error", async () => {
    const { code, out } = await driftCheck(["infra", "gone"]);
    expect(code).toBe(2);
    expect(out).toContain("ERROR: the check could not run (pulumi exited with 255)\n  no stack named 'gone' found");
  });

  test.each([
    ["exit 0", "cut-short-clean", 0],
    ["exit 7", "cut-short-drifted", 7],
  ])(
    "a --json document that cannot be read, at %s: exit 2, never read as no drift or as drift",
    async (_name, stack, status) => {
      const { code, out, outputs } = await driftCheck(["infra", stack]);
      expect(code).toBe(2);
      expect(out).toContain(
        `drift-check: ${stack}: ERROR: the check could not run (pulumi exited with ${status}; see above)`,
      );
      expect(out).toMatch(
        new RegExp(
          `  pulumi preview exited with ${status}, but its --json output could not be read \\(.+\\): nothing is known about drift`,
        ),
      );
      expect(out).not.toMatch(/no drift \(|DRIFT: \d+ resource/);
      expect(outputs).toBe(`result=error\ndrifted=\nfailed=${stack}\n`);
    },
  );

  test("outranks drift, and both are reported", async () => {
    const { code, out, outputs } = await driftCheck(["infra", "drifted", "unauthorized"]);
    expect(code).toBe(2);
    expect(out).toMatch(/drift-check: drifted: DRIFT/);
    expect(out).toMatch(/drift-check: unauthorized: ERROR/);
    expect(outputs).toBe("result=error\ndrifted=drifted\nfailed=unauthorized\n");
  });
});

test("outside GitHub Actions: no annotations, no summary file needed", async () => {
  const { code, out } = await driftCheck(["infra", "drifted"], {
    GITHUB_ACTIONS: "",
    GITHUB_STEP_SUMMARY: "",
    GITHUB_OUTPUT: "",
  });
  expect(code).toBe(1);
  expect(out).not.toContain("::error");
});

test("usage errors exit 2", async () => {
  expect((await driftCheck(["only-a-dir"])).code).toBe(2);
});

describe("the GitHub Actions workflow, for a user's repository", () => {
  const workflow = yaml.load(readFileSync(join(DIR, "github-actions.yml"), "utf8"));
  const job = workflow.jobs["drift-check"];
  const steps: Array<{ id?: string; name?: string; if?: string; run?: string; uses?: string; with?: any; env?: any }> =
    job.steps;
  const check = steps.find((step) => step.id === "check")!;

  test("runs nightly and on demand, with the program's folder and its stacks as inputs", () => {
    expect(workflow.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(Object.keys(workflow.on.workflow_dispatch.inputs).sort()).toEqual(["program-dir", "stacks"]);
    // A scheduled run has no inputs: the defaults are the same in both places.
    for (const [input, variable] of [
      ["program-dir", "PROGRAM_DIR"],
      ["stacks", "STACKS"],
    ]) {
      const fallback = workflow.on.workflow_dispatch.inputs[input].default;
      expect(workflow.env[variable]).toBe(`\${{ inputs.${input} || '${fallback}' }}`);
    }
  });

  test("pins the CLI, and installs the plugin from its release at the pinned version: nothing from this repository", () => {
    // The CLI this project pins everywhere (make pulumi-cli's, the release workflow's).
    expect(workflow.env.PULUMI_VERSION).toBe(
      /^PULUMI_VERSION=(\S+)$/m.exec(readFileSync(resolve(__dirname, "../../scripts/pulumi-cli.sh"), "utf8"))?.[1],
    );
    expect(steps.find((step) => step.uses?.startsWith("pulumi/actions@"))?.with).toEqual({
      "pulumi-version": `\${{ env.PULUMI_VERSION }}`,
    });
    expect(workflow.env.HOSTING_PLUGIN_VERSION).toBe(pkg.version);
    const runs = steps.map((step) => step.run ?? "").join("\n");
    const install = steps.find((step) => step.run?.startsWith("pulumi plugin install"))!;
    expect(install.run).toBe(
      `pulumi plugin install resource hosting "$HOSTING_PLUGIN_VERSION" --server ${pkg.pulumi.pluginDownloadURL}`,
    );
    // Anonymous requests from a shared runner meet GitHub's rate limit (403).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template literal
    expect(install.env).toEqual({ GITHUB_TOKEN: "${{ github.token }}" });
    for (const ours of ["make ", "sdk/nodejs", "examples/"]) expect(runs).not.toContain(ours);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template literal
    expect(job.env.HOSTING_TOKEN).toBe("${{ secrets.HOSTING_TOKEN }}");
  });

  test("values reach scripts through env, never an expression spliced into a run script", () => {
    expect(steps.filter((step) => step.run?.includes("${{")).map((step) => step.name)).toEqual([]);
    const drift = steps.find((step) => step.name === "Drift found")!;
    expect(drift.env).toEqual({ DRIFTED: `\${{ steps.check.outputs.drifted }}` });
    expect(drift.run).toContain("in $DRIFTED:");
  });

  test("drift and a check that could not run fail in steps of their own, each running whatever the other did", () => {
    expect(check).toMatchObject({ "continue-on-error": true });
    const drift = steps.find((step) => step.name === "Drift found")!;
    const error = steps.find((step) => step.name === "The check could not run")!;
    const expression = (inner: string) => `\${{ ${inner} }}`;
    expect(drift.if).toBe(expression("!cancelled() && steps.check.outputs.drifted != ''"));
    expect(error.if).toBe(
      expression("!cancelled() && steps.check.outputs.result != 'drift' && steps.check.outputs.result != 'clean'"),
    );
    expect(drift.run).toMatch(/exit 1\s*$/);
    expect(error.run).toMatch(/exit 2\s*$/);
  });

  test("its check step, run as the runner runs it in a user's repository, checks each stack and sets the outputs", async () => {
    const repo = mkdtempSync(join(tmpdir(), "hosting-drift-repo-"));
    try {
      mkdirSync(join(repo, ".github/scripts"), { recursive: true });
      const script = join(repo, ".github/scripts/drift-check.sh");
      writeFileSync(script, readFileSync(SCRIPT));
      chmodSync(script, 0o755);
      const step = join(repo, "step.sh");
      writeFileSync(step, `cd "${repo}"\n${check.run}\n`);
      const ran = await driftCheck([], { PROGRAM_DIR: "infra", STACKS: "clean drifted" }, step);
      expect(ran.code).toBe(1);
      expect(ran.outputs).toBe("result=drift\ndrifted=drifted\nfailed=\n");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
