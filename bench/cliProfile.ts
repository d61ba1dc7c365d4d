// Where the plugin's CPU goes in one command, profiled (`node --cpu-prof` on the development build, bin/):
//   under the real CLI   node scripts/run-ts.mjs bench/cliProfile.ts cli <command> [N]
//                        (command: previewNew, up, previewSame, refresh, destroy; N default 1000) runs the real-CLI
//                        rows' lifecycle (bench/cli.ts) up to that command, with only that command profiled;
//                        (PULUMI_PARALLEL=N in the environment: the engine's parallelism, as `--parallel N`);
//   under the stand-in   node scripts/run-ts.mjs bench/cliProfile.ts standin <preview|pairs|mixPairs|refresh> [N]
//                        drives the plugin as row 5 does (bench/overhead.ts: a cold preview of N, 16 at a time, on a
//                        fresh plugin), as rows 5 and 15 do (N Check + Diff pairs one at a time, after 300 to warm),
//                        or as row 7 does (bench/refresh.ts: a stack of N containers, then three refreshes with every
//                        Read at once, sent by grpc-go where it is installed).
// Prints where the samples fell (bench/profile.ts) and leaves the .cpuprofile files (for Chrome's DevTools) in a
// folder it names. Profiles are proportions, good on a loaded machine too; for totals to compare across runs, count
// instructions (bench/instructions.ts).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS, LIFECYCLE, cliRig, devPlugin, shellWord, type Command } from "./cliRig";
import { engineSide } from "./engineSide";
import { CONTAINER, remoteRig, rig, runMain } from "./lib";
import { containerStack, readRequest, refreshPass } from "./refresh";
import { containerPair, mixPair, preview, type Pair } from "./overhead";
import { profileText, summarizeProfiles } from "./profile";

/** The real CLI's lifecycle of `n` of our resources up to `command`, that command alone profiled, into `dir`. */
async function underCli(command: Command, n: number, dir: string): Promise<void> {
  const steps = `${dir}-setup`;
  // Every plugin process writes a profile when it exits: the steps before the command write theirs elsewhere.
  const rig = await cliRig(
    {
      PULUMI_SKIP_CHECKPOINTS: "true",
      ...(process.env.PULUMI_PARALLEL ? { PULUMI_PARALLEL: process.env.PULUMI_PARALLEL } : {}),
    },
    { plugin: ["sh", "-c", 'exec "$0" --cpu-prof --cpu-prof-dir="$BENCH_PROFILE_DIR" "$@"', ...devPlugin([])] },
  );
  try {
    const project = rig.project("hosting", n);
    for (const step of LIFECYCLE.slice(0, LIFECYCLE.indexOf(command))) {
      process.stderr.write(`profile: ${step} of ${n} (not profiled)…\n`);
      await project.run(step, { BENCH_PROFILE_DIR: steps });
    }
    process.stderr.write(`profile: pulumi ${COMMANDS[command].join(" ")} of ${n}, profiled…\n`);
    const run = await project.run(command, { BENCH_PROFILE_DIR: dir });
    process.stdout.write(
      `pulumi ${COMMANDS[command].join(" ")} of ${n}: wall ${run.wallMs.toFixed(0)} ms, plugin CPU ${run.pluginCpuMs.toFixed(0)} ms (profiled), engine CPU ${run.engineCpuMs} ms, ${run.apiRequests} API requests\n`,
    );
  } finally {
    await rig.close();
    rmSync(steps, { recursive: true, force: true });
  }
}

/** Row 7's refresh of `n` containers with every Read at once, three times, on a plugin started by `command`. */
async function refreshAtOnce(n: number, command: string): Promise<void> {
  const remote = await remoteRig([], {}, { command });
  try {
    const requests = (await containerStack(remote.sim, remote.plugin, n)).map((r) => readRequest(CONTAINER, r));
    const engine = await engineSide(remote.plugin);
    try {
      for (let pass = 0; pass < 3; pass++) {
        const { wallMs, listCalls } = await refreshPass(remote, engine, requests, n);
        process.stdout.write(`refresh of ${n} at once (${engine.name}): ${wallMs.toFixed(0)} ms, ${listCalls} lists\n`);
      }
    } finally {
      await engine.close();
    }
  } finally {
    await remote.close();
  }
}

/** Rows 5, 7 and 15's drivers on a fresh plugin under --cpu-prof, the stand-in engine (test/grpc/engine.ts) sending. */
async function underStandIn(what: string, n: number, dir: string): Promise<void> {
  const wrapper = join(dir, "plugin.sh");
  const profiled = devPlugin(["--cpu-prof", `--cpu-prof-dir=${dir}`])
    .map(shellWord)
    .join(" ");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${profiled} "$@"\n`);
  chmodSync(wrapper, 0o755);
  if (what === "refresh") return refreshAtOnce(n, wrapper);
  const { plugin, close } = await rig({}, { command: wrapper });
  try {
    if (what === "preview") {
      const cost = await preview(plugin, n);
      process.stdout.write(`cold preview of ${n}: plugin CPU ${cost.cpuMs} ms, wall ${cost.wallMs.toFixed(0)} ms\n`);
    } else {
      const pair: Pair = what === "mixPairs" ? mixPair : containerPair;
      for (let i = 0; i < 300 + n; i++) await pair(plugin, i);
      process.stdout.write(
        `${300 + n} ${what === "mixPairs" ? "mix" : "Container"} Check + Diff pairs, one at a time\n`,
      );
    }
  } finally {
    await close();
  }
}

async function main() {
  const [where, what, size] = process.argv.slice(2);
  const n = Number(size ?? 1000);
  const underTheCli = where === "cli" && (LIFECYCLE as string[]).includes(what);
  if (!underTheCli && !(where === "standin" && ["preview", "pairs", "mixPairs", "refresh"].includes(what)))
    throw new Error(
      "usage: bench/cliProfile.ts cli <previewNew|up|previewSame|refresh|destroy> [N] | standin <preview|pairs|mixPairs|refresh> [N]",
    );
  const dir = mkdtempSync(join(tmpdir(), "hosting-profile-"));
  if (underTheCli) await underCli(what as Command, n, dir);
  else await underStandIn(what, n, dir);
  process.stdout.write(`${profileText(summarizeProfiles(dir))}\nprofiles: ${dir}\n`);
}

runMain("profile", main);
