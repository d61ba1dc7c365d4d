// examples/pr-preview: the script against stand-ins for `pulumi` and `gh` that replay what the real
// CLIs print (recorded in test/examples/prPreview/: a preview with changes, one that fails, an up, a
// destroy, a pull request's comments in two pages) and record what they were asked (the real CLIs
// cannot run here); and the GitHub Actions workflow as a user's repository runs it: its steps'
// commands, a fork's pull request skipped with a summary and no secret, a stack per pull request
// behind a repository variable.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const DIR = resolve(__dirname, "../../examples/pr-preview");
const SCRIPT = join(DIR, "pr-preview.sh");
const RECORDED = join(__dirname, "prPreview");
const pkg = require("../../package.json");
const yaml = require("js-yaml");

let bin: string;
const calls = (tool: string) =>
  existsSync(join(bin, `${tool}.calls`))
    ? readFileSync(join(bin, `${tool}.calls`), "utf8")
        .trim()
        .split("\n")
    : [];

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), "hosting-pr-preview-"));
  mkdirSync(join(bin, "stacks"));
  // pulumi: stacks are files in $bin/stacks; every command is recorded, and answers as recorded.
  writeFileSync(
    join(bin, "pulumi"),
    `#!/usr/bin/env bash
echo "$*" >> "${bin}/pulumi.calls"
args=("$@"); stack=""; create=""
for ((i = 0; i < $#; i++)); do
  case "\${args[i]}" in --stack) stack=\${args[i+1]} ;; --create) create=1 ;; esac
done
case "$1 $2" in
  "stack select")
    if [ -e "${bin}/stacks/$3" ]; then exit 0; fi
    if [ -n "$create" ]; then touch "${bin}/stacks/$3"; echo "Created stack '$3'"; exit 0; fi
    echo "error: no stack named '$3' found" >&2; exit 255 ;;
  "stack rm") rm "${bin}/stacks/$3"; echo "Stack '$3' has been removed!"; exit 0 ;;
  "stack output") echo "https://web-$stack.apps.example.com"; exit 0 ;;
  "config cp"|"config set") exit 0 ;;
esac
case "$1 $stack" in
  "preview production") cat "${RECORDED}/preview.txt"; exit 0 ;;
  "preview broken") cat "${RECORDED}/preview-failed.txt"; exit 255 ;;
  "up pr-12") cat "${RECORDED}/up.txt"; exit 0 ;;
  "up pr-13") echo "error: hosting:index:Container web: QUOTA_EXCEEDED: the project may run 5 apps (HTTP 402, request req-q1)"; exit 255 ;;
  "destroy pr-12") cat "${RECORDED}/destroy.txt"; exit 0 ;;
esac
echo "unexpected: $*" >&2; exit 99
`,
  );
  // gh: the pull request's comments in two pages, as --paginate writes them; a write keeps its body.
  writeFileSync(
    join(bin, "gh"),
    `#!/usr/bin/env bash
echo "$*" >> "${bin}/gh.calls"
if [ "$2" = "--paginate" ]; then cat "${RECORDED}/comments-page-1.json" "${RECORDED}/comments-page-2.json"; exit 0; fi
for arg in "$@"; do case "$arg" in body=@*) cp "\${arg#body=@}" "${bin}/posted.md" ;; esac; done
echo '{"id": 1}'
`,
  );
  for (const tool of ["pulumi", "gh"]) chmodSync(join(bin, tool), 0o755);
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

interface Ran {
  code: number;
  out: string;
  comment: string;
  summary: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}, script = SCRIPT): Promise<Ran> {
  for (const tool of ["pulumi", "gh"]) rmSync(join(bin, `${tool}.calls`), { force: true });
  const work = mkdtempSync(join(tmpdir(), "hosting-pr-preview-run-"));
  const files = { comment: join(work, "comment.md"), summary: join(work, "summary.md") };
  writeFileSync(files.summary, "");
  return new Promise((done) => {
    execFile(
      "bash",
      [script, ...args],
      {
        cwd: work,
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          COMMENT_FILE: files.comment,
          GITHUB_STEP_SUMMARY: files.summary,
          GITHUB_REPOSITORY: "acme/shop",
          GITHUB_SHA: "3e1f0c9",
          PR_NUMBER: "12",
          ...env,
        },
      },
      (err, stdout, stderr) => {
        const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
        const ran = {
          code: err ? Number((err as { code?: number }).code) : 0,
          out: stdout + stderr,
          comment: read(files.comment),
          summary: read(files.summary),
        };
        rmSync(work, { recursive: true, force: true });
        done(ran);
      },
    );
  });
}

