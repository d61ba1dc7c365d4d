// 26. Rows 5, 7 and 15 counted in instructions: the plugin and the floor (bench/floor/start.ts), each run under
// valgrind's callgrind, which counts every instruction a process executes on all its threads (V8's compiler and
// garbage collector threads included). A count does not move with the machine's load, where CPU time and wall time
// do: on a shared machine this is the comparison to trust. callgrind_control zeroes the counts before the measured
// calls and dumps them after, so start-up and set-up are left out. Measured, each on a plugin and a floor of
// their own:
//   a cold preview of 1,000 (row 5): the preview's Check + Diff pairs, 16 at a time, on a fresh plugin, and the
//     same requests to a fresh floor;
//   one Container Check + Diff at a time (row 5) and the preview's mix of kinds (row 15): 2,000 pairs after 2,000;
//   a refresh of 1,000 with every Read at once (row 7), after one to warm: the plugin's Reads (its list GET
//     included) against the floor carrying the same Reads.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Plugin } from "../test/grpc/engine";
import { shellWord } from "./cliRig";
import { engineSide } from "./engineSide";
import { CONTAINER, floorPlugins, remoteRig, rig, thousands, times, type Row } from "./lib";
import { containerPair, containerReplies, mixPair, preview, replay, type Pair, type SentPreview } from "./overhead";
import { containerStack, readRequest } from "./refresh";

const N = 1_000;
/**
 * Pairs sent to warm each side before its pairs are counted, and pairs counted: with 300 and 1,000, V8's compile jobs
 * of the warm-up still landed in the count or not, and the counts a pair moved by 15% between runs.
 */
const WARM_PAIRS = 2_000;
const PAIRS = 2_000;
const SCRIPT = resolve(__dirname, "../../bin/pulumi-resource-hosting");

/** Plugins under callgrind, their counts written into `dir`. */
class Counted {
  private readonly dir = mkdtempSync(join(tmpdir(), "hosting-instructions-"));

  /** An executable that runs `command` (a Node.js script) under callgrind, for Plugin.start. */
  wrap(name: string, script: string): string {
    const file = join(this.dir, name);
    const out = join(this.dir, `${name}.%p`);
    writeFileSync(
      file,
      `#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=${shellWord(out)} ${shellWord(process.execPath)} ${shellWord(script)} "$@" 2>>${shellWord(join(this.dir, `${name}.log`))}\n`,
    );
    chmodSync(file, 0o755);
    return file;
  }

  /** The instructions `plugin` (started through `wrap(name, …)`) executes while `run` runs. */
  async count(plugin: Plugin, name: string, run: () => Promise<unknown>): Promise<number> {
    const control = (flag: string) => execFileSync("callgrind_control", [flag, String(plugin.pid)], { stdio: "pipe" });
    control("-z");
    await run();
    control("-d");
    const dumps = readdirSync(this.dir)
      .filter((f) => f.startsWith(`${name}.${plugin.pid}.`))
      .sort((a, b) => Number(a.split(".").at(-1)) - Number(b.split(".").at(-1)));
    const text = readFileSync(join(this.dir, dumps.at(-1)!), "utf8");
    const total = /^(?:summary|totals): (\d+)/m.exec(text);
    if (!total) throw new Error(`callgrind wrote no total in ${dumps.at(-1)}`);
    return Number(total[1]);
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const floorReplies = (replies: Record<string, Uint8Array>) => ({
  BENCH_FLOOR_REPLIES: JSON.stringify(
    Object.fromEntries(Object.entries(replies).map(([m, bytes]) => [m, Buffer.from(bytes).toString("base64")])),
  ),
});

async function pairs(plugin: Plugin, pair: Pair, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) await pair(plugin, i);
}

interface Counts {
  plugin: number;
  floor: number;
}

/** Row 5's cold preview and row 5's and 15's pairs. */
async function checkDiff(counted: Counted, floor: string): Promise<Record<string, Counts>> {
  const sent: SentPreview = [];
  const opened = new Opened();
  try {
    const first = await opened.add(rig(), (r) => r.close());
    await preview(first.plugin, N, sent);
    const replies = await containerReplies(first.plugin);
    await opened.close(first);
    const ours = await opened.add(rig({}, { command: counted.wrap("plugin", SCRIPT) }), (r) => r.close());
    const theirs = await opened.add(
      Plugin.start({ command: counted.wrap("floor", floor), env: floorReplies(replies) }),
      (p) => p.stop(),
    );
    const cold = {
      plugin: await counted.count(ours.plugin, "plugin", () => preview(ours.plugin, N)),
      floor: await counted.count(theirs, "floor", () => replay(theirs, sent)),
    };
    const measured: Record<string, Counts> = { cold };
    for (const [name, pair] of [
      ["container", containerPair],
      ["mix", mixPair],
    ] as const) {
      await pairs(ours.plugin, pair, WARM_PAIRS);
      await pairs(theirs, pair, WARM_PAIRS);
      measured[name] = {
        plugin: await counted.count(ours.plugin, "plugin", () => pairs(ours.plugin, pair, PAIRS, WARM_PAIRS)),
        floor: await counted.count(theirs, "floor", () => pairs(theirs, pair, PAIRS, WARM_PAIRS)),
      };
    }
    return measured;
  } finally {
    await opened.closeAll();
  }
}

/** Row 7's refresh of N with every Read at once, after one pass to warm, on each side. */
async function refreshAtOnce(counted: Counted, floor: string): Promise<Counts & { engineSide: string }> {
  const opened = new Opened();
  try {
    const remote = await opened.add(remoteRig([], {}, { command: counted.wrap("plugin-refresh", SCRIPT) }), (r) =>
      r.close(),
    );
    const requests = (await containerStack(remote.sim, remote.plugin, N)).map((r) => readRequest(CONTAINER, r));
    const canned = (await remote.plugin.call<provproto.ReadResponse>("read", requests[0])).serializeBinary();
    const theirs = await opened.add(
      Plugin.start({ command: counted.wrap("floor-refresh", floor), env: floorReplies({ read: canned }) }),
      (p) => p.stop(),
    );
    const ourEngine = await opened.add(engineSide(remote.plugin), (e) => e.close());
    const theirEngine = await opened.add(engineSide(theirs), (e) => e.close());
    const pass = (engine: typeof ourEngine) => () => engine.sendAll("read", requests, requests.length);
    await pass(ourEngine)();
    await pass(theirEngine)();
    return {
      engineSide: ourEngine.name.split(" (")[0],
      plugin: await counted.count(remote.plugin, "plugin-refresh", pass(ourEngine)),
      floor: await counted.count(theirs, "floor-refresh", pass(theirEngine)),
    };
  } finally {
    await opened.closeAll();
  }
}

/**
 * What a measurement has started (plugins, engines, rigs), closed in reverse when it ends, however it ends:
 * a step that throws halfway leaves no process behind. (Node.js 20 has no AsyncDisposableStack.)
 */
class Opened {
  private readonly closers: Array<{ what: unknown; close: () => Promise<unknown> }> = [];

