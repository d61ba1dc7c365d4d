// The example programs run under pulumi.runtime.setMocks: the resources they declare, how those
// connect, what they export, and that their config values (image, sizeGb) flow into the inputs.
import { resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startMockEngine, outputValue, type MockEngine } from "../sdk/mockEngine";

// The programs import "@hosting/pulumi"; here that is the SDK's TypeScript sources.
jest.mock("@hosting/pulumi", () => jest.requireActual("../../sdk/nodejs/index"), { virtual: true });

const EXAMPLES = resolve(__dirname, "../../examples");
const PROJECT_ID = "00000000-0000-4000-8000-0000000a11ce";

/** Runs one example program with the given stack config; returns its exports and what it sent. */
async function runProgram(name: string, config: Record<string, string>, secretKeys: string[] = []) {
  const engine: MockEngine = await startMockEngine({
    project: name,
    outputs: (type, resourceName) =>
      type === "hosting:index:Container"
        ? { status: "running", publicUrl: `https://${resourceName}.apps.example.com` }
        : type === "hosting:index:Postgres"
          ? {
              status: "running",
              internalHost: "web-db.ns.svc.cluster.local:5432",
              connection: {
                envVar: "DATABASE_URL",
                host: "h",
                port: "5432",
                instructions: "secret",
                requiresAuth: true,
              },
            }
          : type === "hosting:index:Volume"
            ? { status: "running" }
            : {},
  });
  const all = { "hosting:baseUrl": "http://127.0.0.1:8787", "hosting:projectId": PROJECT_ID, ...config };
  pulumi.runtime.setAllConfig(
    Object.fromEntries(Object.entries(all).map(([k, v]) => [k.includes(":") ? k : `${name}:${k}`, v])),
    secretKeys.map((k) => `${name}:${k}`),
  );
  let outputs: Record<string, pulumi.Output<unknown>> = {};
  jest.isolateModules(() => {
    outputs = require(resolve(EXAMPLES, name, "index.ts"));
  });
  const exported: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(outputs)) exported[key] = await outputValue(value);
  return {
    engine,
    exported,
    urnOf: (resourceName: string) =>
      `urn:pulumi:test::${name}::${engine.registration(resourceName).type}::${resourceName}`,
  };
}

describe("app-with-postgres", () => {
  test(
    "a registry, a Postgres database and a container linked to it (links: [db.id]); " + "exports the public URL",
    async () => {
      const { engine, exported, urnOf } = await runProgram(
        "app-with-postgres",
        { registryUsername: "deploy", registryPassword: "s3cret" },
        ["registryPassword"],
      );
      expect(engine.registrations.map((r) => r.type).sort()).toEqual(
        ["hosting:index:Container", "hosting:index:Postgres", "hosting:index:Registry"].sort(),
      );
      expect(engine.registration("registry").inputs).toMatchObject({
        host: "registry.example.com",
        username: "deploy",
        password: "s3cret",
      });
      expect(engine.registration("registry").secretInputs).toEqual(["password"]);
      // No name anywhere: the provider names them, so another stack of the program (a pull request's) never clashes.
      expect(engine.registrations.filter((r) => "name" in r.inputs).map((r) => r.name)).toEqual([]);
      expect(engine.registration("web").inputs).toMatchObject({
        image: "registry.example.com/demo/web:1.0.0",
        public: true,
        links: ["db-id"],
      });
      // The app depends on its database: the graph says what the platform needs.
      expect(engine.registration("web").dependencies).toEqual([urnOf("db"), urnOf("registry")].sort());
      expect(exported).toMatchObject({ publicUrl: "https://web.apps.example.com", databaseEnvVar: "DATABASE_URL" });
    },
  );

  test("`pulumi config set image ...` changes the container's image (and the registry host follows it)", async () => {
    const { engine } = await runProgram("app-with-postgres", { image: "ghcr.io/acme/web:2.0.1" });
    expect(engine.registration("web").inputs.image).toBe("ghcr.io/acme/web:2.0.1");
    expect(engine.registration("registry").inputs.host).toBe("ghcr.io");
    expect(engine.registration("registry").inputs).not.toHaveProperty("password");
  });
});

describe("volume", () => {
  test("a one-replica container, a volume and an attachment at /data", async () => {
    const { engine, exported, urnOf } = await runProgram("volume", {});
    expect(engine.registrations.filter((r) => "name" in r.inputs).map((r) => r.name)).toEqual([]);
    expect(engine.registration("files").inputs).toMatchObject({ replicas: 1 });
    expect(engine.registration("data").inputs).toEqual({ sizeGb: 10 });
    expect(engine.registration("data-on-files").inputs).toEqual({
      volumeId: "data-id",
      containerId: "files-id",
      mountPath: "/data",
      readOnly: false,
    });
    expect(engine.registration("data-on-files").dependencies).toEqual([urnOf("data"), urnOf("files")].sort());
    expect(exported).toMatchObject({ volumeId: "data-id", volumeSizeGb: 10, attachmentId: "data-on-files-id" });
  });

  test("`pulumi config set sizeGb 20` grows the volume", async () => {
    const { engine } = await runProgram("volume", { sizeGb: "20" });
    expect(engine.registration("data").inputs.sizeGb).toBe(20);
  });
});
