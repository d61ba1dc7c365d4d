// make pulumi-cli (scripts/pulumi-cli.sh): the CLI at the pinned version from PATH, the release or a
// build from Go modules, cached by version, saying which and how long; one line when none works.
// Each case but the first runs with a cache of its own and PATH without Go, so none starts a build.
import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathWithout } from "./pathWithout";

const ROOT = resolve(__dirname, "../..");
const SCRIPT = join(ROOT, "scripts/pulumi-cli.sh");
const VERSION = /^PULUMI_VERSION=(\S+)$/m.exec(readFileSync(SCRIPT, "utf8"))![1];

function run(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile("bash", [SCRIPT, ...args], { env }, (err, stdout, stderr) =>
      done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hosting-pulumi-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in executable that prints `version` for `version`. */
function fakeTool(folder: string, name: string, version: string) {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, name), `#!/bin/sh\n[ "$1" = version ] && echo ${version}\nexit 0\n`);
  chmodSync(join(folder, name), 0o755);
  return join(folder, name);
}

const isolated = (extraPath: string[] = []) => ({
  ...process.env,
  PATH: pathWithout(dir, ["go", "pulumi"], extraPath),
  XDG_CACHE_HOME: join(dir, "cache"),
  // A mirror that refuses at once, so no case downloads the release wherever the internet is reachable.
  PULUMI_CLI_RELEASES: "http://127.0.0.1:9/releases",
});

test("the pinned CLI, a second time: from where it was found before, with no build; --bin-dir prints the folder alone", async () => {
  const first = await run([], process.env);
  expect(first).toMatchObject({ code: 0 });
  const again = await run([], process.env);
  expect(again.stdout).toMatch(
    new RegExp(`^pulumi-cli: pulumi v${VERSION.replace(/\./g, "\\.")} from (PATH|the cache)`),
  );
  expect(again.stdout).not.toMatch(/building it from Go modules|a first build/);
  const { stdout, stderr } = await run(["--bin-dir"], process.env);
  const bin = stdout.trim();
  expect(stdout.split("\n").filter(Boolean)).toEqual([bin]);
  expect(existsSync(join(bin, "pulumi")) && existsSync(join(bin, "pulumi-language-yaml"))).toBe(true);
  expect(stderr).toMatch(/^pulumi-cli: pulumi v/);
});

test("a pulumi of the pinned version on PATH is taken, with the hosts beside it", async () => {
  const release = join(dir, "release");
  const cli = fakeTool(release, "pulumi", `v${VERSION}`);
  fakeTool(release, "pulumi-language-yaml", "v1");
  fakeTool(release, "pulumi-language-nodejs", "v1");
  const { code, stdout } = await run([], isolated([release]));
  expect(code).toBe(0);
  expect(stdout).toContain(`pulumi-cli: pulumi v${VERSION} from PATH (${cli}), in `);
  expect(stdout).toContain(
    `pulumi-cli: pulumi-language-yaml beside the CLI (${realpathSync(release)}/pulumi-language-yaml)`,
  );
  expect(stdout).toContain("pulumi-cli: pulumi-language-nodejs beside the CLI");
});

test("a pulumi of another version on PATH is not taken; with no release and no Go, one line says why and what to install", async () => {
  const other = join(dir, "other");
  fakeTool(other, "pulumi", "v3.1.0");
  const { code, stdout, stderr } = await run([], isolated([other]));
  expect(code).toBe(1);
  expect(stdout).toBe("");
  const lines = stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^make pulumi-cli: no Pulumi CLI v${VERSION.replace(/\./g, "\\.")}: none on PATH, downloading http://127\\.0\\.0\\.1:9/releases/pulumi-v.* failed \\(curl: .*\\), and Go is not installed to build it\\. Install the Pulumi CLI v${VERSION.replace(/\./g, "\\.")} \\(https://www\\.pulumi\\.com/docs/install/\\) or Go 1\\.26 or newer \\(https://go\\.dev/doc/install\\), then run make pulumi-cli again\\.$`,
    ),
  );
});
