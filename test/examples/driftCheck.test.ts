// examples/drift-check: the script's logic against a stand-in `pulumi` that answers as the real
// CLI does for a clean stack, a drifted stack and a failure (the real CLI cannot run here), and
// the GitHub Actions workflow is valid YAML that runs the script.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const DIR = resolve(__dirname, "../../examples/drift-check");
const SCRIPT = join(DIR, "drift-check.sh");

let bin: string;
beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), "hosting-drift-"));
  // Records its arguments; answers per stack name, with the CLI's own words for drift.
  writeFileSync(
    join(bin, "pulumi"),
    `#!/usr/bin/env bash
echo "$@" >> "${bin}/calls"
stack=""; while [ $# -gt 0 ]; do [ "$1" = "--stack" ] && stack=$2; shift; done
case "$stack" in
  clean*) echo "Resources:"; echo "    5 unchanged"; exit 0 ;;
  drifted*)
    echo "    ~ hosting:index:Container web update [diff: ~replicas]"
    echo "error: no changes were expected but changes were proposed"
    exit 255 ;;
  newer-cli-drifted*) echo "error: no changes were expected for preview but changes were proposed"; exit 255 ;;
  *) echo "error: hosting:index:Container web: 401 UNAUTHORIZED (request id req-1)"; exit 255 ;;
esac
`,
  );
  chmodSync(join(bin, "pulumi"), 0o755);
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function driftCheck(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      "bash",
      [SCRIPT, ...args],
      { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } },
      (err, stdout, stderr) => done({ code: err ? Number((err as any).code) : 0, out: stdout + stderr }),
    );
  });
}

test("runs pulumi preview --refresh --expect-no-changes per stack; exit 0 when nothing drifted", async () => {
  rmSync(join(bin, "calls"), { force: true });
  const { code, out } = await driftCheck("examples/app-with-postgres", "clean-a", "clean-b");
  expect(code).toBe(0);
  expect(out).toContain("drift-check: clean-a: no drift");
  expect(out).toContain("drift-check: clean-b: no drift");
  const calls = readFileSync(join(bin, "calls"), "utf8").trim().split("\n");
  expect(calls).toEqual([
    "preview --cwd examples/app-with-postgres --stack clean-a --refresh --expect-no-changes --diff --non-interactive",
    "preview --cwd examples/app-with-postgres --stack clean-b --refresh --expect-no-changes --diff --non-interactive",
  ]);
});

test("exit 1 and a DRIFT line saying what to do when a stack drifted; the diff is shown", async () => {
  const { code, out } = await driftCheck("prog", "clean", "drifted");
  expect(code).toBe(1);
  expect(out).toContain("~ hosting:index:Container web update [diff: ~replicas]");
  expect(out).toMatch(/drift-check: drifted: DRIFT: .*pulumi refresh.*pulumi up/);
  expect(out).toContain("drift-check: clean: no drift");
});

test("recognises newer CLIs' wording of the same error", async () => {
  expect((await driftCheck("prog", "newer-cli-drifted")).code).toBe(1);
});

test("exit 2 when the check itself fails, which outranks drift", async () => {
  const { code, out } = await driftCheck("prog", "drifted", "broken");
  expect(code).toBe(2);
  expect(out).toMatch(/drift-check: broken: ERROR: the check could not run \(pulumi exited with 255/);
});

test("usage errors exit 2", async () => {
  expect((await driftCheck("only-a-dir")).code).toBe(2);
});

test("the GitHub Actions workflow is valid YAML, runs nightly and runs the script", () => {
  const yaml = require("js-yaml");
  const workflow = yaml.load(readFileSync(join(DIR, "github-actions.yml"), "utf8"));
  expect(workflow.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
  const steps = workflow.jobs["drift-check"].steps.map((s: any) => s.run ?? s.uses).join("\n");
  expect(steps).toContain("examples/drift-check/drift-check.sh");
  expect(steps).toContain("make install");
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template literal
  expect(workflow.jobs["drift-check"].env.HOSTING_TOKEN).toBe("${{ secrets.HOSTING_TOKEN }}");
});
