// 4. Rate limit: the simulator allows 20 requests/s (429 with Retry-After beyond). 100
// container creates at 16 concurrent through the plugin, against the ideal 5 s. Beside it, in
// the same run, a client without client-wide rate control (each request retries on its own
// after its Retry-After), to show what the adaptive control saves. `upAtLimit` is also rows 9
// and 10's `up` (scaleUp.ts).
import { startSimulator } from "../simulator/src";
import type { PluginOptions } from "../test/grpc/engine";
import { CONTAINER, ENGINE_PARALLELISM, IMAGE, PROJECT, api, ms, now, pool, rig, sleep, times, type Row } from "./lib";

const CREATES = 100;
export const LIMIT = 20;
const IDEAL_MS = (CREATES / LIMIT) * 1000;

export interface UpFigures {
  wallMs: number;
  requests: number;
  limited: number;
  /** Requests the server accepted: what the run needed. */
  accepted: number;
  share: number;
  failures: string[];
  containers: number;
}

/**
 * `pulumi up` of `creates` containers (Check + Create each, 16 at a time) against a server allowing LIMIT requests/s.
 */
export async function upAtLimit(creates: number, pluginOptions: PluginOptions = {}): Promise<UpFigures> {
  const { sim, plugin, close } = await rig({ rateLimitPerSecond: LIMIT, serviceStartMs: 0 }, pluginOptions);
  try {
    sim.control.setSwitches({ rateLimitPerSecond: LIMIT }); // a full bucket, as at the start of a run
    sim.control.clearRequests();
    const failures: string[] = [];
    const started = now();
    await pool(creates, ENGINE_PARALLELISM, async (i) => {
      const name = `svc-${i}`;
      const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE });
      await plugin.create(CONTAINER, name, inputs).catch((e) => failures.push(String(e.details ?? e)));
    });
    const wallMs = now() - started;
    const requests = sim.control.requests();
    const limited = requests.filter((r) => r.status === 429).length;
    return {
      wallMs,
      requests: requests.length,
      limited,
      accepted: requests.length - limited,
      share: limited / requests.length,
      failures,
      containers: sim.control.snapshot().services.length,
    };
  } finally {
    await close();
  }
}

/** The baseline: no client-wide control, each POST on its own honours its Retry-After. */
async function perRequestRetry() {
  const sim = await startSimulator({ port: 0, rateLimitPerSecond: LIMIT });
  try {
    const started = now();
    await pool(CREATES, ENGINE_PARALLELISM, async (i) => {
      for (;;) {
        const res = await api(sim, "POST", `/v1/projects/${PROJECT}/containers`, {
          name: `svc-${i}`,
          image: IMAGE,
          http_port: 8080,
        });
        if (res.status !== 429) return;
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      }
    });
    const wallMs = now() - started;
    const requests = sim.control.requests();
    return { wallMs, requests: requests.length, limited: requests.filter((r) => r.status === 429).length };
  } finally {
    await sim.close();
  }
}

export async function rateLimit(): Promise<Row> {
  const { wallMs, requests, limited, accepted, share, failures, containers } = await upAtLimit(CREATES);
  const naive = await perRequestRetry();
  const met = failures.length === 0 && containers === CREATES && wallMs <= 1.3 * IDEAL_MS && share <= 0.1;
  // What the server's limit allows for the requests the run needed (the bucket starts with a burst of LIMIT).
  const floorMs = (Math.max(0, accepted - LIMIT) / LIMIT) * 1000;
  const perCreate = accepted / CREATES;
  return {
    id: 4,
    name: `Rate limit (${CREATES} creates, ${ENGINE_PARALLELISM} concurrent, server ${LIMIT} req/s)`,
    baseline: `ideal ${ms(IDEAL_MS)}; per-request retry only: ${ms(naive.wallMs)}, ${naive.limited}/${naive.requests} answered 429`,
    measured: `${ms(wallMs)}, ${limited}/${requests} answered 429 (${(share * 100).toFixed(1)}%), ${failures.length} failures, ${containers} containers`,
    ratio: `${times(wallMs / IDEAL_MS)} ideal`,
    target: "0 failures, 100 containers, ≤ 1.3× ideal, ≤ 10% 429",
    met,
    figures: {
      wallMs,
      idealMs: IDEAL_MS,
      requests,
      limited,
      share,
      failures,
      containers,
      naive,
      acceptedPerCreate: perCreate,
      floorMs,
    },
    notes: [
      `Through the plugin a Container create is ${perCreate.toFixed(1)} requests (the POST, then the GET that sees the app leave \`provisioning\`), so ${CREATES} creates need ${accepted} accepted requests: at ${LIMIT} req/s that takes at least ${ms(floorMs)} (after the first ${LIMIT}), ${times(floorMs / IDEAL_MS)} the ideal the target assumes (one request per create). Measured: ${times(wallMs / floorMs)} that floor.`,
    ],
  };
}
