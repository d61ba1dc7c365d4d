// The generated Provider class, getContainerLogs and the config module against pulumi.runtime.setMocks.
import * as pulumi from "@pulumi/pulumi";
import { hosting } from "./sdk";
import { startMockEngine, registered, outputValue, type MockEngine } from "./mockEngine";

const schema = require("../../schema.json");
const PROJECT = "00000000-0000-4000-8000-0000000a11ce";
const CONTAINER = "11111111-2222-4333-8444-555555555555";

let engine: MockEngine;
beforeAll(async () => {
  engine = await startMockEngine({
    call: (token, args) => (token === "hosting:index:getContainerLogs" ? { logs: `logs of ${args.containerId}` } : {}),
  });
});

describe("Provider", () => {
  test("registers pulumi:providers:hosting with the token as a secret and the plugin version", async () => {
    const provider = new hosting.Provider("explicit", {
      baseUrl: "https://api.example.com",
      token: "tok-123",
      projectId: PROJECT,
    });
    await registered(provider);
    const r = engine.registration("explicit");
    expect(r.type).toBe("pulumi:providers:hosting");
    expect(r.inputs).toMatchObject({ baseUrl: "https://api.example.com", token: "tok-123", projectId: PROJECT });
    expect(r.secretInputs).toEqual(["token"]);
    expect(r.additionalSecretOutputs).toEqual(["token"]);
    expect(r.version).toBe(schema.version);
    expect(r.pluginDownloadURL).toBe(schema.pluginDownloadURL);
    expect(hosting.Provider.isInstance(provider)).toBe(true);
  });

  test(
    "non-string settings travel JSON-encoded, as Pulumi's generator sends them, " + "with the schema defaults",
    async () => {
      await registered(
        new hosting.Provider("tuned", { baseUrl: "https://api.example.com", token: "t", maxRetries: 2 }),
      );
      expect(engine.registration("tuned").inputs).toMatchObject({ maxRetries: "2", requestTimeoutSeconds: "30" });
    },
  );

  // As Pulumi's generator writes it, a token read from the environment is sent as it is; the plugin's
  // CheckConfig returns it secret (test/grpc/config.test.ts), and that is what the engine stores.
  test(
    "settings left out fall back to the environment variables of defaultInfo; " + "the token is a secret output",
    async () => {
      process.env.HOSTING_BASE_URL = "https://env.example.com";
      process.env.HOSTING_TOKEN = "env-token";
      try {
        await registered(new hosting.Provider("from-env", {}));
      } finally {
        delete process.env.HOSTING_BASE_URL;
        delete process.env.HOSTING_TOKEN;
      }
      const r = engine.registration("from-env");
      expect(r.inputs).toMatchObject({ baseUrl: "https://env.example.com", token: "env-token" });
      expect(r.additionalSecretOutputs).toEqual(["token"]);
    },
  );

  test("a resource created with { provider } names that provider instance", async () => {
    const provider = new hosting.Provider("other-account", { baseUrl: "https://api.example.com", token: "t" });
    await registered(new hosting.Volume("on-other", { name: "v", sizeGb: 1 }, { provider }));
    const urn = await outputValue(provider.urn);
    expect(engine.registration("on-other").provider).toBe(`${urn}::other-account-id`);
  });
});

describe("getContainerLogs", () => {
  test(
    "invokes hosting:index:getContainerLogs with its arguments, " + "the plugin version and where to download it",
    async () => {
      const result = await hosting.getContainerLogs({ containerId: CONTAINER, projectId: PROJECT });
      expect(result.logs).toBe(`logs of ${CONTAINER}`);
      expect(engine.invocations.at(-1)).toEqual({
        token: "hosting:index:getContainerLogs",
        args: { containerId: CONTAINER, projectId: PROJECT },
        version: schema.version,
        pluginDownloadURL: schema.pluginDownloadURL,
      });
    },
  );

  test("getContainerLogsOutput takes outputs (such as a Container's id) and returns an output", async () => {
    const app = new hosting.Container("logged", { name: "logged", image: "registry.example.com/team/web:1.0.0" });
    const logs = hosting.getContainerLogsOutput({ containerId: app.id });
    expect(await outputValue(logs.logs)).toBe("logs of logged-id");
    expect(engine.invocations.at(-1)).toMatchObject({
      token: "hosting:index:getContainerLogs",
      args: { containerId: "logged-id" },
    });
  });
});

describe("config", () => {
  afterEach(() => {
    for (const key of ["baseUrl", "maxRetries", "projectId"])
      pulumi.runtime.setConfig(`hosting:${key}`, undefined as any);
    delete process.env.HOSTING_PROJECT_ID;
  });

  test("reads hosting:* stack configuration", () => {
    pulumi.runtime.setConfig("hosting:baseUrl", "https://api.example.com");
    pulumi.runtime.setConfig("hosting:maxRetries", "7");
    expect(hosting.config.baseUrl).toBe("https://api.example.com");
    expect(hosting.config.maxRetries).toBe(7);
  });

  test("falls back to the environment, then to the schema's defaults", () => {
    process.env.HOSTING_PROJECT_ID = PROJECT;
    expect(hosting.config.projectId).toBe(PROJECT);
    expect(hosting.config.maxRetries).toBe(5);
    expect(hosting.config.requestTimeoutSeconds).toBe(30);
    expect(hosting.config.baseUrl).toBeUndefined();
  });
});

describe("resource references", () => {
  test("the package registers a module and a provider package, so references deserialize to SDK classes", async () => {
    // Rehydrating by URN reads the registered resource back from the engine, so use real ones.
    const registeredVolume = new hosting.Volume("referenced", { name: "referenced", sizeGb: 1 });
    const registeredProvider = new hosting.Provider("referenced-provider", {
      baseUrl: "https://api.example.com",
      token: "t",
    });
    const [volumeUrn, providerUrn] = await Promise.all([
      outputValue<string>(registeredVolume.urn),
      outputValue<string>(registeredProvider.urn),
    ]);

    const volume = pulumi.runtime
      .getResourceModule("hosting", "index", schema.version)!
      .construct("referenced", "hosting:index:Volume", volumeUrn);
    expect(hosting.Volume.isInstance(volume)).toBe(true);
    expect(await outputValue(volume.urn)).toBe(volumeUrn);
    const provider = pulumi.runtime
      .getResourcePackage("hosting", schema.version)!
      .constructProvider("referenced-provider", "pulumi:providers:hosting", providerUrn);
    expect(hosting.Provider.isInstance(provider)).toBe(true);
    expect(await outputValue(provider.urn)).toBe(providerUrn);
  });
});