  async add<T>(starting: Promise<T>, close: (what: T) => Promise<unknown>): Promise<T> {
    const what = await starting;
    this.closers.push({ what, close: () => close(what) });
    return what;
  }

  /** Closes one early (the rest stay open). */
  async close(what: unknown): Promise<void> {
    const at = this.closers.findIndex((c) => c.what === what);
    if (at >= 0) await this.closers.splice(at, 1)[0].close();
  }

  async closeAll(): Promise<void> {
    for (const { close } of this.closers.splice(0).reverse()) await close();
  }
}

const giga = (ir: number) => `${(ir / 1e9).toFixed(2)} G`;
const side = (c: Counts, per = 1) =>
  per === 1
    ? `${giga(c.plugin)} against ${giga(c.floor)}`
    : `${thousands(Math.round(c.plugin / per / 1000))}k against ${thousands(Math.round(c.floor / per / 1000))}k a pair`;

export async function instructions(): Promise<Row> {
  if (!existsSync("/usr/bin/valgrind") && !existsSync("/usr/local/bin/valgrind"))
    throw new Error("valgrind is missing: the instruction counts need callgrind (apt-get install valgrind)");
  const counted = new Counted();
  try {
    const { floor } = await floorPlugins();
    const measured = await checkDiff(counted, floor);
    const refresh = await refreshAtOnce(counted, floor);
    const ratio = (c: Counts) => c.plugin / c.floor;
    return {
      id: 26,
      name: `Rows 5, 7 and 15 counted in instructions (callgrind, every thread): the plugin beside the floor, ${thousands(N)} of each`,
      baseline: `the floor, same requests: cold preview ${giga(measured.cold.floor)}; a Container Check + Diff ${thousands(Math.round(measured.container.floor / PAIRS / 1000))}k, the mix's ${thousands(Math.round(measured.mix.floor / PAIRS / 1000))}k; carrying a refresh's Reads at once ${giga(refresh.floor)}`,
      measured: `cold preview ${side(measured.cold)}; Container pairs ${side(measured.container, PAIRS)}; the mix's pairs ${side(measured.mix, PAIRS)}; refresh at once ${side(refresh)} (its list GET included; Reads sent by ${refresh.engineSide})`,
      ratio: `cold preview ${times(ratio(measured.cold))}; Container pair ${times(ratio(measured.container))}; mix pair ${times(ratio(measured.mix))}; refresh ${times(ratio(refresh))}`,
      target: "information: rows 5, 7 and 15's comparisons where the machine's load cannot move them",
      met: true,
      figures: { resources: N, warmPairs: WARM_PAIRS, pairs: PAIRS, ...measured, refresh },
      notes: [
        `Instructions executed by the plugin's process (and the floor's), counted by valgrind's callgrind on every thread, from callgrind_control's zeroing before the measured calls to its dump after. Each side runs on its own fresh process; ${thousands(PAIRS)} pairs after ${thousands(WARM_PAIRS)} to warm, the refresh after one pass.`,
        'Where the plugin\'s excess goes, by thread and by profile: docs/performance.md, "The three floor misses, counted in instructions".',
      ],
    };
  } finally {
    counted.close();
  }
}
