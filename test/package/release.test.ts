// The release machinery that can run here: the workflow passes a linter of GitHub's workflow
// schema (action-validator, which runs offline), and a release tag must name package.json's version.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, VERSION } from "./helpers";

const run = (file: string, args: string[]) =>
  promisify(execFile)(file, args, { cwd: ROOT }).then(
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
    writeFileSync(broken, readFileSync(WORKFLOW, "utf8").replace("if-no-files-found: error", "if-no-file-found: error").replace("needs: [plugin, sdk]", "needs: [plugin, sdks]"));
    const result = await run(VALIDATOR, [broken]);
    expect(result.code).not.toBe(0);
    expect(result.out).toContain("unresolved job sdks");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the workflow builds every platform the engine asks for, and publishes what make writes", () => {
  const text = readFileSync(WORKFLOW, "utf8");
  for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"]) expect(text).toContain(`platform: ${platform}`);
  for (const target of ["make release-check", "make package", "make package-test", "make sdk-pack"]) expect(text).toContain(target);
  expect(text).toMatch(/tags: \["v\*"\]/);
});

test("make release-check accepts the tag of package.json's version and refuses another", async () => {
  expect(await run("make", ["--no-print-directory", "release-check", `TAG=v${VERSION}`])).toEqual({
    code: 0,
    out: `release tag v${VERSION} matches package.json's version ${VERSION}\n`,
  });
  const wrong = await run("make", ["--no-print-directory", "release-check", "TAG=v9.9.9"]);
  expect(wrong.code).not.toBe(0);
  expect(wrong.out).toContain(`release tag 'v9.9.9' does not match package.json's version ${VERSION}`);
});
