// Shared pieces of the benchmarks: a row of the results table, timing and process figures,
// and the simulator + plugin pair every benchmark drives (the plugin is the built one, spoken
// to over gRPC exactly as the engine does, through test/grpc/engine.ts).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { basename, resolve } from "node:path";
import { createInterface } from "node:readline";
import { ALICE, startSimulator, type SimUser, type Simulator, type SimulatorOptions } from "../simulator/src";
import { Plugin, type PluginOptions } from "../test/grpc/engine";
import { command } from "../scripts/bundles.mjs";
import { buildFloorPlugins } from "../scripts/floor.mjs";
import type { Spread } from "./stats";

import { PROJECT, now } from "./basics";
export { IMAGE, PROJECT, now, processFigures } from "./basics";
export const CONTAINER = "hosting:index:Container";
export const VOLUME = "hosting:index:Volume";
/** The engine's default parallelism on a typical CI box: 4 × GOMAXPROCS, with 4 CPUs. */
export const ENGINE_PARALLELISM = 16;

export type { Row } from "../scripts/bench-table";

export { alternate, median, roundRatios, spread, type Spread } from "./stats";
export const mb = (x: number) => `${x.toFixed(1)} MB`;
export const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? mb(bytes / 1024 / 1024) : `${(bytes / 1024).toFixed(1)} kB`;
export const thousands = (n: number) => n.toLocaleString("en-US");
export const ms = (x: number) =>
  x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : x >= 100 ? `${Math.round(x)} ms` : `${x.toFixed(x < 1 ? 3 : 1)} ms`;
export const times = (x: number) => `${x.toFixed(2)}×`;
/** A ratio over rounds as a row reports it: the median, then the range and the number of rounds. */
export const timesSpread = (s: Spread) =>
  `${times(s.median)} (${s.min.toFixed(2)}–${times(s.max)}, ${s.rounds} rounds)`;
/** A time over rounds: the median, then the range. */
export const msSpread = (s: Spread) => `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** Milliseconds from spawning `command` to its first line on stdout; the process is then killed. */
export function spawnToFirstLine(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "ignore"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    child.once("error", reject);
    createInterface({ input: child.stdout! }).once("line", () => {
      const elapsed = now() - started;
      child.once("exit", () => resolve(elapsed));
      child.kill("SIGKILL");
    });
  });
}

export interface Rig {
  sim: Simulator;
  plugin: Plugin;
  close(): Promise<void>;
}

/** A fresh simulator and a plugin configured as alice against it (or another build of the plugin). */
export async function rig(
  options: SimulatorOptions = {},
  pluginOptions: PluginOptions & { user?: SimUser } = {},
): Promise<Rig> {
  const sim = await startSimulator({ port: 0, ...options });
  const { user = ALICE, ...spawnOptions } = pluginOptions;
  const plugin = await Plugin.start(spawnOptions);
  await plugin.configure({ baseUrl: sim.url, token: user.token, projectId: user.projects[0] });
  return {
    sim,
    plugin,
    close: async () => {
      await plugin.stop();
      await sim.close();
    },
  };
}

/**
 * A simulator in a process of its own (dist/simulator.js), and a plugin configured against it:
 * where the API's CPU must not slow the stand-in engine down, as it does not in real life (a
 * refresh's list GETs of thousands of records keep one process busy for tens of milliseconds).
 */
export interface RemoteRig {
  sim: { url: string };
  plugin: Plugin;
  /** Requests the simulator served with this method and a path matching `path`, since the last clear. */
  served(method: string, path: RegExp): Promise<number>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `simulatorArgs`: more of the simulator's command line; `config`: more of the plugin's configuration; `plugin`: how
 * the plugin is started (another executable, a profiled one).
 */
export async function remoteRig(
  simulatorArgs: string[] = [],
  config: Record<string, unknown> = {},
  plugin: PluginOptions = {},
): Promise<RemoteRig> {
  const args = [resolve(__dirname, "../../dist/simulator.js"), "--port", "0", "--quiet", ...simulatorArgs];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) done(match[1]);
    });
    child.once("exit", (code) => fail(new Error(`the simulator exited (${code})`)));
  });
  const started = await Plugin.start(plugin);
  await started.configure({ baseUrl: url, token: ALICE.token, projectId: PROJECT, ...config });
  const admin = (method: string) => fetch(`${url}/_sim/requests`, { method });
  return {
    sim: { url },
    plugin: started,
    served: async (method, path) =>
      ((await (await admin("GET")).json()) as Array<{ method: string; path: string }>).filter(
        (r) => r.method === method && path.test(r.path),
      ).length,
    clearRequests: async () => void (await admin("DELETE")),
    close: async () => {
      await started.stop();
      child.kill("SIGTERM");
    },
  };
}

/** Run `count` jobs with at most `concurrency` at a time (the engine's parallelism). */
export async function pool<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await job(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** A plain HTTP call to the simulator's API as alice (setting up worlds, and the naive baselines). */
export async function api(
  sim: { url: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(sim.url + path, {
    method,
    headers: {
      authorization: `Bearer ${ALICE.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Requests the simulator served with this method and a path matching `path`. */
export const served = (sim: Simulator, method: string, path: RegExp) =>
  sim.control.requests().filter((r) => r.method === method && path.test(r.path)).length;

/** The path of a project's list of `kind` (containers, volumes), and a pattern that matches only it. */
export const listPath = (kind: string, project = PROJECT) => `/v1/projects/${project}/${kind}`;
export const listPattern = (kind: string, project = PROJECT) => new RegExp(`^${listPath(kind, project)}$`);

/** Bundles a benchmark's own build of the plugin (an entry in bench/) into dist/bench/; returns the executable. */
export async function bundledPlugin(entry: string): Promise<string> {
  const root = resolve(__dirname, "../..");
  const outfile = resolve(root, "dist/bench", basename(entry).replace(/\.ts$/, ""));
  await command(resolve(root, entry), outfile, { packages: "external", sourcemap: false });
  return outfile;
}

/** The floors (scripts/floor.mjs, bench/floor/start.ts), built into dist/bench/ once per run. */
export function floorPlugins(): Promise<{ floor: string; firstStage: string }> {
  return (floorsBuilt ??= buildFloorPlugins(resolve(__dirname, "../../dist/bench")));
}
let floorsBuilt: Promise<{ floor: string; firstStage: string }> | undefined;

/** A fresh floor plugin that answers each method named (grpc-js's name: `read`) with its reply, byte for byte. */
export async function startFloor(replies: Record<string, Uint8Array>): Promise<Plugin> {
  const { floor } = await floorPlugins();
  const base64 = Object.fromEntries(
    Object.entries(replies).map(([method, bytes]) => [method, Buffer.from(bytes).toString("base64")]),
  );
  return Plugin.start({ command: floor, env: { BENCH_FLOOR_REPLIES: JSON.stringify(base64) } });
}

/** The machine a run was made on, as the tables say it. */
export const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node.js ${process.version}, ${process.platform}`;

/** Writes a run's figures to bench/<name> (with the date and the machine), and says so. */
export function writeFigures(name: string, figures: Record<string, unknown>): void {
  const file = resolve(__dirname, "../../bench", name);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), ...figures }, null, 2)}\n`,
  );
  process.stdout.write(`wrote ${file}\n`);
}

/** A benchmark script's entry: runs `main` and exits, 1 with the stack when it fails. */
export function runMain(what: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${what} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
