// `make install`: the development plugin (bin/) where the engine looks for this version of it.
// The test copies what `make test` built (make install-built), without rebuilding bin/ under the
// other tests that are running it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SCRIPT_PLUGIN, VERSION, built, startedVersion, tempDir } from "./helpers";

test("make install puts the development plugin (bin/) where the engine looks, and it starts from there", async () => {
  const home = tempDir("hosting-pulumi-home-");
  try {
    built(SCRIPT_PLUGIN, "build");
    execFileSync("make", ["--no-print-directory", "install-built"], {
      cwd: ROOT,
      env: { ...process.env, PULUMI_HOME: home },
    });
    const pluginDir = join(home, "plugins", `resource-hosting-v${VERSION}`);
    expect(readdirSync(pluginDir).sort()).toEqual([
      "pulumi-resource-hosting",
      "pulumi-resource-hosting.provider.cache",
      "pulumi-resource-hosting.provider.js",
      "pulumi-resource-hosting.server.cache",
      "pulumi-resource-hosting.server.js",
      "pulumi-resource-hosting.undici.js",
    ]);
    expect(await startedVersion(join(pluginDir, "pulumi-resource-hosting"), { cwd: home })).toBe(VERSION);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("make install never replaces a released plugin of the same version (one executable, nothing beside it)", () => {
  const home = tempDir("hosting-pulumi-home-");
  try {
    built(SCRIPT_PLUGIN, "build");
    const pluginDir = join(home, "plugins", `resource-hosting-v${VERSION}`);
    mkdirSync(pluginDir, { recursive: true });
    writeFileSync(join(pluginDir, "pulumi-resource-hosting"), "the released single executable");
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync("make", ["--no-print-directory", "install-built"], {
        cwd: ROOT,
        env: { ...process.env, PULUMI_HOME: home },
        stdio: "pipe",
      });
    } catch (err) {
      failure = { status: (err as { status: number }).status, stderr: String((err as { stderr: Buffer }).stderr) };
    }
    expect(failure?.status).not.toBe(0);
    expect(failure?.stderr).toContain(
      `make install: ${pluginDir} holds the released plugin ${VERSION}, which this checkout's build would replace with a build of another schema.`,
    );
    expect(failure?.stderr).toContain(`pulumi plugin rm resource hosting ${VERSION} --yes`);
    expect(readdirSync(pluginDir)).toEqual(["pulumi-resource-hosting"]);
    expect(readFileSync(join(pluginDir, "pulumi-resource-hosting"), "utf8")).toBe("the released single executable");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
