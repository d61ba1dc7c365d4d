// Provider configuration as the engine sends it: CheckConfig, DiffConfig and Configure.
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { DIFF_NONE, DIFF_SOME, Plugin, isSecret, missingKeys, secret, type GrpcFailure } from "./engine";

/** The capabilities newer engines' Handshake answers carry, which this plugin does not take. */
const NOT_TAKEN = {
  acceptsByteString: false,
  acceptsOutputsInCheck: false,
  acceptsOutputsInInvoke: false,
  acceptsOutputsInCall: false,
};

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(() => sim.close());

async function withPlugin(env: NodeJS.ProcessEnv, body: (plugin: Plugin) => Promise<void>, args: string[] = []) {
  const plugin = await Plugin.start({ env, args });
  try {
    await body(plugin);
  } finally {
    await plugin.stop();
  }
}

test("GetPluginInfo reports the package version and GetSchema serves schema.json", async () => {
  await withPlugin({}, async (plugin) => {
    const info = await plugin.call<any>(
      "getPluginInfo",
      new (require("google-protobuf/google/protobuf/empty_pb").Empty)(),
    );
    expect(info.getVersion()).toBe(require("../../package.json").version);
    const request = new (require("@pulumi/pulumi/proto/provider_pb").GetSchemaRequest)();
    const schema = JSON.parse((await plugin.call<any>("getSchema", request)).getSchema());
    expect(schema).toEqual(require("../../schema.json"));
  });
});

test("a missing token gives Pulumi's missing-config error naming hosting:token", async () => {
  await withPlugin({}, async (plugin) => {
    const err = (await plugin.configure({ baseUrl: sim.url }).catch((e) => e)) as GrpcFailure;
    expect(missingKeys(err)).toEqual(["hosting:token"]);
    const both = (await plugin.configure({}).catch((e) => e)) as GrpcFailure;
    expect(missingKeys(both).sort()).toEqual(["hosting:baseUrl", "hosting:token"]);
  });
});

test("CheckConfig names a missing token and says how to set it", async () => {
  await withPlugin({}, async (plugin) => {
    const { failures } = await plugin.checkConfig({ baseUrl: sim.url, version: "0.1.0" });
    expect(failures).toEqual([
      { property: "token", reason: expect.stringMatching(/hosting:token.*pulumi config set hosting:token --secret/) },
    ]);
  });
});

test("configuration is read from args, then variables, then the environment", async () => {
  await withPlugin({ HOSTING_TOKEN: ALICE.token }, async (plugin) => {
    expect((await plugin.checkConfig({ baseUrl: sim.url, version: "0.1.0" })).failures).toEqual([]);
    const response = await plugin.configure(
      {},
      { "hosting:config:baseUrl": sim.url, "hosting:config:projectId": ALICE.projects[0] },
    );
    expect(response).toMatchObject({ acceptsecrets: true, supportspreview: true });
    const { inputs } = await plugin.check("hosting:index:Volume", "v", { name: "v", sizeGb: 1 });
    expect(inputs.projectId).toBe(ALICE.projects[0]);
  });
});

test(
  "CheckConfig keeps the token secret and the engine's version key, " + "and rejects plain http to a remote host",
  async () => {
    await withPlugin({}, async (plugin) => {
      const ok = await plugin.checkConfig({ baseUrl: sim.url, token: ALICE.token, version: "0.1.0" });
      expect(ok.failures).toEqual([]);
      expect(isSecret(ok.inputs.token)).toBe(true);
      expect(ok.inputs.version).toBe("0.1.0");
      const bad = await plugin.checkConfig({ baseUrl: "http://api.example.com", token: secret(ALICE.token) });
      expect(bad.failures).toEqual([
        { property: "baseUrl", reason: expect.stringMatching(/plain http:\/\/ to a non-loopback host/) },
      ]);
    });
  },
);

test("DiffConfig updates the provider in place, never replacing it", async () => {
  await withPlugin({}, async (plugin) => {
    const olds = { baseUrl: sim.url, token: ALICE.token };
    const request = new (require("@pulumi/pulumi/proto/provider_pb").DiffRequest)();
    const struct = require("google-protobuf/google/protobuf/struct_pb").Struct;
    request.setOlds(struct.fromJavaScript(olds));
    request.setOldInputs(struct.fromJavaScript(olds));
    request.setNews(struct.fromJavaScript({ ...olds, projectId: ALICE.projects[0] }));
    const diff = await plugin.call<any>("diffConfig", request);
    expect(diff.getChanges()).toBe(DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
    request.setNews(struct.fromJavaScript(olds));
    expect((await plugin.call<any>("diffConfig", request)).getChanges()).toBe(DIFF_NONE);
  });
});

test("Handshake and Configure answer the same capabilities (an engine that shook hands reads only Handshake's), autonaming support included", async () => {
  await withPlugin({}, async (plugin) => {
    const capabilities = {
      acceptSecrets: true,
      acceptResources: true,
      acceptOutputs: false,
      supportsAutonamingConfiguration: true,
    };
    expect(plugin.handshook).toEqual({ ...capabilities, ...NOT_TAKEN });
    const configured = await plugin.configure({ baseUrl: sim.url, token: ALICE.token });
    expect(configured).toEqual({
      acceptsecrets: capabilities.acceptSecrets,
      acceptresources: capabilities.acceptResources,
      acceptoutputs: capabilities.acceptOutputs,
      supportsAutonamingConfiguration: capabilities.supportsAutonamingConfiguration,
      supportspreview: true,
    });
  });
});

test("numeric settings arrive as strings (stack config, SDK-encoded provider inputs) and are decoded", async () => {
  await withPlugin({}, async (plugin) => {
    const { inputs, failures } = await plugin.checkConfig({
      baseUrl: sim.url,
      token: ALICE.token,
      maxRetries: "3",
      requestTimeoutSeconds: "10",
    });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ maxRetries: 3, requestTimeoutSeconds: 10 });
    const bad = await plugin.checkConfig({ baseUrl: sim.url, token: ALICE.token, maxRetries: "three" });
    expect(bad.failures).toEqual([
      { property: "maxRetries", reason: expect.stringMatching(/maxRetries must be an integer/) },
    ]);
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, maxRetries: "3" });
  });
});
