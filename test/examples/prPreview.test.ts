// examples/pr-preview: the script against stand-ins for `pulumi` and `gh` that replay what the real
// CLIs print (recorded in test/examples/prPreview/: a preview with changes, one that fails, an up and a
// destroy, each after the preview the real CLI prints first, a pull request's comments in two pages,
// and pull requests as GitHub's API answers for one: merged, closed, open, not found) and record what
// they were asked; and the GitHub Actions workflow as a user's repository runs it: its steps'
// commands, a fork's pull request skipped with a summary and no secret, a stack per pull request
// behind a repository variable, a token of its own per environment, and a nightly sweep.
// test/e2e/workflows.test.ts runs the script's pulumi commands against the real CLI; GitHub's API
// cannot be reached here, so `gh` is a stand-in in both.
import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
    case "$3" in
      # The backend refuses the token (exit 3, the CLI's ExitAuthenticationError): whether pr-40 exists is unknown.
      pr-40) echo "error: [401] Unauthorized: No credentials provided or are invalid." >&2; exit 3 ;;
      # A CLI older than its exit codes: 255 for every error, "does not exist" included.
      pr-41) echo "error: [401] Unauthorized: No credentials provided or are invalid." >&2; exit 255 ;;
      pr-78) echo "error: no stack named 'pr-78' found" >&2; exit 255 ;;
    esac
    if [ -n "$create" ]; then touch "${bin}/stacks/$3"; echo "Created stack '$3'"; exit 0; fi
    echo "error: no stack named '$3' found" >&2; exit 6 ;;
  "stack ls")
    if [ -e "${bin}/backend-down" ]; then echo "error: [401] Unauthorized: No credentials provided or are invalid." >&2; exit 3; fi
    printf '['; sep=""
    for f in "${bin}"/stacks/*; do [ -e "$f" ] && printf '%s{"name": "%s", "current": false, "resourceCount": 3}' "$sep" "\${f##*/}" && sep=", "; done
    echo ']'; exit 0 ;;
  "stack rm") rm "${bin}/stacks/$3"; echo "Stack '$3' has been removed!"; exit 0 ;;
  "stack output") echo "https://web-$stack.apps.example.com"; exit 0 ;;
  "config cp"|"config set") exit 0 ;;
esac
case "$1 $stack" in
  "preview production") cat "${RECORDED}/preview.txt"; exit 0 ;;
  "preview broken") cat "${RECORDED}/preview-failed.txt"; exit 255 ;;
  "up pr-12") cat "${RECORDED}/up.txt"; exit 0 ;;
  "up pr-13") echo "error: hosting:index:Container web: QUOTA_EXCEEDED: the project may run 5 apps (HTTP 402, request req-q1)"; exit 255 ;;
  "destroy pr-"*) sed "s/pr-12/$stack/g" "${RECORDED}/destroy.txt"; exit 0 ;;
esac
echo "unexpected: $*" >&2; exit 99
`,
  );
  // gh: the pull request's comments in two pages, as --paginate writes them; a pull request as GitHub's
  // API answers GET /repos/{owner}/{repo}/pulls/{number} (gh writes the body of a 404 too, then fails);
  // a write keeps its body.
  writeFileSync(
    join(bin, "gh"),
    `#!/usr/bin/env bash
