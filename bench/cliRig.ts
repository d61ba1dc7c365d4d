// The real `pulumi` CLI (make pulumi-cli) driving our provider and a Go peer side by side, for the
// real-CLI rows (bench/cli.ts). Each side is a YAML project of N resources of one shape, run by the
// CLI in its folder (pulumi-language-yaml, the same language host for both), on a file backend, in one
// Pulumi home holding both plugins, against one simulator in a process of its own (dist/simulator.js).
//
// What a command costs, and where each figure comes from:
// - wall: from spawning `pulumi` to its exit;
// - the engine's CPU: the `pulumi` process's own user + system time (its threads, not its children), read
//   from /proc/<pid>/stat every 10 ms while it runs: the last reading, at most 10 ms before it exits;
// - each plugin's CPU and peak RSS: the engine starts `pulumi-resource-<name>`, which here is a wrapper
//   that runs the plugin under GNU time (/usr/bin/time), which writes the plugin's rusage when it exits
//   (the engine interrupts its plugins when it is done, and time waits for its child); the engine may
//   start a plugin more than once in a command (its schema for the language host, then the deployment):
//   CPU is their sum, peak RSS the largest;
// - the simulator's CPU (our provider's API calls) from /proc/<pid>/stat before and after, and the
//   requests it served from its log (`/_sim/requests`).
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { ALICE } from "../simulator/src/defaults";
import { IMAGE, PROJECT, now, processFigures } from "./basics";

const ROOT = resolve(__dirname, "../..");
const VERSION: string = require("../package.json").version;
/** The peer's version, as scripts/bench-peer.sh builds it (its plugin folder is named by it). */
const peerVersion = () => /^PEER_VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, "scripts/bench-peer.sh"), "utf8"))![1];
const STACK = "bench";
const TIME = "/usr/bin/time";
/** How often the engine's CPU is read while it runs. */
const SAMPLE_MS = 10;

/** The two providers a real-CLI row compares. */
export type SideName = "hosting" | "peer";
export const RESOURCE_TYPE: Record<SideName, string> = {
  hosting: "hosting:index:Container",
  peer: "benchpeer:index:Container",
};

/** The commands of a row, as the CLI runs them (`up`, `refresh` and `destroy` without their own preview). */
export const COMMANDS = {
  previewNew: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  previewSame: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
} as const;
export type Command = keyof typeof COMMANDS;
/** A lifecycle's commands, in order. */
export const LIFECYCLE = Object.keys(COMMANDS) as Command[];

/** What the summary of each command must say for `n` resources (and the stack), else the run failed. */
const SUMMARY: Record<Command, (n: number) => RegExp> = {
  previewNew: (n) => new RegExp(`\\+ ${n + 1} to create\\b`),
  up: (n) => new RegExp(`\\+ ${n + 1} created\\b`),
  previewSame: (n) => new RegExp(`\\b${n + 1} unchanged\\b`),
  refresh: (n) => new RegExp(`\\b${n + 1} unchanged\\b`),
  destroy: (n) => new RegExp(`- ${n + 1} deleted\\b`),
};

/** One command's cost. */
export interface CliRun {
  wallMs: number;
  engineCpuMs: number;
  /** The engine's peak RSS (VmHWM at its last reading). */
  engineRssMb: number;
  pluginCpuMs: number;
  pluginRssMb: number;
  /** Plugin processes the engine started for the command. */
  pluginProcesses: number;
  /** Requests the simulator served during the command, and its CPU meanwhile. */
  apiRequests: number;
  /** The requests by method and path (ids as `{id}`), most first. */
  apiCalls: Record<string, number>;
  simulatorCpuMs: number;
}

/** A YAML program of `n` resources of one shape: what the rows measure, the same for both providers. */
export function yamlProgram(side: SideName, n: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    resources[`app-${i}`] = {
      type: RESOURCE_TYPE[side],
      properties: { name: `app-${i}`, image: IMAGE, env: { MODE: "production", INDEX: String(i) } },
    };
  }
  return { name: `bench-${side}-${n}`, runtime: "yaml", resources };
}

/** A shell script that runs the plugin (a command line) under GNU time, its rusage written into $BENCH_PLUGIN_USAGE. */
const wrapper = (name: string, plugin: string[]) =>
  `#!/bin/sh\n# bench/cliRig.ts: the plugin under GNU time, which writes its CPU and peak RSS when it exits.\nexec ${TIME} -f '%e %U %S %M' -o "$BENCH_PLUGIN_USAGE/${name}.$$" ${plugin.map(shellWord).join(" ")} "$@"\n`;

/** `word` quoted for sh, as it is. */
export const shellWord = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

