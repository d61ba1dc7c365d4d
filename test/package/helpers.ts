// What the packaging tests share: where `make build` and `make package` leave the plugin, and a
// plugin process started the engine's way, spoken to over gRPC.
import * as grpc from "@grpc/grpc-js";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";

export const ROOT = resolve(__dirname, "../..");
export const VERSION: string = require("../../package.json").version;

/** Pulumi's names for this machine, as in the archive's name (scripts/package.mjs). */
export const OS = ({ linux: "linux", darwin: "darwin", win32: "windows" } as Record<string, string>)[process.platform];
export const ARCH = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
export const EXE = process.platform === "win32" ? "pulumi-resource-hosting.exe" : "pulumi-resource-hosting";
export const SCRIPT_PLUGIN = join(ROOT, "bin/pulumi-resource-hosting");
export const SINGLE_EXECUTABLE = join(ROOT, "dist", EXE);
export const ARCHIVE = join(ROOT, `dist/pulumi-resource-hosting-v${VERSION}-${OS}-${ARCH}.tar.gz`);

/** `make test` builds both before jest starts; run alone, a test says what to build. */
export function built(file: string, target: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: run make ${target} first (make test does)`);
  return file;
}

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** `git` in `cwd`, its output as text. */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

/**
 * The repository as a clone of this working tree would have it (its tracked files and the new ones
 * .gitignore does not exclude, nothing built, no node_modules), in a fresh git repository with one
 * commit: `git status --porcelain` then lists what a command left behind.
 */
export function repositoryCopy(prefix: string): string {
  const dir = tempDir(prefix);
  const files = git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0").filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "copy");
  return dir;
}

export interface Started {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  stop(): Promise<void>;
}

/**
 * Starts a plugin as the engine does (`<plugin> [args] <engine address>`, or with no address, as an engine that
 * speaks Handshake may) and reads its port line.
 */
export async function startPlugin(
  command: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv; cwd?: string; noAddress?: boolean } = {},
): Promise<Started> {
  const child = spawn(command, [...(options.args ?? []), ...(options.noAddress ? [] : ["127.0.0.1:1"])], {
    cwd: options.cwd,
    // No engine answers at 127.0.0.1:1: the plugin's first check that it is still there (after 5 s) would end it.
    env: { HOSTING_ENGINE_CHECK_SECONDS: "86400", ...(options.env ?? { PATH: process.env.PATH }) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const line = await new Promise<string>((res, rej) => {
    createInterface({ input: child.stdout! }).once("line", res);
    child.once("error", rej);
    child.once("exit", (code) => rej(new Error(`${command} exited (${code}) before printing its port: ${stderr}`)));
  });
  expect(line).toMatch(/^\d+$/);
  return {
    child,
    port: Number(line),
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((res) => child.once("exit", res));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** A ResourceProvider client for a plugin's port. */
export function client(port: number) {
  return new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

/** GetPluginInfo's version, or the gRPC error. */
export function pluginVersion(port: number): Promise<string> {
  const c = client(port);
  return new Promise<string>((res, rej) =>
    c.getPluginInfo(new Empty(), (err, info) => (err ? rej(err) : res(info!.getVersion()))),
  ).finally(() => c.close());
}

/** Starts a plugin, asks its version (GetPluginInfo) and stops it. */
export async function startedVersion(
  command: string,
  options: Parameters<typeof startPlugin>[1] = {},
): Promise<string> {
  const started = await startPlugin(command, options);
  try {
    return await pluginVersion(started.port);
  } finally {
    await started.stop();
  }
}