describe("preview: pulumi preview --diff of the shared stack, as a comment", () => {
  test("with changes: the summary line, the diff in a fold, the commit; the same in the job summary", async () => {
    const ran = await run(["preview", "infra", "production"]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual(["preview --cwd infra --stack production --diff --non-interactive"]);
    const lines = ran.comment.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "<!-- pr-preview:preview-production -->",
      "#### `pulumi preview` of `production`: ~ 1 to update, 2 unchanged",
      "",
    ]);
    expect(ran.comment).toContain(
      '      ~ image: "registry.example.com/shop/web:1.4.2" => "registry.example.com/shop/web:1.5.0"\n',
    );
    expect(ran.comment).toContain("<details><summary>");
    expect(ran.comment).toContain("Commit 3e1f0c9; read from the live platform");
    expect(ran.summary).toBe(ran.comment);
    // The log has the CLI's output as it came.
    expect(ran.out).toContain("Previewing update (production)");
  });

  test("a preview that fails: the job fails with the CLI's status, and the comment says so with the errors", async () => {
    const ran = await run(["preview", "infra", "broken"]);
    expect(ran.code).toBe(255);
    expect(ran.comment).toContain("#### `pulumi preview` of `broken` failed (exit 255)");
    expect(ran.comment).toContain("error: sizeGb can only grow: it is 20 now, and 10 would shrink it");
  });

  test("an output longer than a comment may be is cut from the top, saying where the whole is", async () => {
    const long = join(bin, "long-preview.txt");
    writeFileSync(
      long,
      `${"  an unchanged line of a very large stack\n".repeat(2000)}Resources:\n    ~ 1 to update\n\n`,
    );
    const fake = join(bin, "pulumi-long");
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, "pulumi"), `#!/usr/bin/env bash\ncat "${long}"\n`);
    chmodSync(join(fake, "pulumi"), 0o755);
    const ran = await run(["preview", "infra", "production"], { PATH: `${fake}:${bin}:${process.env.PATH}` });
    expect(ran.comment.length).toBeLessThan(65_536);
    expect(ran.comment).toMatch(/… \(the first \d+ characters are cut: the whole output is in the job's log\)/);
    expect(ran.comment).toContain("#### `pulumi preview` of `production`: ~ 1 to update");
  });
});

