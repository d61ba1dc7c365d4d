// 3. Volume readiness for simulated provisioning of 1 s, 10 s and 60 s, run for real (the three
// creates overlap, so the whole row takes about a minute): the time from the volume turning
// `running` (the simulator's ready-at moment) to Create returning, and the GETs it took.
// Beside it, the same figures computed for Render's schedule (3 s growing ×1.2 to 15 s).
import { nextPollDelayMs } from "../provider/src/framework/polling";
import { PROJECT, VOLUME, ms, rig, sleep, type Row } from "./lib";

const CASES_MS = [60_000, 10_000, 1_000];

interface Case {
  provisioningMs: number;
  latencyMs: number;
  gets: number;
  allowedMs: number;
  status: unknown;
}

/** Polls at 0 and then after `delay(elapsed)`: when is readiness at `readyMs` seen, after how many GETs? */
export function simulateSchedule(readyMs: number, delay: (elapsedMs: number) => number) {
  let t = 0;
  let gets = 1;
  while (t < readyMs) {
    t += delay(t);
    gets++;
  }
  return { latencyMs: t - readyMs, gets };
}

export const renderDelay = (() => {
  // Render: 3 s, growing ×1.2 per poll, capped at 15 s (a function of the poll count, not of time).
  return (elapsedMs: number) => {
    let d = 3_000;
    let at = 0;
    while (at + d <= elapsedMs) {
      at += d;
      d = Math.min(15_000, d * 1.2);
    }
    return d;
  };
})();

export async function volume(): Promise<Row> {
  const { sim, plugin, close } = await rig({ volumeProvisioningMs: CASES_MS[0] });
  try {
    const runs: Array<Promise<Case>> = [];
    for (const provisioningMs of CASES_MS) {
      sim.control.setSwitches({ volumeProvisioningMs: provisioningMs });
      const name = `wait-${provisioningMs / 1000}s`;
      const { inputs } = await plugin.check(VOLUME, name, { name, sizeGb: 1 });
      const creating = plugin.create(VOLUME, name, inputs);
      // The simulator fixes the ready-at moment when it accepts the POST; read it from its state.
      let readyAt: number | null = null;
      for (let i = 0; i < 200 && readyAt === null; i++) {
        readyAt = sim.control.snapshot().volumes.find((v) => v.name === name)?.ready_at ?? null;
        if (readyAt === null) await sleep(5);
      }
      if (readyAt === null) throw new Error(`volume ${name} never appeared`);
      const ready = readyAt;
      runs.push(
        creating.then((created) => {
          const returnedAt = Date.now();
          const path = `/v1/projects/${PROJECT}/volumes/${created.id}`;
          const gets = sim.control.requests().filter((r) => r.method === "GET" && r.path === path).length;
          return {
            provisioningMs,
            latencyMs: returnedAt - ready,
            gets,
            allowedMs: Math.max(250, provisioningMs * 0.1),
            status: created.properties.status,
          };
        }),
      );
    }
    const cases = (await Promise.all(runs)).sort((a, b) => a.provisioningMs - b.provisioningMs);
    const latencyMet = cases.every((c) => c.latencyMs <= c.allowedMs && c.status === "running");
    const long = cases.find((c) => c.provisioningMs === 60_000)!;
    const render = cases.map((c) => ({ provisioningMs: c.provisioningMs, ...simulateSchedule(c.provisioningMs, renderDelay) }));
    const ours = cases.map((c) => ({ provisioningMs: c.provisioningMs, ...simulateSchedule(c.provisioningMs, (e) => nextPollDelayMs(e)) }));
    const say = (xs: Array<{ provisioningMs: number; latencyMs: number; gets: number }>) =>
      xs.map((c) => `${c.provisioningMs / 1000} s: +${ms(c.latencyMs)}, ${c.gets} GETs`).join("; ");
    return {
      id: 3,
      name: "Volume readiness (1 s, 10 s, 60 s provisioning)",
      baseline: `Render's schedule (computed): ${say(render)}`,
      measured: say(cases),
      ratio: `${(long.gets / render.find((r) => r.provisioningMs === 60_000)!.gets).toFixed(1)}× GETs at 60 s`,
      target: "latency ≤ max(250 ms, 10%); ≤ 15 GETs at 60 s",
      met: latencyMet && long.gets <= 15,
      figures: { cases, latencyMet, gets60: long.gets, computed: { ours, render } },
      notes: [
        `latency target ${latencyMet ? "met" : "MISSED"} in every case; GET target ${long.gets <= 15 ? "met" : `MISSED: ${long.gets} GETs at 60 s`}.`,
        "The two targets conflict when the provisioning time is unknown: noticing readiness within 10% of the time waited " +
          "means each poll comes at most 1.1× the previous poll's time (and every 250 ms before 2.5 s), which is at least " +
          "~43 GETs by 60 s. We keep the latency target (nextPollDelayMs: max(250 ms, 10% of elapsed), capped at 15 s); " +
          "Render's schedule makes ~10 GETs but notices a 1 s volume ~2 s late.",
      ],
    };
  } finally {
    await close();
  }
}
