// SIGTERM and SIGINT while operations are in flight: the plugin exits cleanly, and only after
// every create in flight has answered the engine with its id, so no create is half recorded.
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, initFailure, type GrpcFailure } from "./engine";
import { pollingAfterWrite, until } from "./until";

const PROJECT = ALICE.projects[0];
const IMAGE = "registry.example.com/acme/web:1.0.0";
let sim: Simulator;
beforeAll(async () => (sim = await startSimulator({ port: 0, volumeProvisioningMs: 300 })));
afterAll(() => sim.close());
afterEach(() => {
  sim.control.clearFaults();
  sim.control.setSwitches({ volumeProvisioningMs: 300 });
});

/** A plugin of its own (the signal ends it), stopped whatever the test's outcome. */
async function withPlugin(body: (plugin: Plugin) => Promise<void>) {
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
    await body(plugin);
  } finally {
    await plugin.stop();
  }
}

test.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)(
  "%s while a create's request is in flight: the create answers with the id, then the plugin exits 0",
  (signal) =>
    withPlugin(async (plugin) => {
      const name = `web-${signal.toLowerCase()}`;
      // The server acts at once but answers 1.5 s later: the request is in flight when the signal comes.
      sim.control.injectFault({ kind: "latency", latencyMs: 1_500, method: "POST", path: "/containers$" });
      const { inputs } = await plugin.check("hosting:index:Container", name, { name, image: IMAGE });
      const events: string[] = [];
      // The answer carries the id: a success, or a partial failure (the steps after the POST were
      // cancelled) whose ErrorResourceInitFailed detail the engine records.
      const answered = plugin
        .create("hosting:index:Container", name, inputs)
        .then(
          (created) => created.id,
          (err: GrpcFailure) => initFailure(err)?.id ?? `no id: ${err.details}`,
        )
        .finally(() => events.push("answered"));
      await until(() => sim.control.snapshot().services.some((s) => s.name === name));
      plugin.signal(signal);
      const exiting = plugin.exited().finally(() => events.push("exited"));
      expect(await answered).toBe(sim.control.snapshot().services.find((s) => s.name === name)!.id);
      expect(await exiting).toBe(0);
      expect(events).toEqual(["answered", "exited"]);
    }),
);

test(
  "SIGTERM during a volume wait: the wait stops at once and the create answers with the id (a " + "partial failure)",
  () =>
    withPlugin(async (plugin) => {
      sim.control.setSwitches({ volumeProvisioningMs: -1 });
      const { inputs } = await plugin.check("hosting:index:Volume", "slow", { name: "slow", sizeGb: 1 });
      const mark = sim.control.requests().length;
      const creating = plugin.create("hosting:index:Volume", "slow", inputs).catch((e) => e as GrpcFailure);
      await until(() => pollingAfterWrite(sim.control.requests().slice(mark), /\/volumes$/), "the volume's wait");
      plugin.signal("SIGTERM");
      // The volume never provisions: the create answers only because the signal ended its wait.
      const err = (await creating) as GrpcFailure;
      expect(initFailure(err)?.id).toBe(sim.control.snapshot().volumes.find((v) => v.name === "slow")!.id);
      expect(await plugin.exited()).toBe(0);
    }),
);

test("Cancel while a create's request is in flight: the create still answers with the id", () =>
  withPlugin(async (plugin) => {
    sim.control.injectFault({ kind: "latency", latencyMs: 1_000, method: "POST", path: "/volumes$" });
    // Never provisioned: however late the Cancel comes (a loaded machine), the create cannot finish first.
    sim.control.setSwitches({ volumeProvisioningMs: -1 });
    const { inputs } = await plugin.check("hosting:index:Volume", "cancelled-post", {
      name: "cancelled-post",
      sizeGb: 1,
    });
    const creating = plugin.create("hosting:index:Volume", "cancelled-post", inputs).catch((e) => e as GrpcFailure);
    await until(() => sim.control.snapshot().volumes.some((v) => v.name === "cancelled-post"));
    await plugin.cancel();
    const err = (await creating) as GrpcFailure;
    expect(initFailure(err)?.id).toBe(sim.control.snapshot().volumes.find((v) => v.name === "cancelled-post")!.id);
    expect(err.details).toMatch(/cancelled.*recorded in state/);
  }));
