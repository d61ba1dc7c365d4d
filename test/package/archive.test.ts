// The archive the engine downloads (pluginDownloadURL) or `pulumi plugin install --file` takes:
// unpacked the way the engine unpacks it, into $PULUMI_HOME/plugins/resource-hosting-v<version>/,
// it holds just the executable, which starts from there with no node on PATH and answers the
// engine's first call with its version.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ARCHIVE, EXE, VERSION, built, startedVersion, tempDir } from "./helpers";

test("the archive unpacks into a PULUMI_HOME plugin directory, and the plugin there starts and answers", async () => {
  const home = tempDir("hosting-pulumi-home-");
  const emptyPath = tempDir("hosting-empty-path-");
  try {
    const listing = execFileSync("tar", ["-tzf", built(ARCHIVE, "package")], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(listing).toEqual([EXE]);

    const pluginDir = join(home, "plugins", `resource-hosting-v${VERSION}`);
    mkdirSync(pluginDir, { recursive: true });
    execFileSync("tar", ["-xzf", ARCHIVE, "-C", pluginDir]);
    expect(readdirSync(pluginDir)).toEqual([EXE]);
    if (process.platform !== "win32") expect(statSync(join(pluginDir, EXE)).mode & 0o111).not.toBe(0);

    expect(await startedVersion(join(pluginDir, EXE), { cwd: home, env: { PATH: emptyPath, PULUMI_HOME: home } })).toBe(
      VERSION,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(emptyPath, { recursive: true, force: true });
  }
});