echo "$*" >> "${bin}/gh.calls"
if [ "$2" = "--paginate" ]; then cat "${RECORDED}/comments-page-1.json" "${RECORDED}/comments-page-2.json"; exit 0; fi
case "$2" in
  repos/acme/shop/pulls/*)
    if [ -e "${RECORDED}/pull-\${2##*/}.json" ]; then cat "${RECORDED}/pull-\${2##*/}.json"; exit 0; fi
    cat "${RECORDED}/pull-not-found.json"; echo "gh: Not Found (HTTP 404)" >&2; exit 1 ;;
esac
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
  test("up: stack pr-<number>, its configuration from the given stack, autonamed by the pattern name-stack-random, and its URL commented", async () => {
    const ran = await run(["up", "infra", "staging", "12"]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual([
      "stack select pr-12 --cwd infra --create --non-interactive",
      "config cp --cwd infra --stack staging --dest pr-12",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the engine's autonaming pattern, not a template literal
      "config set --cwd infra --stack pr-12 --path pulumi:autonaming.pattern ${name}-${stack}-${hex(6)}",
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

  test.each([
    ["exit 6", "77"],
    ["a CLI older than its exit codes: 255 and the message", "78"],
  ])("destroy of a pull request that never had a stack (%s): nothing to do, and says so", async (_name, pr) => {
    const ran = await run(["destroy", "infra", pr]);
    expect(ran.code).toBe(0);
    expect(calls("pulumi")).toEqual([`stack select pr-${pr} --cwd infra --non-interactive`]);
    expect(ran.comment).toBe(
      `<!-- pr-preview:stack-pr-${pr} -->\n#### Stack \`pr-${pr}\` does not exist: nothing to destroy\n`,
    );
  });

  test.each([
    ["exit 3", "40", 3],
    ["a CLI older than its exit codes: 255 without the message", "41", 255],
  ])(
    "destroy when stack select fails for another reason (an expired backend token, %s): it fails, destroys nothing, and says why",
    async (_name, pr, status) => {
      const ran = await run(["destroy", "infra", pr]);
      expect(ran.code).toBe(status);
      expect(calls("pulumi")).toEqual([`stack select pr-${pr} --cwd infra --non-interactive`]);
      expect(ran.comment.split("\n").slice(0, 4)).toEqual([
        `<!-- pr-preview:stack-pr-${pr} -->`,
        `#### Could not tell whether stack \`pr-${pr}\` exists: nothing was destroyed (exit ${status})`,
        "",
        `\`pulumi stack select\` failed, and not because the stack does not exist: its resources may still run. Fix the error below (the backend's credentials, say), then re-run this job, or run \`pulumi destroy --stack pr-${pr}\` and \`pulumi stack rm pr-${pr}\`.`,
      ]);
      expect(ran.comment).toContain("error: [401] Unauthorized: No credentials provided or are invalid.");
      expect(ran.comment).not.toContain("nothing to destroy");
      expect(ran.out).toContain("error: [401] Unauthorized");
    },
  );
});

describe("sweep: the stacks of pull requests that closed while nothing removed them", () => {
  beforeEach(() => {
    rmSync(join(bin, "stacks"), { recursive: true, force: true });
    mkdirSync(join(bin, "stacks"));
    rmSync(join(bin, "backend-down"), { force: true });
  });

  test("destroys those of closed pull requests (merged or not), keeps those of open ones, and ignores other stacks", async () => {
    for (const stack of ["production", "pr-template", "pr-12", "pr-14", "pr-16"])
      writeFileSync(join(bin, "stacks", stack), "");
    const ran = await run(["sweep", "infra"]);
    expect(ran.code).toBe(0);
    expect(calls("gh")).toEqual([
      "api repos/acme/shop/pulls/12",
      "api repos/acme/shop/pulls/14",
      "api repos/acme/shop/pulls/16",
    ]);
    expect(calls("pulumi")).toEqual([
      "stack ls --json --cwd infra --non-interactive",
      "stack select pr-12 --cwd infra --non-interactive",
      "destroy --cwd infra --stack pr-12 --yes --non-interactive",
      "stack rm pr-12 --cwd infra --yes --non-interactive",
      "stack select pr-16 --cwd infra --non-interactive",
      "destroy --cwd infra --stack pr-16 --yes --non-interactive",
      "stack rm pr-16 --cwd infra --yes --non-interactive",
    ]);
    expect(readdirSync(join(bin, "stacks")).sort()).toEqual(["pr-14", "pr-template", "production"]);
    expect(ran.out).toContain("pr-preview: sweep: stack pr-14 kept: pull request #14 is open");
    expect(ran.summary).toContain("#### Stack `pr-12` is destroyed and removed: - 3 deleted");
    expect(ran.summary).toContain("#### Stack `pr-16` is destroyed and removed: - 3 deleted");
    expect(ran.summary).toContain(
      "#### Stacks of closed pull requests: 2 removed, 1 kept (open), 0 failed\n\nRemoved: pr-12 pr-16. Kept: pr-14. Failed: none.\n",
    );
  });

  test("a pull request GitHub does not answer for keeps its stack, and the sweep fails saying which", async () => {
    for (const stack of ["pr-12", "pr-31"]) writeFileSync(join(bin, "stacks", stack), "");
    const ran = await run(["sweep", "infra"]);
    expect(ran.code).toBe(1);
    expect(readdirSync(join(bin, "stacks"))).toEqual(["pr-31"]);
    expect(ran.out).toContain("gh: Not Found (HTTP 404)");
    expect(ran.out).toContain(
      "pr-preview: sweep: stack pr-31 kept: the state of pull request #31 of acme/shop could not be read (above)",
    );
    expect(ran.summary).toContain("1 removed, 0 kept (open), 1 failed");
  });

  test("a backend it cannot list destroys nothing, and fails", async () => {
    writeFileSync(join(bin, "stacks", "pr-12"), "");
    writeFileSync(join(bin, "backend-down"), "");
    const ran = await run(["sweep", "infra"]);
    expect(ran.code).toBe(1);
    expect(calls("pulumi")).toEqual(["stack ls --json --cwd infra --non-interactive"]);
    expect(calls("gh")).toEqual([]);
    expect(ran.out).toContain("pr-preview: sweep: could not list the stacks of infra (above): nothing was destroyed");
    expect(existsSync(join(bin, "stacks", "pr-12"))).toBe(true);
  });
});

test("usage errors exit 2", async () => {
  for (const args of [[], ["preview", "infra"], ["up", "infra", "staging"], ["sweep"], ["bogus"]])
    expect((await run(args)).code).toBe(2);
});

describe("the GitHub Actions workflow, for a user's repository", () => {
  const text = readFileSync(join(DIR, "github-actions.yml"), "utf8");
  const workflow = yaml.load(text);
  type Step = {
    name?: string;
    if?: string;
    run?: string;
    uses?: string;
    with?: Record<string, string>;
    env?: Record<string, string>;
  };
  const stepsOf = (job: string): Step[] => workflow.jobs[job].steps;
  const SAME_REPO = "github.event.pull_request.head.repo.full_name == github.repository";
  const ON_PULL_REQUEST = "github.event_name == 'pull_request'";
  /** A GitHub Actions expression as the workflow writes it. */
  const expression = (inner: string) => `\${{ ${inner} }}`;
  const PR_JOBS = ["preview", "stack", "cleanup"];
  const SECRET_JOBS = [...PR_JOBS, "sweep"];

  test("runs on pull requests (never pull_request_target, which would hand a fork's code the secrets), and nightly for the sweep", () => {
    expect(workflow.on).toEqual({
      pull_request: { types: ["opened", "synchronize", "reopened", "closed"] },
      schedule: [{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }],
      workflow_dispatch: null,
    });
    expect(text.split("\n").filter((line) => !/^\s*#/.test(line) && line.includes("pull_request_target"))).toEqual([]);
    expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
  });

  test("values reach scripts through env, never an expression spliced into a run script", () => {
    const spliced = Object.entries<any>(workflow.jobs).flatMap(([job, { steps }]) =>
      (steps as Step[]).filter((step) => step.run?.includes("${{")).map((step) => `${job}: ${step.name ?? step.run}`),
    );
    expect(spliced).toEqual([]);
  });

  test("a fork's pull request: one job, no checkout, no secret, a summary that says why", async () => {
    const fork = workflow.jobs.fork;
    expect(fork.if).toBe(`${ON_PULL_REQUEST} && github.event.pull_request.head.repo.full_name != github.repository`);
    expect(JSON.stringify(fork)).not.toMatch(/secrets\.|checkout/);
    const [step] = stepsOf("fork");
    expect(step.env).toEqual({ FORK: expression("github.event.pull_request.head.repo.full_name") });
    const work = mkdtempSync(join(tmpdir(), "hosting-pr-fork-"));
    try {
      const file = join(work, "step.sh");
      writeFileSync(file, step.run!);
      const summary = join(work, "summary.md");
      writeFileSync(summary, "");
      // A name with shell in it stays text: it reaches the script as a variable's value.
      const env = { ...process.env, GITHUB_STEP_SUMMARY: summary, FORK: "someone/shop$(touch pwned)" };
      await new Promise((done) => execFile("bash", [file], { cwd: work, env }, done));
      expect(existsSync(join(work, "pwned"))).toBe(false);
      expect(readFileSync(summary, "utf8")).toBe(
        "### Previews skipped: this pull request comes from a fork (someone/shop$(touch pwned))\n\nA preview reads the live platform, so it needs a token of the platform, which GitHub does not give to a fork's pull request, and this workflow never runs a fork's code with it.\nA maintainer can push the branch to this repository (a pull request from there is previewed), or run pulumi preview locally.\n",
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("every job that holds a secret runs only for the repository's own branches, or on the schedule", () => {
    const holding = Object.entries<any>(workflow.jobs).filter(([, job]) => JSON.stringify(job).includes("secrets."));
    expect(holding.map(([name]) => name).sort()).toEqual([...SECRET_JOBS].sort());
    for (const [name, job] of holding) {
      const when = name === "sweep" ? "github.event_name != 'pull_request'" : `${ON_PULL_REQUEST} && ${SAME_REPO}`;
      expect([name, job.if]).toEqual([name, expect.stringContaining(when)]);
    }
  });

  test("a token of its own per GitHub Environment: the preview's, and the pull requests' stacks'; never production's", () => {
    expect(text).not.toContain("secrets.HOSTING_TOKEN");
    expect(workflow.jobs.preview.environment).toBe("pr-preview");
    expect(workflow.jobs.preview.env.HOSTING_TOKEN).toBe(expression("secrets.HOSTING_PREVIEW_TOKEN"));
    for (const job of ["stack", "cleanup", "sweep"]) {
      expect([job, workflow.jobs[job].environment]).toEqual([job, "pr-stacks"]);
      expect([job, workflow.jobs[job].env.HOSTING_TOKEN]).toEqual([job, expression("secrets.HOSTING_PR_TOKEN")]);
    }
    // Pull requests' stacks take their configuration from a stack of their own project, which the sweep never removes.
    expect(workflow.env.PR_CONFIG_FROM).toBe("pr-template");
  });

  test("the preview on every push; a stack per pull request only with the repository variable, destroyed on close, swept nightly", () => {
    expect(workflow.jobs.preview.if).toBe(`${ON_PULL_REQUEST} && ${SAME_REPO} && github.event.action != 'closed'`);
    expect(workflow.jobs.stack.if).toContain("github.event.action != 'closed'");
    expect(workflow.jobs.stack.if).toContain("vars.HOSTING_PR_STACKS == 'true'");
    expect(workflow.jobs.cleanup.if).toContain("github.event.action == 'closed'");
    expect(workflow.jobs.cleanup.if).toContain("vars.HOSTING_PR_STACKS == 'true'");
    expect(workflow.jobs.sweep.if).toBe("github.event_name != 'pull_request' && vars.HOSTING_PR_STACKS == 'true'");
    const runs = (job: string) => stepsOf(job).flatMap((step) => step.run ?? []);
    expect(runs("preview")).toContain('.github/scripts/pr-preview.sh preview "$PROGRAM_DIR" "$SHARED_STACK"');
    expect(runs("stack")).toContain('.github/scripts/pr-preview.sh up "$PROGRAM_DIR" "$PR_CONFIG_FROM" "$PR_NUMBER"');
    expect(runs("cleanup")).toContain('.github/scripts/pr-preview.sh destroy "$PROGRAM_DIR" "$PR_NUMBER"');
    expect(runs("sweep")).toContain('.github/scripts/pr-preview.sh sweep "$PROGRAM_DIR"');
    // The sweep runs the default branch's code: no pull request's.
    expect(stepsOf("sweep").find((step) => step.uses?.startsWith("actions/checkout@"))?.with).toBeUndefined();
    // The comment is posted whether the step before failed or not.
    for (const job of PR_JOBS) {
      const last = stepsOf(job).at(-1)!;
      expect([job, last.if, last.run]).toEqual([
        job,
        expression("!cancelled()"),
        expect.stringMatching(/pr-preview\.sh comment /),
      ]);
    }
  });

  test("pins the CLI and the plugin, installed from its release with the workflow's GitHub token: nothing from this repository", () => {
    // The CLI this project pins everywhere (make pulumi-cli's, the release workflow's).
    expect(workflow.env.PULUMI_VERSION).toBe(
      /^PULUMI_VERSION=(\S+)$/m.exec(readFileSync(resolve(__dirname, "../../scripts/pulumi-cli.sh"), "utf8"))?.[1],
    );
    expect(workflow.env.HOSTING_PLUGIN_VERSION).toBe(pkg.version);
    for (const job of SECRET_JOBS) {
      expect(stepsOf(job).find((step) => step.uses?.startsWith("pulumi/actions@"))?.with).toEqual({
        "pulumi-version": expression("env.PULUMI_VERSION"),
      });
      const install = stepsOf(job).find((step) => step.run?.startsWith("pulumi plugin install"));
      expect([job, install?.run]).toEqual([
        job,
        `pulumi plugin install resource hosting "$HOSTING_PLUGIN_VERSION" --server ${pkg.pulumi.pluginDownloadURL}`,
      ]);
      // Anonymous requests from a shared runner meet GitHub's rate limit (403).
      expect([job, install?.env]).toEqual([job, { GITHUB_TOKEN: expression("github.token") }]);
      const runs = stepsOf(job)
        .map((step) => step.run ?? "")
        .join("\n");
      for (const ours of ["make ", "sdk/nodejs", "examples/"]) expect(runs).not.toContain(ours);
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
