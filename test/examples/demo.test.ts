// `make demo`, the user's first command. With the Pulumi CLI on PATH it runs for real: up, a
// preview of an image change that must be an in-place update, destroy. Without the CLI that test
// is skipped (and says so), and the demo must stop at once with one line saying how to install it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const INSTALL_URL = "https://www.pulumi.com/docs/install/";

const onPath = (command: string, path = process.env.PATH ?? "") =>
  path.split(delimiter).filter(Boolean).map((dir) => join(dir, command)).find((file) => existsSync(file));

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeout: number) {
  const started = Date.now();
  return new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((done) => {
    execFile(file, args, { cwd: ROOT, env, timeout, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr, ms: Date.now() - started }),
    );
  });
}

const pulumi = onPath("pulumi");
if (!pulumi) {
  console.log(`make demo end to end: skipped, because the pulumi CLI is not on PATH (install it: ${INSTALL_URL})`);
}

(pulumi ? test : test.skip)(
  "make demo: pulumi up, a preview of a changed image that updates in place, pulumi destroy",
  async () => {
    const { code, stdout, stderr } = await run(onPath("make")!, ["--no-print-directory", "demo"], process.env, 15 * 60_000);
    const output = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
    expect({ code, tail: output.slice(-4000) }).toMatchObject({ code: 0 });
    const section = (title: string) => output.split("==> ").find((s) => s.startsWith(title)) ?? "";
    expect(section("pulumi up")).toMatch(/\+ 5 created/);
    const preview = section("pulumi preview");
    expect(preview).toMatch(/~ 1 to update/);
    expect(preview).toMatch(/image: "registry\.example\.com\/demo\/web:1\.0\.0" => "registry\.example\.com\/demo\/web:1\.1\.0"/);
    expect(preview).not.toMatch(/to replace|to create|to delete/);
    expect(section("pulumi destroy")).toMatch(/- 5 deleted/);
    expect(output).not.toContain("sim-token-alice");
  },
  16 * 60_000,
);

describe("without the pulumi CLI", () => {
  // PATH without any directory that holds a pulumi; make and bash are called by absolute path.
  const path = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir && !existsSync(join(dir, "pulumi"))).join(delimiter);
  const env = { ...process.env, PATH: path };

  test("the demo script stops at once with one line that says how to install it", async () => {
    const { code, stdout, stderr, ms } = await run(onPath("bash")!, ["scripts/demo.sh"], env, 30_000);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Pulumi CLI/);
    expect(lines[0]).toContain(INSTALL_URL);
    expect(ms).toBeLessThan(5_000);
  });

  test("make demo prints that line first and fails, without building anything", async () => {
    const { code, stdout, stderr } = await run(onPath("make")!, ["--no-print-directory", "demo"], env, 30_000);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]).toContain(INSTALL_URL);
  });
});
