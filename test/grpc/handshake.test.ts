// Handshake, the engine's first call since 3.143: what the plugin answers, and that both kinds of
// session work, one that shakes hands (today's engine) and one that does not (an older engine,
// which passes its address on the command line and reads the capabilities from Configure).
import * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, plain, type GrpcFailure } from "./engine";
import { until } from "./until";

const PROJECT = ALICE.projects[0];
const VOLUME = "hosting:index:Volume";

let sim: Simulator;
beforeAll(async () => {
  // A new volume stays provisioning until the test makes it ready: its wait's progress is sure to be logged.
  sim = await startSimulator({ volumeProvisioningMs: -1 });
});
afterAll(() => sim.close());

async function withPlugin(options: Parameters<typeof Plugin.start>[0], body: (plugin: Plugin) => Promise<void>) {
  const plugin = await Plugin.start(options);
  try {
    await body(plugin);
  } finally {
    await plugin.stop();
  }
}

/** Check and Create a volume, made ready once the engine's log has the wait's progress. */
async function createVolume(plugin: Plugin, name: string) {
  const { inputs, failures } = await plugin.check(VOLUME, name, { name, sizeGb: 1 });
  expect(failures).toEqual([]);
  const created = plugin.create(VOLUME, name, inputs);
  await until(
    () => plugin.engine.messages.some((m) => m.message.startsWith(`waiting for volume ${name} to be running`)),
    "the wait's progress in the engine's log",
  );
  sim.control.setVolumeReady(sim.control.snapshot().volumes.find((v) => v.name === name)!.id);
  return created;
}

describe.each([
  ["with Handshake first (today's engine)", true],
  ["without Handshake (an older engine)", false],
])("a session %s", (_name, handshake) => {
  test("Configure answers the capabilities; Check and Create make a volume, whose wait reaches the engine's log", () =>
    withPlugin({ handshake }, async (plugin) => {
      expect(plugin.handshook === undefined).toBe(!handshake);
      const name = handshake ? "shaken" : "unshaken";
      const configured = await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      expect(configured).toMatchObject({ acceptsecrets: true, supportspreview: true });
      const { id, properties } = await createVolume(plugin, name);
      expect(plain(properties)).toMatchObject({ name, sizeGb: 1, status: "running" });
      expect(sim.control.snapshot().volumes.find((v) => v.id === id)?.name).toBe(name);
    }));
});

test("a plugin given no engine address on its command line logs to the one Handshake gives", () =>
  withPlugin({ unattached: true, handshake: true }, async (plugin) => {
    expect(plugin.handshook).toMatchObject({ acceptSecrets: true });
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
    const { properties } = await createVolume(plugin, "unaddressed");
    expect(plain(properties)).toMatchObject({ name: "unaddressed", status: "running" });
  }));

describe("a malformed Handshake, Configure or Attach is refused naming the field, and the plugin goes on", () => {
  const NEWLINE = "127.0.0.1:1\nx";
  /** Whether the plugin's process still runs (signal 0 tests it, sending nothing). */
  const alive = (plugin: Plugin) => {
    try {
      return process.kill(plugin.pid!, 0);
    } catch {
      return false;
    }
  };
  const refusal = (err: unknown) => {
    expect(err).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    return (err as GrpcFailure).details;
  };
  /** A Check the plugin answers only if it is still there; its own failure says the plugin read it. */
  async function stillAnswers(plugin: Plugin) {
    const { failures } = await plugin.check(VOLUME, "after", { name: "after", sizeGb: 0 });
    expect(failures.map((f) => f.property)).toEqual(["sizeGb"]);
    expect(alive(plugin)).toBe(true);
    expect(plugin.stderr).not.toContain("Could not parse target name");
  }

  test.each([
    ["first, before the provider is loaded", false],
    ["after Configure", true],
  ])("an engine address holding a newline, %s", (_when, configuredFirst) =>
    withPlugin({ handshake: false }, async (plugin) => {
      if (configuredFirst) await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      const details = refusal(await plugin.handshake(NEWLINE).catch((e) => e));
      expect(details).toBe(
        'Handshake.engine_address: "127.0.0.1:1\\nx" is not an address to dial: give host:port (a host name or IP address, and a port from 1 to 65535), e.g. 127.0.0.1:50051',
      );
      if (!configuredFirst) await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      await stillAnswers(plugin);
      // A good Handshake after it is kept.
      expect(await plugin.handshake()).toMatchObject({ acceptSecrets: true });
      await stillAnswers(plugin);
    }),
  );

  test("every address and directory of a Handshake is checked, each named", () =>
    withPlugin({ handshake: false }, async (plugin) => {
      const request = new provproto.ProviderHandshakeRequest();
      request.setEngineAddress(plugin.engine.address);
      request.setRootDirectory("relative/dir");
      request.setProgramDirectory("/ok");
      request.setMapperTarget("127.0.0.1:0");
      request.setLoaderTarget("no port");
      request.setResolverTarget("127.0.0.1:99999");
      const details = refusal(await plugin.call("handshake", request).catch((e) => e));
      expect(details.split("; ").map((problem) => problem.split(":")[0])).toEqual([
        "Handshake.root_directory",
        "Handshake.mapper_target",
        "Handshake.loader_target",
        "Handshake.resolver_target",
      ]);
      await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      await stillAnswers(plugin);
    }));

  test("Configure's protocol fields are checked, each named, before its settings", () =>
    withPlugin({}, async (plugin) => {
      const request = new provproto.ConfigureRequest();
      request.setUrn("urn:pulumi:test::hosting-tests::pulumi:providers:other::default");
      request.setName("default");
      request.setType("pulumi:providers:other");
      request.setId("id\n");
      request.setArgs(Struct.fromJavaScript({ baseUrl: sim.url, token: ALICE.token }));
      request.getVariablesMap().set("baseUrl", sim.url);
      request.setAcceptsecrets(false);
      request.setAcceptresources(true);
      request.setSendsOldInputs(true);
      request.setSendsOldInputsToDelete(true);
      const details = refusal(await plugin.call("configure", request).catch((e) => e));
      expect(details.split("; ")).toEqual([
        'Configure.variables: the key "baseUrl" is not a configuration key: give <package>:config:<key>, e.g. hosting:config:baseUrl',
        "Configure.accept_secrets: false, but an engine that sent Handshake must send true (provider.proto)",
        'Configure.urn: "urn:pulumi:test::hosting-tests::pulumi:providers:other::default" names the type "pulumi:providers:other": this is pulumi:providers:hosting',
        'Configure.type: "pulumi:providers:other" is not this provider\'s type: give pulumi:providers:hosting',
        'Configure.id: "id\\n" holds a control character (a line break, a NUL): give it as the engine recorded it',
      ]);
      await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      await stillAnswers(plugin);
    }));

  test("an Attach to an address that cannot be dialled is refused, and the engine log stays where it was", () =>
    withPlugin({}, async (plugin) => {
      const request = new plugproto.PluginAttach();
      request.setAddress(NEWLINE);
      expect(refusal(await plugin.call("attach", request).catch((e) => e))).toMatch(/^Attach\.address: /);
      await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      const name = "attached";
      const { properties } = await createVolume(plugin, name);
      expect(plain(properties)).toMatchObject({ name, status: "running" });
      await stillAnswers(plugin);
    }));
});