function installWrapped(home: string, kind: string, version: string, name: string, plugin: string[]): void {
  const dir = join(home, "plugins", `resource-${kind}-v${version}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, wrapper(name, plugin));
  chmodSync(file, 0o755);
}

/** Our plugin as users install it (the single executable), else why not. */
function ourPlugin(): string {
  const plugin = join(ROOT, "dist/pulumi-resource-hosting");
  if (!existsSync(plugin))
    throw new Error(
      `${plugin} is missing: run make package first (the real-CLI rows run the single executable users install)`,
    );
  return plugin;
}

const command = (file: string, args: string[]) =>
  execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The development build (bin/, `make build`), as a command line: node with `nodeArgs`, and the script. */
export function devPlugin(nodeArgs: string[]): string[] {
  const script = join(ROOT, "bin/pulumi-resource-hosting");
  if (!existsSync(script)) throw new Error(`${script} is missing: run make build first`);
  return [process.execPath, ...nodeArgs, script];
}

/** The CLI's folder (scripts/pulumi-cli.sh) and the peer (scripts/bench-peer.sh), each built once and cached. */
export function cliTools(): { binDir: string; peer: string } {
  if (!existsSync(TIME))
    throw new Error(
      `${TIME} (GNU time) is missing: the real-CLI rows read each plugin's CPU and peak RSS with it (apt-get install time)`,
    );
  return {
    binDir: command(join(ROOT, "scripts/pulumi-cli.sh"), ["--bin-dir"]),
    peer: command(join(ROOT, "scripts/bench-peer.sh"), []),
  };
}

export interface CliRig {
  work: string;
  /** The CLI, the peer and our plugin's command line (the single executable), as the rows name them. */
  tools: { binDir: string; peer: string; plugin: string[]; cliVersion: string };
  /** A side's project of `n` resources, its stack created (empty). */
  project(side: SideName, n: number): CliProject;
  close(): Promise<void>;
}

export interface CliProject {
  side: SideName;
  n: number;
  /** Runs one command (with `env` added to its environment), checks its summary, and returns what it cost. */
  run(command: Command, env?: Record<string, string>): Promise<CliRun>;
}

/**
 * A simulator in a process of its own, a Pulumi home holding both plugins (each behind its GNU time wrapper),
 * a file backend, and projects made on demand. `env` is added to every command's environment.
 */
