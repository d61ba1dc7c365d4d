// A person who runs the plugin by hand: `--version` prints package.json's version and `--help`
// one screen of usage, and both exit 0 at once, without listening (no port line) and without
// loading the second stage; the Node.js script and the single executable alike. The engine never
// passes either flag, and its start-up (the port line) is tested everywhere else. A wrong argument
// is one line, then the usage. Started in a terminal with no engine address, it says on stderr that
// the engine starts it and how to debug it; started with pipes and no address (an engine speaking
// Handshake may), it says nothing.
import { execFile, spawn } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SCRIPT_PLUGIN, SINGLE_EXECUTABLE, VERSION, built, pluginVersion, startPlugin, tempDir } from "./helpers";

const HOMEPAGE: string = require("../../package.json").homepage;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a plugin with `args` and no engine address; a plugin that listened would never exit, and is killed after
 * two minutes: long enough for the single executable's start on a loaded machine, so only a plugin that hangs meets it.
 */
function run(command: string, args: string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { env: { PATH: process.env.PATH }, timeout: 120_000 }, (err, stdout, stderr) =>
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
    [["version"], 'unexpected argument "version": the only argument is the engine\'s address (host:port)'],
    [
      ["--bogus"],
      'unknown option "--bogus": the plugin takes --logtostderr, -v=N, --tracing URL, --version and --help, then the engine\'s address',
    ],
    [
      ["-x"],
      'unknown option "-x": the plugin takes --logtostderr, -v=N, --tracing URL, --version and --help, then the engine\'s address',
    ],
    [["--tracing"], 'option "--tracing" needs a value: --tracing <value>'],
    [["-v"], 'option "-v" needs a value: -v=N'],
    [["--version=2"], 'option "--version" takes no value'],
    [
      ["--logtostderr", "127.0.0.1:1", "extra"],
      'unexpected argument "extra": the only argument is the engine\'s address (host:port)',
    ],
    [
      ["not an address"],
      'unexpected argument "not an address": the only argument is the engine\'s address (host:port)',
    ],
  ])("%j is refused in one line, then the usage text, exit 2, without listening", async (args, line) => {
    const { code, stdout, stderr } = await run(command(), args);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    const [first, blank, ...usage] = stderr.split("\n");
    expect([first, blank]).toEqual([`pulumi-resource-hosting: ${line}`, ""]);
    expect(usage.join("\n")).toContain("the Pulumi engine starts it, with the engine's address");
  });

  test("started in a terminal with no engine address, it serves, and says on stderr that the engine starts it and how to debug it", async () => {
    // `script` gives the plugin a terminal, as a shell does; the engine never does.
    const child = spawn("script", ["-qfec", command(), "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
    let seen = "";
    const hint = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        seen += chunk;
        const line = /^pulumi-resource-hosting: serving on .*$/m.exec(seen.replace(/\r/g, ""));
        if (line && seen.includes("\n", seen.indexOf("serving on"))) resolve(line[0]);
      });
      child.once("exit", (code) => reject(new Error(`exited (${code}) before the hint: ${seen}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    const port = Number(/^(\d+)\s*$/m.exec(seen.replace(/\r/g, ""))?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(hint).toBe(
      `pulumi-resource-hosting: serving on 127.0.0.1:${port} for a Pulumi engine, which starts this plugin itself (pulumi preview, pulumi up): you need not run it. To debug it, keep it running (start it with --logtostderr -v=9 to trace every API request) and, in another terminal, run pulumi with PULUMI_DEBUG_PROVIDERS="hosting:${port}", which makes the engine use it; Ctrl-C stops it.`,
    );
  });

  test("started with pipes and no address, as an engine speaking Handshake may, it serves and says nothing", async () => {
    const started = await startPlugin(command(), { noAddress: true });
    try {
      // Its first answer comes after anything it would print on starting.
      expect(await pluginVersion(started.port)).toBe(VERSION);
      expect(started.stderr()).toBe("");
    } finally {
      await started.stop();
    }
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
