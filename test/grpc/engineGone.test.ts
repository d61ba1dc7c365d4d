// The engine gone (the CLI killed, or its terminal closed): the plugin asks the engine that started it whether it
// is still there, as Pulumi's Go providers do (rpcutil.Healthcheck), and once it no longer answers, cancels what is
// in flight (a Cancel's path) and exits, rather than polling the API for a run no one records and then serving
// nobody for ever. HOSTING_ENGINE_CHECK_SECONDS shortens the interval here.
import * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, initFailure, type GrpcFailure } from "./engine";
import { pollingAfterWrite, until } from "./until";

const PROJECT = ALICE.projects[0];
const CHECK_SECONDS = "0.2";
let sim: Simulator;
beforeAll(async () => (sim = await startSimulator({ port: 0, volumeProvisioningMs: -1 })));
afterAll(() => sim.close());

async function withPlugin(options: Parameters<typeof Plugin.start>[0], body: (plugin: Plugin) => Promise<void>) {
  const plugin = await Plugin.start(options);
  try {
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
    await body(plugin);
  } finally {
    await plugin.stop();
  }
}

const env = { HOSTING_ENGINE_CHECK_SECONDS: CHECK_SECONDS };

test("the engine stops answering during a volume's wait: the wait is cancelled, the create answers with the id, and the plugin exits", () =>
  withPlugin({ env, args: ["--logtostderr", "-v=1"] }, async (plugin) => {
    const { inputs } = await plugin.check("hosting:index:Volume", "orphaned-run", { name: "orphaned-run", sizeGb: 1 });
    const mark = sim.control.requests().length;
    const creating = plugin.create("hosting:index:Volume", "orphaned-run", inputs).catch((e) => e as GrpcFailure);
    await until(() => pollingAfterWrite(sim.control.requests().slice(mark), /\/volumes$/), "the volume's wait");
    // The engine answered every check so far; it now goes away, as a killed CLI's does.
    await until(() => plugin.engine.healthChecks > 0, "a health check answered");
    plugin.engine.stop();
    // The volume never provisions and the create's timeout is the default 10 minutes: only the cancel can end it.
    const err = (await creating) as GrpcFailure;
    const volume = sim.control.snapshot().volumes.find((v) => v.name === "orphaned-run")!;
    expect(initFailure(err)?.id).toBe(volume.id);
    expect(err.details).toMatch(/stopped waiting for volume orphaned-run to be running: the operation was cancelled/);
    expect(await plugin.exited()).toBe(0);
    expect(plugin.stderr).toMatch(
      /hosting: the engine stopped answering \(UNAVAILABLE: [^)]*\): cancelling what is in flight and exiting/,
    );
  }));

test.each(["SERVING", "UNIMPLEMENTED"] as const)(
  "an engine that answers its health check %s is there: the plugin keeps serving",
  (health) =>
    withPlugin({ env }, async (plugin) => {
      plugin.engine.health = health;
      await until(() => plugin.engine.healthChecks >= 3, "three health checks");
      const { inputs } = await plugin.check("hosting:index:Volume", `kept-${health}`, { sizeGb: 1 });
      expect(inputs).toMatchObject({ sizeGb: 1 });
    }),
);

test("a plugin that learns the engine's address from Handshake alone watches that engine", () =>
  withPlugin({ env, unattached: true, handshake: true }, async (plugin) => {
    await until(() => plugin.engine.healthChecks > 0, "a health check of the engine named in Handshake");
    plugin.engine.stop();
    expect(await plugin.exited()).toBe(0);
  }));

test("a plugin started by hand (PULUMI_DEBUG_PROVIDERS) never asks the engine that attached to it, and outlives it", async () => {
  const plugin = await Plugin.start({ env, unattached: true });
  try {
    // What an engine attaching to it sends (provider_plugin.go, attachPort): Handshake without a root directory, then
    // Attach.
    const handshake = new provproto.ProviderHandshakeRequest();
    handshake.setEngineAddress(plugin.engine.address);
    handshake.setConfigureWithUrn(true);
    await plugin.call("handshake", handshake);
    const attach = new plugproto.PluginAttach();
    attach.setAddress(plugin.engine.address);
    await plugin.call("attach", attach);
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
    const { inputs } = await plugin.check("hosting:index:Volume", "debugged", { name: "debugged", sizeGb: 1 });
    const mark = sim.control.requests().length;
    const creating = plugin.create("hosting:index:Volume", "debugged", inputs);
    // Polls are 250 ms apart at least, by the plugin's own clock: a plugin that watched this engine would have asked
    // it (every 0.2 s) before the third.
    const volumePolls = () =>
      sim.control
        .requests()
        .slice(mark)
        .filter((r) => r.method === "GET").length;
    await until(() => volumePolls() >= 3, "three polls of the volume");
    expect(plugin.engine.healthChecks).toBe(0);
    plugin.engine.stop();
    sim.control.setVolumeReady(sim.control.snapshot().volumes.find((v) => v.name === "debugged")!.id);
    expect((await creating).id).toBeTruthy();
    expect(plugin.stderr).not.toMatch(/engine stopped answering/);
  } finally {
    await plugin.stop();
  }
});

test("HOSTING_ENGINE_CHECK_SECONDS that will not do: every call answers why, and nothing else is served", async () => {
  const plugin = await Plugin.start({ env: { HOSTING_ENGINE_CHECK_SECONDS: "soon" } });
  try {
    const why =
      'pulumi-resource-hosting could not start: HOSTING_ENGINE_CHECK_SECONDS is "soon": give the seconds between the plugin\'s checks that the engine is still there, a number greater than 0 and at most 86400 (the default is 5), or unset it';
    expect(plugin.handshakeFailure).toMatchObject({ code: grpc.status.FAILED_PRECONDITION, details: why });
    await expect(plugin.configure({ baseUrl: sim.url, token: ALICE.token })).rejects.toMatchObject({ details: why });
  } finally {
    await plugin.stop();
  }
});
