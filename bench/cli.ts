// 19–25. Performance as users feel it: the real `pulumi` CLI (make pulumi-cli) running a YAML program of
// N resources of one shape, once with our provider (hosting:index:Container) and once with a Go peer
// (tools/bench-peer: pulumi-go-provider's infer package, a resource with the Container's inputs and
// outputs that calls no API), alternated command by command (bench/stats.ts `alternate`: A B, B A).
// bench/cliRig.ts says where each figure comes from.
//   19 `pulumi preview` of N new resources    20 a no-change `pulumi preview` of N existing ones
//   21 `pulumi refresh` of N                  22 `pulumi up` of N creates (simulator, no rate limit)
//   23 `pulumi destroy` of N
// each at 1,000 (and 100, for the growth), with the state written once at the end
// (PULUMI_SKIP_CHECKPOINTS=true, what a backend with a journal costs per step);
//   24 the growth from 100 to 1,000 to 5,000, every command, one round;
//   25 the five commands at 1,000 with the file backend's default checkpoints, one round, as information.
// Where our provider calls the API and the peer calls none, the peer's wall time is counted with the
// simulator's own CPU for our calls (its process's, from /proc, while our command ran).
import { cpus } from "node:os";
import { COMMANDS, LIFECYCLE, cliRig, type CliProject, type CliRun, type Command, type SideName } from "./cliRig";
import { alternate, ms, mb, roundRatios, spread, thousands, times, timesSpread, type Row, type Spread } from "./lib";

/** The sizes: `BENCH_CLI=small,n,large` (default 100,1000,5000) scales every row, to try the rows quickly. */
const [SMALL, N, LARGE] = (process.env.BENCH_CLI ?? "100,1000,5000").split(",").map(Number);
const ROUNDS = 4;
const WALL_OVER_PEER = 1.1;
const PLUGIN_CPU_OVER_PEER = 2;
/** Linear growth from 1,000 to 5,000 is 5×; the curve's target allows a tenth more. */
const LINEAR_ALLOWANCE = 1.1;
/** The engine's default parallelism: 4 × GOMAXPROCS. */
const PARALLEL = 4 * cpus().length;
const SKIP_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };

type Runs = Record<Command, CliRun[]>;

/**
 * `rounds` lifecycles of both sides in lockstep, one command at a time: the sides alternate command by command
 * (`alternate`'s rounds are commands here: previewNew A B, up B A, previewSame A B, …; with five commands a
 * lifecycle, each command's order flips from one lifecycle to the next).
 */
async function lifecycles(projects: Record<SideName, CliProject>, rounds: number): Promise<Record<SideName, Runs>> {
  const next = (project: CliProject) => {
    let step = 0;
    return () => project.run(LIFECYCLE[step++ % LIFECYCLE.length]);
  };
  const figures = await alternate(rounds * LIFECYCLE.length, {
    hosting: next(projects.hosting),
    peer: next(projects.peer),
  });
  const byCommand = (runs: CliRun[]) =>
    Object.fromEntries(
      LIFECYCLE.map((command, i) => [command, runs.filter((_, j) => j % LIFECYCLE.length === i)]),
    ) as Runs;
  return { hosting: byCommand(figures.hosting), peer: byCommand(figures.peer) };
}

const NAMES: Record<Command, { id: number; name: (n: number) => string }> = {
  previewNew: { id: 19, name: (n) => `\`pulumi preview\` of ${thousands(n)} new resources` },
  previewSame: { id: 20, name: (n) => `a no-change \`pulumi preview\` of ${thousands(n)} existing resources` },
  refresh: { id: 21, name: (n) => `\`pulumi refresh\` of ${thousands(n)} resources` },
  up: { id: 22, name: (n) => `\`pulumi up\` of ${thousands(n)} creates (the simulator, no rate limit)` },
  destroy: { id: 23, name: (n) => `\`pulumi destroy\` of ${thousands(n)} resources` },
};

const field = (runs: CliRun[], pick: (run: CliRun) => number): Spread => spread(runs.map(pick));
const range = (s: Spread, format: (x: number) => string) => `${format(s.median)} (${format(s.min)}–${format(s.max)})`;

/** The peer's wall time plus the simulator's CPU for our provider's API calls in the same round (none in a preview). */
const peerBaselineMs = (hosting: CliRun[], peer: CliRun[]) => peer.map((p, i) => p.wallMs + hosting[i].simulatorCpuMs);

function summary(runs: CliRun[]): Record<string, Spread> {
  return {
    wallMs: field(runs, (r) => r.wallMs),
    engineCpuMs: field(runs, (r) => r.engineCpuMs),
    engineRssMb: field(runs, (r) => r.engineRssMb),
    pluginCpuMs: field(runs, (r) => r.pluginCpuMs),
    pluginRssMb: field(runs, (r) => r.pluginRssMb),
    apiRequests: field(runs, (r) => r.apiRequests),
    simulatorCpuMs: field(runs, (r) => r.simulatorCpuMs),
  };
}

