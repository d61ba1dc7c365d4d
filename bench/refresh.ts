// 2. Refresh of 200 containers at engine-like concurrency (16 concurrent Reads over gRPC):
// list calls the simulator served, against a naive provider's one list call per Read
// (made here for real: 200 GETs of the list at the same concurrency).
import { CONTAINER, IMAGE, PROJECT, api, ms, now, pool, rig, type Row } from "./lib";

const COUNT = 200;
const CONCURRENCY = 16;
const LIST = new RegExp(`^/v1/projects/${PROJECT}/containers$`);

export async function refresh(): Promise<Row> {
  const { sim, plugin, close } = await rig();
  try {
    // The stack: 200 containers, created through the plugin as `pulumi up` would.
    const state = await pool(COUNT, CONCURRENCY, async (i) => {
      const { inputs } = await plugin.check(CONTAINER, `app-${i}`, { name: `app-${i}`, image: IMAGE });
      const created = await plugin.create(CONTAINER, `app-${i}`, inputs);
      return { name: `app-${i}`, id: created.id, outputs: created.properties, inputs };
    });
    await new Promise((r) => setTimeout(r, 2_500)); // past any cached list: the refresh starts cold

    sim.control.clearRequests();
    const started = now();
    const reads = await pool(COUNT, CONCURRENCY, (i) => plugin.read(CONTAINER, state[i].name, state[i].id, state[i].outputs, state[i].inputs));
    const wallMs = now() - started;
    const listCalls = sim.control.requests().filter((r) => r.method === "GET" && LIST.test(r.path)).length;
    const allFound = reads.every((r, i) => r.id === state[i].id);

    // The naive provider: every Read lists the project itself.
    sim.control.clearRequests();
    const naiveStarted = now();
    await pool(COUNT, CONCURRENCY, async () => {
      const { status } = await api(sim, "GET", `/v1/projects/${PROJECT}/containers`);
      if (status !== 200) throw new Error(`naive list answered ${status}`);
    });
    const naiveMs = now() - naiveStarted;
    const naiveCalls = sim.control.requests().filter((r) => r.method === "GET" && LIST.test(r.path)).length;

    return {
      id: 2,
      name: `Refresh of ${COUNT} containers (${CONCURRENCY} concurrent Reads)`,
      baseline: `naive: ${naiveCalls} list calls, ${ms(naiveMs)}`,
      measured: `${listCalls} list call${listCalls === 1 ? "" : "s"}, ${ms(wallMs)}`,
      ratio: `${(listCalls / naiveCalls).toFixed(3)}× calls`,
      target: "≤ 3 list calls",
      met: listCalls <= 3 && allFound,
      figures: { count: COUNT, concurrency: CONCURRENCY, listCalls, wallMs, allFound, naiveCalls, naiveMs },
      notes: allFound ? [] : ["some Read did not return its container"],
    };
  } finally {
    await close();
  }
}
