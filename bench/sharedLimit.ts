// 16. Many stacks, one API: several plugin processes (a drift job refreshing stacks in parallel, a
// monorepo's CI running several `pulumi up` at once) share one account's rate limit. 8 plugins, each
// creating 200 containers at the engine's parallelism, against one simulator allowing 20 requests/s
// (row 16a, `sharedLimit`) and 5 requests/s (row 16b, `sharedLimitTight`: each plugin's share is then
// 0.6 requests/s, and 4 requests in 10 are answered 429). No plugin knows of the others: each paces
// itself from the 429s it meets (rateControl.ts), and no 429 fails an operation that has time left.
//
// The ideal is what the server's limit allows for the requests the run needed (accepted / limit per
// second), so there is no baseline to alternate with: each round is measured against its own ideal,
// and the row reports the median and range over rounds.
//   BENCH_SHARED="plugins,creates,rounds" (default "8,200,3") scales both rows: "8,50,1" for a quick look.
import { ALICE, startSimulator } from "../simulator/src";
import { Plugin } from "../test/grpc/engine";
import { CONTAINER, ENGINE_PARALLELISM, IMAGE, median, ms, now, pool, times, type Row } from "./lib";
import { jainIndex } from "../test/api/sharedLimitModel";
import { LIMIT } from "./rateLimit";

export interface SharedRound {
  wallMs: number;
  idealMs: number;
  requests: number;
  limited: number;
  share: number;
  failures: string[];
  containers: number;
  /** Each plugin's completion time from the common start. */
  pluginMs: number[];
  /** Jain's fairness index of the plugins' throughputs (creates / own completion time): 1 is perfectly fair. */
  jain: number;
}

/** One round: `plugins` fresh plugins, each `pulumi up` of `creates` containers, all at once. */
export async function sharedRound(plugins: number, creates: number, limit = LIMIT): Promise<SharedRound> {
  const sim = await startSimulator({ port: 0, rateLimitPerSecond: limit, serviceStartMs: 0 });
  const started: Plugin[] = [];
  try {
    for (let p = 0; p < plugins; p++) {
      const plugin = await Plugin.start();
      started.push(plugin);
      await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] });
    }
    sim.control.setSwitches({ rateLimitPerSecond: limit }); // a full bucket, as at the start of a run
    sim.control.clearRequests();
    const failures: string[] = [];
    const t0 = now();
    const pluginMs = await Promise.all(
      started.map(async (plugin, p) => {
        await pool(creates, ENGINE_PARALLELISM, async (i) => {
          const name = `stack${p}-svc-${i}`;
          const { inputs } = await plugin.check(CONTAINER, name, { name, image: IMAGE });
          await plugin.create(CONTAINER, name, inputs).catch((e) => failures.push(String(e.details ?? e)));
        });
        return now() - t0;
      }),
    );
    const wallMs = now() - t0;
    const requests = sim.control.requests();
    const limited = requests.filter((r) => r.status === 429).length;
    return {
      wallMs,
      idealMs: ((requests.length - limited) / limit) * 1000,
      requests: requests.length,
      limited,
      share: limited / requests.length,
      failures,
      containers: sim.control.snapshot().services.length,
      pluginMs,
      jain: jainIndex(pluginMs.map((t) => creates / t)),
    };
  } finally {
    await Promise.all(started.map((plugin) => plugin.stop()));
    await sim.close();
  }
}

const range = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The rows' scale: BENCH_SHARED="plugins,creates,rounds". */
function scale(): { plugins: number; creates: number; rounds: number } {
  const [plugins, creates, rounds] = (process.env.BENCH_SHARED ?? "8,200,3").split(",").map(Number);
  return { plugins, creates, rounds };
}

/** Row 16a: 8 plugins sharing 20 requests/s. */
export const sharedLimit = () => sharedLimitRow("a", LIMIT, 0.1);

/** Row 16b: the same at 5 requests/s, where 4 requests in 10 are refused: the 429 share is information here. */
export const sharedLimitTight = () => sharedLimitRow("b", 5);

/** `maxShare`: the target's share of requests answered 429, if the row has one. */
async function sharedLimitRow(part: string, limit: number, maxShare?: number): Promise<Row> {
  const { plugins, creates, rounds } = scale();
  const results: SharedRound[] = [];
  for (let r = 0; r < rounds; r++) {
    const round = await sharedRound(plugins, creates, limit);
    process.stderr.write(
      `bench: shared limit ${limit}/s round ${r + 1}: ${ms(round.wallMs)} (ideal ${ms(round.idealMs)}), ${round.limited}/${round.requests} 429, Jain ${round.jain.toFixed(3)}, ${round.failures.length} failures${round.failures.length > 0 ? `: ${round.failures[0]}` : ""}\n`,
    );
    results.push(round);
  }
  const ratios = results.map((r) => r.wallMs / r.idealMs);
  const shares = results.map((r) => r.share);
  const jains = results.map((r) => r.jain);
  const failures = results.flatMap((r) => r.failures);
  const complete = results.every((r) => r.containers === plugins * creates);
  const shareMet = maxShare === undefined || median(shares) <= maxShare;
  const met = failures.length === 0 && complete && median(ratios) <= 1.3 && shareMet && Math.min(...jains) >= 0.9;
  return {
    id: 16,
    part,
    name: `Many stacks, one API (${plugins} plugins × ${creates} creates, ${ENGINE_PARALLELISM} concurrent each, server ${limit} req/s)`,
    baseline: `ideal (accepted requests / ${limit} per s): median ${ms(median(results.map((r) => r.idealMs)))}`,
    measured: `median ${ms(median(results.map((r) => r.wallMs)))}; 429s median ${percent(median(shares))} (${range(shares, percent)}); Jain's index median ${median(jains).toFixed(3)} (${range(jains, (x) => x.toFixed(3))}); ${failures.length} failures; ${rounds} rounds`,
    ratio: `${times(median(ratios))} ideal (${range(ratios, times)})`,
    target: `0 failures, ≤ 1.3× ideal, ${maxShare === undefined ? "" : `≤ ${maxShare * 100}% 429, `}Jain ≥ 0.9`,
    met,
    figures: { plugins, creates, limit, rounds: results },
  };
}
