// A person who runs the plugin by hand: `--version` prints package.json's version and `--help`
// one screen of usage, and both exit 0 at once, without listening (no port line) and without
// loading the second stage; the Node.js script and the single executable alike. The engine never
// passes either flag, and its start-up (the port line) is tested everywhere else.
import { execFile } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SCRIPT_PLUGIN, SINGLE_EXECUTABLE, VERSION, built, tempDir } from "./helpers";

const HOMEPAGE: string = require("../../package.json").homepage;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a plugin with `args` and no engine address; a plugin that listened would never exit. */
function run(command: string, args: string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { env: { PATH: process.env.PATH }, timeout: 20_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const plugins = [
  { name: "the Node.js script (bin/)", command: () => built(SCRIPT_PLUGIN, "build") },
  { name: "the single executable (dist/)", command: () => built(SINGLE_EXECUTABLE, "package") },
];

describe.each(plugins)("$name", ({ command }) => {
  test("--version prints package.json's version alone and exits 0", async () => {
    expect(await run(command(), ["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  test.each([["--help"], ["-h"]])("%s prints one screen of usage and exits 0", async (flag) => {
    const { code, stdout, stderr } = await run(command(), [flag]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const lines = stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines[0]).toBe(
      `pulumi-resource-hosting ${VERSION}: the Pulumi resource provider for the container hosting platform`,
    );
    expect(stdout).toContain("the Pulumi engine starts it, with the engine's address");
    for (const flagName of ["--logtostderr", "-v=N", "--tracing", "--version", "-h, --help"])
      expect(stdout).toMatch(new RegExp(`^  ${flagName}`, "m"));
    expect(stdout).toContain(`Documentation: ${HOMEPAGE}`);
    expect(stdout).not.toMatch(/^\d+$/m);
  });

  // Before, any argument was taken for the engine's address, and the plugin served forever.
  test.each([
    [["version"]],
    [["--bogus"]],
    [["-x"]],
    [["--logtostderr", "127.0.0.1:1", "extra"]],
    [["not an address"]],
  ])("%j is refused with the usage text and exit 2, without listening", async (args) => {
    const { code, stdout, stderr } = await run(command(), args);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^pulumi-resource-hosting: (Unknown option|unexpected argument)/);
    expect(stderr).toContain("the Pulumi engine starts it, with the engine's address");
  });
});

test("the Node.js script answers --version and --help alone, with no second stage beside it to load", async () => {
  const dir = tempDir("hosting-first-stage-only-");
  try {
    const alone = join(dir, "pulumi-resource-hosting");
    copyFileSync(built(SCRIPT_PLUGIN, "build"), alone);
    expect(await run(alone, ["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    expect(await run(alone, ["--help"])).toMatchObject({ code: 0, stderr: "" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