describe("comment: one comment per key on the pull request, kept current", () => {
  test("edits the comment posted before under the key, found on the second page", async () => {
    writeFileSync(join(bin, "posted.md"), "");
    const work = mkdtempSync(join(tmpdir(), "hosting-pr-comment-"));
    try {
      const file = join(work, "comment.md");
      writeFileSync(file, "<!-- pr-preview:preview-production -->\n#### new text\n");
      const ran = await run(["comment", "preview-production"], { COMMENT_FILE: file });
      expect(ran.code).toBe(0);
      expect(calls("gh")).toEqual([
        "api --paginate repos/acme/shop/issues/12/comments",
        `api --method PATCH repos/acme/shop/issues/comments/1790007 -F body=@${file}`,
      ]);
      expect(readFileSync(join(bin, "posted.md"), "utf8")).toBe(
        "<!-- pr-preview:preview-production -->\n#### new text\n",
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("posts a new one when there is none under the key", async () => {
    const work = mkdtempSync(join(tmpdir(), "hosting-pr-comment-"));
    try {
      const file = join(work, "comment.md");
      writeFileSync(file, "<!-- pr-preview:preview-staging -->\n#### text\n");
      expect((await run(["comment", "preview-staging"], { COMMENT_FILE: file })).code).toBe(0);
      expect(calls("gh")[1]).toBe(`api --method POST repos/acme/shop/issues/12/comments -F body=@${file}`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("without a comment to post, or without the pull request's number, it fails saying so", async () => {
    const none = await run(["comment", "preview-production"], { COMMENT_FILE: join(bin, "no-such-file.md") });
    expect(none.code).toBe(1);
    expect(none.out).toContain("no-such-file.md is empty or missing: nothing to post");
    const noNumber = await run(["comment", "x"], { PR_NUMBER: "" });
    expect(noNumber.code).not.toBe(0);
    expect(noNumber.out).toContain("comment needs PR_NUMBER, the number of the pull request");
  });
});

describe("a stack per pull request", () => {
  test("up: stack pr-<number>, its configuration from the given stack, autonamed by the pattern name-stack, and its URL commented", async () => {
    const ran = await run(["up", "infra", "staging", "12"]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual([
      "stack select pr-12 --cwd infra --create --non-interactive",
      "config cp --cwd infra --stack staging --dest pr-12",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the engine's autonaming pattern, not a template literal
      "config set --cwd infra --stack pr-12 --path pulumi:autonaming.pattern ${name}-${stack}",
      "up --cwd infra --stack pr-12 --yes --non-interactive",
      "stack output url --cwd infra --stack pr-12",
    ]);
    expect(ran.comment.split("\n").slice(0, 4)).toEqual([
      "<!-- pr-preview:stack-pr-12 -->",
      "#### This pull request runs in stack `pr-12`: https://web-pr-12.apps.example.com",
      "",
      "+ 3 created. It is destroyed, and the stack removed, when the pull request closes.",
    ]);
  });

  test("up that fails: its status, and the comment says the next push tries again", async () => {
    const ran = await run(["up", "infra", "staging", "13"]);
    expect(ran.code).toBe(255);
    expect(ran.comment).toContain("#### `pulumi up` of stack `pr-13` failed (exit 255)");
    expect(ran.comment).toContain("QUOTA_EXCEEDED: the project may run 5 apps");
    expect(calls("pulumi")).not.toContain("stack output url --cwd infra --stack pr-13");
  });

  test("destroy: the stack destroyed, then removed", async () => {
    writeFileSync(join(bin, "stacks/pr-12"), "");
    const ran = await run(["destroy", "infra", "12"]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual([
      "stack select pr-12 --cwd infra --non-interactive",
      "destroy --cwd infra --stack pr-12 --yes --non-interactive",
      "stack rm pr-12 --cwd infra --yes --non-interactive",
    ]);
    expect(existsSync(join(bin, "stacks/pr-12"))).toBe(false);
    expect(ran.comment).toContain("#### Stack `pr-12` is destroyed and removed: - 3 deleted");
  });

  test("destroy of a pull request that never had a stack: nothing to do, and says so", async () => {
    const ran = await run(["destroy", "infra", "77"]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual(["stack select pr-77 --cwd infra --non-interactive"]);
    expect(ran.comment).toBe(
      "<!-- pr-preview:stack-pr-77 -->\n#### Stack `pr-77` does not exist: nothing to destroy\n",
    );
  });
});

test("usage errors exit 2", async () => {
  for (const args of [[], ["preview", "infra"], ["up", "infra", "staging"], ["bogus"]])
    expect((await run(args)).code).toBe(2);
});

describe("the GitHub Actions workflow, for a user's repository", () => {
  const text = readFileSync(join(DIR, "github-actions.yml"), "utf8");
  const workflow = yaml.load(text);
  type Step = { name?: string; if?: string; run?: string; uses?: string; with?: Record<string, string> };
  const stepsOf = (job: string): Step[] => workflow.jobs[job].steps;
  const SAME_REPO = "github.event.pull_request.head.repo.full_name == github.repository";
  /** A GitHub Actions expression as the workflow writes it. */
  const expression = (inner: string) => `\${{ ${inner} }}`;

  test("runs on pull requests (never pull_request_target, which would hand a fork's code the secrets)", () => {
    expect(workflow.on).toEqual({ pull_request: { types: ["opened", "synchronize", "reopened", "closed"] } });
    expect(text.split("\n").filter((line) => !/^\s*#/.test(line) && line.includes("pull_request_target"))).toEqual([]);
    expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
  });

  test("a fork's pull request: one job, no checkout, no secret, a summary that says why", async () => {
    const fork = workflow.jobs.fork;
    expect(fork.if).toBe("github.event.pull_request.head.repo.full_name != github.repository");
    expect(JSON.stringify(fork)).not.toMatch(/secrets\.|checkout/);
    const work = mkdtempSync(join(tmpdir(), "hosting-pr-fork-"));
    try {
      const step = join(work, "step.sh");
      const run = stepsOf("fork")[0].run!.replace(
        expression("github.event.pull_request.head.repo.full_name"),
        "someone/shop",
      );
      writeFileSync(step, run);
      const summary = join(work, "summary.md");
      writeFileSync(summary, "");
      await new Promise((done) =>
        execFile("bash", [step], { env: { ...process.env, GITHUB_STEP_SUMMARY: summary } }, done),
      );
      expect(readFileSync(summary, "utf8")).toBe(
        "### Previews skipped: this pull request comes from a fork (someone/shop)\n\nA preview reads the live platform, so it needs the repository's HOSTING_TOKEN, which GitHub does not give to a fork's pull request, and this workflow never runs a fork's code with it.\nA maintainer can push the branch to this repository (a pull request from there is previewed), or run pulumi preview locally.\n",
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("every job that holds a secret runs only for the repository's own branches", () => {
    for (const [name, job] of Object.entries<any>(workflow.jobs)) {
      if (!JSON.stringify(job).includes("secrets.")) continue;
      expect([name, job.if]).toEqual([name, expect.stringContaining(SAME_REPO)]);
    }
  });

  test("the preview on every push; a stack per pull request only with the repository variable, destroyed on close", () => {
    expect(workflow.jobs.preview.if).toBe(`${SAME_REPO} && github.event.action != 'closed'`);
    expect(workflow.jobs.stack.if).toContain("github.event.action != 'closed'");
    expect(workflow.jobs.stack.if).toContain("vars.HOSTING_PR_STACKS == 'true'");
    expect(workflow.jobs.cleanup.if).toContain("github.event.action == 'closed'");
    expect(workflow.jobs.cleanup.if).toContain("vars.HOSTING_PR_STACKS == 'true'");
    const runs = (job: string) => stepsOf(job).flatMap((step) => step.run ?? []);
    expect(runs("preview")).toContain('.github/scripts/pr-preview.sh preview "$PROGRAM_DIR" "$SHARED_STACK"');
    expect(runs("stack")).toContain('.github/scripts/pr-preview.sh up "$PROGRAM_DIR" "$PR_CONFIG_FROM" "$PR_NUMBER"');
    expect(runs("cleanup")).toContain('.github/scripts/pr-preview.sh destroy "$PROGRAM_DIR" "$PR_NUMBER"');
    // The comment is posted whether the step before failed or not.
    for (const job of ["preview", "stack", "cleanup"]) {
      const last = stepsOf(job).at(-1)!;
      expect([job, last.if, last.run]).toEqual([
        job,
        expression("!cancelled()"),
        expect.stringMatching(/pr-preview\.sh comment /),
      ]);
    }
  });

  test("pins the CLI and the plugin, installed from its release: nothing from this repository", () => {
    // The CLI this project pins everywhere (make demo's, the release workflow's).
    expect(workflow.env.PULUMI_VERSION).toBe(
      /^PULUMI_CLI_VERSION=(\S+)$/m.exec(readFileSync(resolve(__dirname, "../../scripts/demo.sh"), "utf8"))?.[1],
    );
    expect(workflow.env.HOSTING_PLUGIN_VERSION).toBe(pkg.version);
    for (const job of ["preview", "stack", "cleanup"]) {
      expect(stepsOf(job).find((step) => step.uses?.startsWith("pulumi/actions@"))?.with).toEqual({
        "pulumi-version": expression("env.PULUMI_VERSION"),
      });
      const runs = stepsOf(job)
        .map((step) => step.run ?? "")
        .join("\n");
      expect(runs).toContain(
        `pulumi plugin install resource hosting "$HOSTING_PLUGIN_VERSION" --server ${pkg.pulumi.pluginDownloadURL}`,
      );
      for (const ours of ["make ", "sdk/nodejs", "examples/"]) expect(runs).not.toContain(ours);
      expect(workflow.jobs[job].env.HOSTING_TOKEN).toBe(expression("secrets.HOSTING_TOKEN"));
      expect(workflow.jobs[job].env.GH_TOKEN).toBe(expression("github.token"));
    }
  });

  test("its preview and comment steps, run as the runner runs them in a user's repository", async () => {
    const repo = mkdtempSync(join(tmpdir(), "hosting-pr-repo-"));
    try {
      mkdirSync(join(repo, ".github/scripts"), { recursive: true });
      const script = join(repo, ".github/scripts/pr-preview.sh");
      writeFileSync(script, readFileSync(SCRIPT));
      chmodSync(script, 0o755);
      const [previewStep, commentStep] = stepsOf("preview").slice(-2);
      const step = join(repo, "steps.sh");
      writeFileSync(step, `cd "${repo}"\n${previewStep.run}\n${commentStep.run}\n`);
      const env = { PROGRAM_DIR: "infra", SHARED_STACK: "production", COMMENT_FILE: join(repo, "comment.md") };
      const ran = await run([], env, step);
      expect(ran.code).toBe(0);
      expect(calls("pulumi")).toEqual(["preview --cwd infra --stack production --diff --non-interactive"]);
      expect(calls("gh")[1]).toMatch(/^api --method PATCH repos\/acme\/shop\/issues\/comments\/1790007 /);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