export async function cliRig(
  env: Record<string, string> = {},
  { plugin = [ourPlugin()] }: { plugin?: string[] } = {},
): Promise<CliRig> {
  const tools = cliTools();
  const work = mkdtempSync(join(tmpdir(), "hosting-bench-cli-"));
  const home = join(work, "pulumi-home");
  let sim: SimulatorProcess | undefined;
  try {
    mkdirSync(join(work, "state"), { recursive: true });
    installWrapped(home, "hosting", VERSION, "pulumi-resource-hosting", plugin);
    installWrapped(home, "benchpeer", peerVersion(), "pulumi-resource-benchpeer", [tools.peer]);
    sim = await simulatorProcess();
    return rigOn(work, sim, env, { ...tools, plugin });
  } catch (err) {
    await sim?.close();
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

/** The rig in `work`, its Pulumi home and simulator made. */
function rigOn(
  work: string,
  sim: SimulatorProcess,
  env: Record<string, string>,
  tools: { binDir: string; peer: string; plugin: string[] },
): CliRig {
  const home = join(work, "pulumi-home");
  const usage = join(work, "usage");
  const baseEnv: Record<string, string> = {
    PATH: `${tools.binDir}:${process.env.PATH}`,
    HOME: process.env.HOME ?? work,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${join(work, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    HOSTING_BASE_URL: sim.url,
    HOSTING_TOKEN: ALICE.token,
    HOSTING_PROJECT_ID: PROJECT,
    BENCH_PLUGIN_USAGE: usage,
    ...env,
  };
  const pulumi = join(tools.binDir, "pulumi");
  const cliVersion = command(pulumi, ["version"]);

  const project = (side: SideName, n: number): CliProject => {
    const dir = join(work, "projects", `${side}-${n}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "Pulumi.yaml"), JSON.stringify(yamlProgram(side, n)));
    let created = false;
    return {
      side,
      n,
      async run(name, more = {}) {
        const runEnv = { ...baseEnv, ...more };
        if (!created) {
          await runCli(pulumi, ["stack", "init", STACK, "--non-interactive"], dir, runEnv);
          created = true;
        }
        rmSync(usage, { recursive: true, force: true });
        mkdirSync(usage);
        await sim.clearRequests();
        const simBefore = processFigures(sim.pid).cpuMs;
        const cli = await runCli(pulumi, [...COMMANDS[name], "--non-interactive", "--stack", STACK], dir, runEnv);
        const simulatorCpuMs = processFigures(sim.pid).cpuMs - simBefore;
        if (!SUMMARY[name](n).test(cli.stdout)) {
          throw new Error(
            `pulumi ${COMMANDS[name].join(" ")} of ${n} ${side} resources did not end as expected (${SUMMARY[name](n)}), exit ${cli.code}:\n${tail(cli.stdout)}\n${tail(cli.stderr)}`,
          );
        }
        const plugins = pluginUsage(usage);
        return {
          wallMs: cli.wallMs,
          engineCpuMs: cli.cpuMs,
          engineRssMb: cli.rssMb,
          pluginCpuMs: plugins.cpuMs,
          pluginRssMb: plugins.rssMb,
          pluginProcesses: plugins.processes,
          ...(await sim.requests()),
          simulatorCpuMs,
        };
      },
    };
  };

  return {
    work,
    tools: { ...tools, cliVersion },
    project,
    close: async () => {
      await sim.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The last lines of a command's output, each cut at 300 characters (an error may quote the whole program). */
const tail = (text: string) =>
  text
    .split("\n")
    .slice(-30)
    .map((line) => line.slice(0, 300))
    .join("\n");

/** Each plugin process's rusage, as its wrapper's GNU time wrote it: `elapsed user system maxrss(kB)`, last line. */
function pluginUsage(dir: string): { cpuMs: number; rssMb: number; processes: number } {
  const files = readdirSync(dir);
  if (files.length === 0) throw new Error(`no plugin wrote its usage into ${dir}: the engine started none`);
  let cpuMs = 0;
  let rssMb = 0;
  for (const file of files) {
    const last = readFileSync(join(dir, file), "utf8").trim().split("\n").at(-1) ?? "";
    const [, user, system, maxKb] = last.split(" ").map(Number);
    if (![user, system, maxKb].every(Number.isFinite)) throw new Error(`${file}'s usage is unreadable: ${last}`);
    cpuMs += (user + system) * 1000;
    rssMb = Math.max(rssMb, maxKb / 1024);
  }
  return { cpuMs, rssMb, processes: files.length };
}

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  cpuMs: number;
  rssMb: number;
}

/** `pulumi <args>` in `cwd`: its output, its wall time, and its own CPU and peak RSS (read from /proc as it runs). */
function runCli(pulumi: string, args: string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((done, fail) => {
    const started = now();
    const child = spawn(pulumi, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    // A reading after it has exited, before it is reaped (a zombie), still has its CPU, but no memory figures.
    const last = { cpuMs: 0, rssMb: 0 };
    const read = () => {
      try {
        last.cpuMs = processFigures(child.pid!).cpuMs;
        last.rssMb = Math.max(last.rssMb, peakRss(child.pid!) || 0);
      } catch {
        // it has been reaped between two readings: the last one stands
      }
    };
    const sampling = setInterval(read, SAMPLE_MS);
    child.once("error", (err) => {
      clearInterval(sampling);
      fail(err);
    });
    child.once("close", (code) => {
      clearInterval(sampling);
      const result = {
        code: code ?? 1,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
        wallMs: now() - started,
        ...last,
      };
      if (result.code !== 0 && args[0] === "stack")
        fail(new Error(`pulumi ${args.join(" ")} failed: ${result.stderr}`));
      else done(result);
    });
  });
}

/** A process's peak resident memory so far (VmHWM), from /proc. */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

interface SimulatorProcess {
  url: string;
  pid: number;
  requests(): Promise<{ apiRequests: number; apiCalls: Record<string, number> }>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

/** dist/simulator.js in a process of its own, so that its CPU is its own and measurable. */
async function simulatorProcess(): Promise<SimulatorProcess> {
  const script = join(ROOT, "dist/simulator.js");
  const child = spawn(process.execPath, [script, "--port", "0", "--quiet"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) done(match[1]);
    });
    child.once("exit", (code) => fail(new Error(`the simulator exited (${code})`)));
  });
  const admin = (method: string) => fetch(`${url}/_sim/requests`, { method });
  return {
    url,
    pid: child.pid!,
    requests: async () => {
      const served = (await (await admin("GET")).json()) as Array<{ method: string; path: string }>;
      const calls: Record<string, number> = {};
      for (const { method, path } of served) {
        const key = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "{id}")}`;
        calls[key] = (calls[key] ?? 0) + 1;
      }
      const apiCalls = Object.fromEntries(Object.entries(calls).sort((a, b) => b[1] - a[1]));
      return { apiRequests: served.length, apiCalls };
    },
    clearRequests: async () => void (await admin("DELETE")),
    close: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