const sideText = (s: Record<string, Spread>) =>
  `wall ${range(s.wallMs, ms)}, plugin CPU ${range(s.pluginCpuMs, ms)}, plugin peak RSS ${mb(s.pluginRssMb.median)}, engine CPU ${range(s.engineCpuMs, ms)}`;

const calls = (run: CliRun) =>
  Object.entries(run.apiCalls)
    .map(([call, count]) => `${thousands(count)} × ${call}`)
    .join(", ");
const count = (s: Spread) => thousands(Math.round(s.median));

/** Rows 19–23: each command at N, beside the peer, and its growth from SMALL. */
function commandRow(command: Command, at: Record<SideName, Runs>, small: Record<SideName, Runs>, tools: string): Row {
  const hosting = at.hosting[command];
  const peer = at.peer[command];
  const callsApi = hosting.some((r) => r.apiRequests > 0);
  const wallRatio = roundRatios(
    hosting.map((r) => r.wallMs),
    peerBaselineMs(hosting, peer),
  );
  const cpuRatio = roundRatios(
    hosting.map((r) => r.pluginCpuMs),
    peer.map((r) => r.pluginCpuMs),
  );
  const ours = summary(hosting);
  const theirs = summary(peer);
  const growth = (side: SideName, pick: (r: CliRun) => number) =>
    spread(at[side][command].map(pick)).median / spread(small[side][command].map(pick)).median;
  const growthText = `from ${thousands(SMALL)}: wall ×${growth("hosting", (r) => r.wallMs).toFixed(1)} (peer ×${growth("peer", (r) => r.wallMs).toFixed(1)}), plugin CPU ×${growth("hosting", (r) => r.pluginCpuMs).toFixed(1)} (peer ×${growth("peer", (r) => r.pluginCpuMs).toFixed(1)})`;
  const api = callsApi
    ? ` + the simulator's CPU for our calls ${range(ours.simulatorCpuMs, ms)} (${count(ours.apiRequests)} requests)`
    : "";
  return {
    id: NAMES[command].id,
    name: `${NAMES[command].name(N)}: the real CLI, our provider beside a Go peer (P = ${PARALLEL}, state written at the end)`,
    baseline: `Go peer (pulumi-go-provider infer, no API): ${sideText(theirs)}${api}`,
    measured: `${sideText(ours)}; ${growthText}`,
    ratio: `wall ${timesSpread(wallRatio)} the peer${callsApi ? " + API" : ""}; plugin CPU ${timesSpread(cpuRatio)}`,
    target: `wall ≤ ${WALL_OVER_PEER}× the peer's${callsApi ? " + the API's" : ""}, plugin CPU ≤ ${PLUGIN_CPU_OVER_PEER}× the peer plugin's`,
    met: wallRatio.median <= WALL_OVER_PEER && cpuRatio.median <= PLUGIN_CPU_OVER_PEER,
    figures: {
      resources: N,
      command: `pulumi ${COMMANDS[command].join(" ")}`,
      parallel: PARALLEL,
      rounds: ROUNDS,
      tools,
      hosting: { ...ours, runs: hosting },
      peer: { ...theirs, runs: peer },
      wallRatio,
      pluginCpuRatio: cpuRatio,
      growthFrom: SMALL,
      small: { hosting: summary(small.hosting[command]), peer: summary(small.peer[command]) },
    },
    notes: [
      `Where the wall time goes (medians): ours ${ms(ours.wallMs.median)} with ${ms(ours.engineCpuMs.median)} of engine CPU, ${ms(ours.pluginCpuMs.median)} of plugin CPU${callsApi ? ` and ${ms(ours.simulatorCpuMs.median)} of the simulator's` : ""}; the peer ${ms(theirs.wallMs.median)} with ${ms(theirs.engineCpuMs.median)} of engine CPU and ${ms(theirs.pluginCpuMs.median)} of plugin CPU (${cpus().length} cores; the language host, pulumi-language-yaml, runs the same program for both).`,
      `The plugin's profile in this command: \`node scripts/run-ts.mjs bench/cliProfile.ts cli ${command} ${N}\`; what it shows: docs/performance.md, "The real CLI's rows, read".`,
      `${tools}. ${ROUNDS} rounds, the two sides alternated command by command (A B, B A, A B, B A). ${callsApi ? `Our provider's API calls in the first round: ${calls(hosting[0])}; the peer calls none, so its wall time is counted with the simulator's CPU for ours (the simulator's process, from /proc, while our command ran).` : "Neither provider calls the API."}`,
    ],
  };
}

const toolsText = (rig: Awaited<ReturnType<typeof cliRig>>) =>
  `pulumi ${rig.tools.cliVersion} and pulumi-language-yaml (make pulumi-cli), a file backend, our single executable (dist/) against the simulator in a process of its own`;

/** Rows 19–23. */
export async function cliCommands(): Promise<Row[]> {
  const rig = await cliRig(SKIP_CHECKPOINTS);
  try {
    const small = await lifecycles(
      { hosting: rig.project("hosting", SMALL), peer: rig.project("peer", SMALL) },
      ROUNDS,
    );
    const at = await lifecycles({ hosting: rig.project("hosting", N), peer: rig.project("peer", N) }, ROUNDS);
    return (["previewNew", "previewSame", "refresh", "up", "destroy"] as Command[]).map((command) =>
      commandRow(command, at, small, toolsText(rig)),
    );
  } finally {
    await rig.close();
  }
}

/** Row 24: every command at 100, 1,000 and 5,000 resources, one lifecycle a side at each size. */
export async function cliCurve(): Promise<Row> {
  const rig = await cliRig(SKIP_CHECKPOINTS);
  try {
    const sizes = [SMALL, N, LARGE];
    const points: Array<{ size: number; runs: Record<SideName, Runs> }> = [];
    for (const size of sizes) {
      points.push({
        size,
        runs: await lifecycles({ hosting: rig.project("hosting", size), peer: rig.project("peer", size) }, 1),
      });
    }
    const at = (size: number, side: SideName, command: Command) =>
      points.find((p) => p.size === size)!.runs[side][command][0];
    const growth = (side: SideName, command: Command, pick: (r: CliRun) => number) =>
      pick(at(LARGE, side, command)) / pick(at(N, side, command));
    const limit = (LARGE / N) * LINEAR_ALLOWANCE;
    const worst = LIFECYCLE.map((command) => ({
      command,
      wall: growth("hosting", command, (r) => r.wallMs),
      cpu: growth("hosting", command, (r) => r.pluginCpuMs),
    }));
    const line = (side: SideName) =>
      LIFECYCLE.map(
        (command) =>
          `${command}: ${sizes.map((size) => ms(at(size, side, command).wallMs)).join(" → ")} (plugin CPU ${sizes.map((size) => ms(at(size, side, command).pluginCpuMs)).join(" → ")}, peak RSS ${mb(at(LARGE, side, command).pluginRssMb)} at ${thousands(LARGE)})`,
      ).join("; ");
    return {
      id: 24,
      name: `The real CLI's five commands at ${sizes.map(thousands).join(", ")} resources: how the time grows (one lifecycle a side at each size, state written at the end)`,
      baseline: `Go peer: ${line("peer")}`,
      measured: `ours: ${line("hosting")}`,
      ratio: `${worst.map((w) => `${w.command} ×${w.wall.toFixed(1)} wall, ×${w.cpu.toFixed(1)} CPU`).join("; ")} from ${thousands(N)} to ${thousands(LARGE)}`,
      target: `at most linear from ${thousands(N)} to ${thousands(LARGE)}: wall and plugin CPU ≤ ${limit.toFixed(1)}×`,
      met: worst.every((w) => w.wall <= limit && w.cpu <= limit),
      figures: { sizes, parallel: PARALLEL, points, tools: toolsText(rig) },
      notes: [`${toolsText(rig)}. One lifecycle a side at each size, the sides alternated command by command.`],
    };
  } finally {
    await rig.close();
  }
}

/** Row 25: the five commands at 1,000 with the file backend's default checkpoints (the state written at every step). */
export async function cliCheckpoints(): Promise<Row> {
  const rig = await cliRig();
  try {
    const runs = await lifecycles({ hosting: rig.project("hosting", N), peer: rig.project("peer", N) }, 1);
    const line = (side: SideName) =>
      LIFECYCLE.map((command) => {
        const r = runs[side][command][0];
        return `${command} ${ms(r.wallMs)} (engine CPU ${ms(r.engineCpuMs)}, plugin CPU ${ms(r.pluginCpuMs)})`;
      }).join("; ");
    const ratios = LIFECYCLE.map((command) => ({
      command,
      wall: runs.hosting[command][0].wallMs / (runs.peer[command][0].wallMs + runs.hosting[command][0].simulatorCpuMs),
    }));
    return {
      id: 25,
      name: `The same five commands at ${thousands(N)} with the CLI's defaults on a file backend (the whole state written after every step), one round, information`,
      baseline: `Go peer: ${line("peer")}`,
      measured: `ours: ${line("hosting")}`,
      ratio: `${ratios.map((r) => `${r.command} ${times(r.wall)}`).join("; ")} the peer's wall (+ API)`,
      target: "information: what rows 19–23 leave out",
      met: true,
      figures: { resources: N, parallel: PARALLEL, runs, tools: toolsText(rig) },
      notes: [
        `${toolsText(rig)}, without PULUMI_SKIP_CHECKPOINTS. One round, the sides alternated command by command (previewNew A B, up B A, …).`,
      ],
    };
  } finally {
    await rig.close();
  }
}
