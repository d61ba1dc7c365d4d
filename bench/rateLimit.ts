// 4. Rate limit: the simulator allows 20 requests/s (429 with Retry-After beyond). 100
// container creates at 16 concurrent through the plugin, against the ideal 5 s. Beside it, in
// the same run, a client without client-wide rate control (each request retries on its own
// after its Retry-After), to show what the adaptive control saves.
import { CONTAINER, IMAGE, PROJECT, api, ms, now, pool, rig, sleep, times, type Row } from "./lib";

const CREATES = 100;
const CONCURRENCY = 16;
const LIMIT = 20;
const IDEAL_MS = (CREATES / LIMIT) * 1000;

export async function rateLimit(): Promise<Row> {
  const { sim, plugin, close } = await rig({ rateLimitPerSecond: LIMIT });
  try {
    sim.control.clearRequests();
    sim.control.setSwitches({ rateLimitPerSecond: LIMIT }); // a full bucket, as at the start of a run
    const failures: string[] = [];
    const started = now();
    await pool(CREATES, CONCURRENCY, async (i) => {
      const name = `svc-${i}`;
      const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE });
      await plugin.create(CONTAINER, name, inputs).catch((e) => failures.push(String(e.details ?? e)));
    });
    const wallMs = now() - started;
    const requests = sim.control.requests();
    const limited = requests.filter((r) => r.status === 429).length;
    const containers = sim.control.snapshot().services.length;
    const share = limited / requests.length;

    // Baseline: no client-wide control, each request on its own honours its Retry-After.
    sim.control.reset();
    sim.control.setSwitches({ rateLimitPerSecond: LIMIT });
    const naiveStarted = now();
    await pool(CREATES, CONCURRENCY, async (i) => {
      for (;;) {
        const res = await api(sim, "POST", `/v1/projects/${PROJECT}/containers`, { name: `svc-${i}`, image: IMAGE, http_port: 8080 });
        if (res.status !== 429) return;
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      }
    });
    const naiveMs = now() - naiveStarted;
    const naiveRequests = sim.control.requests();
    const naiveLimited = naiveRequests.filter((r) => r.status === 429).length;

    const met = failures.length === 0 && containers === CREATES && wallMs <= 1.3 * IDEAL_MS && share <= 0.1;
    // What the server's limit allows for the requests the run needed (the bucket starts with a burst of LIMIT).
    const accepted = requests.length - limited;
    const floorMs = (Math.max(0, accepted - LIMIT) / LIMIT) * 1000;
    const perCreate = accepted / CREATES;
    return {
      id: 4,
      name: `Rate limit (${CREATES} creates, ${CONCURRENCY} concurrent, server ${LIMIT} req/s)`,
      baseline: `ideal ${ms(IDEAL_MS)}; per-request retry only: ${ms(naiveMs)}, ${naiveLimited}/${naiveRequests.length} answered 429`,
      measured: `${ms(wallMs)}, ${limited}/${requests.length} answered 429 (${(share * 100).toFixed(1)}%), ${failures.length} failures, ${containers} containers`,
      ratio: `${times(wallMs / IDEAL_MS)} ideal`,
      target: "0 failures, 100 containers, ≤ 1.3× ideal, ≤ 10% 429",
      met,
      figures: {
        wallMs,
        idealMs: IDEAL_MS,
        requests: requests.length,
        limited,
        share,
        failures,
        containers,
        naive: { wallMs: naiveMs, requests: naiveRequests.length, limited: naiveLimited },
        acceptedPerCreate: perCreate,
        floorMs,
      },
      notes: [
        `Through the plugin a Container create is ${perCreate.toFixed(1)} requests (the POST, then the GET that sees the app ` +
          `leave \`provisioning\`), so ${CREATES} creates need ${accepted} accepted requests: at ${LIMIT} req/s that takes at least ` +
          `${ms(floorMs)} (after the first ${LIMIT}), ${times(floorMs / IDEAL_MS)} the ideal the target assumes (one request per create). ` +
          `Measured: ${times(wallMs / floorMs)} that floor.`,
      ],
    };
  } finally {
    await close();
  }
}
