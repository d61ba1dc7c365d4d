// The CI workflow (.github/workflows/ci.yml) runs the README's test command, as written there, on a
// fresh runner set up as the README and .ci/run say: Node.js at package.json's least supported
// version, Go for the Pulumi CLI's build and the grpc-go tests, make pulumi-cli's cache; and it
// passes the workflow linter (make lint-workflows runs it on every file in .github/workflows).
// Beside it, the release's npm step runs as a dry run.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./helpers";

const yaml = require("js-yaml");
const WORKFLOW = join(ROOT, ".github/workflows/ci.yml");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
}
const workflow = yaml.load(readFileSync(WORKFLOW, "utf8")) as Workflow;
const job = workflow.jobs.test;

/** The README's "The two commands" block: the command whose comment says it runs every test. */
function readmeTestCommand(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("The two commands"))!;
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  const lines = block.split("\n").filter((line) => /#.*\bevery test\b/.test(line));
  expect(lines).toHaveLength(1);
  return lines[0].split("#")[0].trim();
}

test("runs on every push and pull request: the tests, the release rehearsed and the npm publish as a dry run, on fresh Ubuntu runners", () => {
  expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
  expect(Object.keys(workflow.jobs).sort()).toEqual(["release-dry-run", "sdk-publish-dry-run", "test"]);
  for (const each of Object.values(workflow.jobs)) expect(each["runs-on"]).toBe("ubuntu-latest");
});

test("the dry run is the release's npm step, make sdk-publish, on what make sdk-pack writes", () => {
  const runs = (jobs: Workflow["jobs"], name: string) => jobs[name].steps.flatMap((step) => step.run ?? []);
  expect(runs(workflow.jobs, "sdk-publish-dry-run")).toEqual([
    "make sdk-pack",
    "make sdk-publish NPM_PUBLISH_FLAGS=--dry-run",
  ]);
  const release = yaml.load(readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8")) as Workflow;
  expect(runs(release.jobs, "npm").join("\n")).toMatch(/^\s*make sdk-publish NPM_PUBLISH_FLAGS=--provenance$/m);
  expect(runs(workflow.jobs, "release-dry-run")).toEqual(["npm ci --no-audit --no-fund", "make release-dry-run"]);
  expect(runs(release.jobs, "sdks")).toContain("make release-dry-run");
});

test("its last step is the README's test command, and no other step builds or tests", () => {
  const command = readmeTestCommand();
  expect(command).toMatch(/^make \S+$/);
  const runs = job.steps.filter((step) => step.run !== undefined).map((step) => step.run!.trim());
  expect(runs[runs.length - 1]).toBe(command);
  expect(runs.slice(0, -1).filter((run) => /\b(make|npm|npx|jest)\b/.test(run))).toEqual([]);
});

test("sets up the Node.js that package.json's engines names as the least, with npm's cache", () => {
  const least = /^>=\s*(\d+\.\d+\.\d+)$/.exec(require("../../package.json").engines.node)![1];
  const setup = job.steps.find((step) => step.uses?.startsWith("actions/setup-node@"));
  expect(setup?.with).toEqual({ "node-version": least, cache: "npm" });
  expect(job.steps[0].uses).toMatch(/^actions\/checkout@/);
});

test("sets up Go 1.26 (the CLI's build, the grpc-go stand-in) and keeps make pulumi-cli's cache, keyed by what builds it", () => {
  const go = job.steps.find((step) => step.uses?.startsWith("actions/setup-go@"));
  expect(go?.with?.["go-version"]).toBe("1.26");
  const cache = job.steps.find((step) => step.uses?.startsWith("actions/cache@"));
  expect(cache?.with?.path).toBe("~/.cache/pulumi-hosting");
  expect(String(cache?.with?.key)).toContain("hashFiles('scripts/pulumi-cli.sh', 'tools/**/go.sum')");
});

test("passes the workflow linter that make lint-workflows runs (actionlint, over every workflow)", async () => {
  const lint = await promisify(execFile)("make", ["--no-print-directory", "lint-workflows"], { cwd: ROOT });
  expect(lint.stdout).toMatch(/^actionlint v[\d.]+: \d+ workflows pass$/m);
  expect(readFileSync(join(ROOT, "scripts/actionlint.sh"), "utf8")).toContain("workflows=(.github/workflows/*.yml");
});
