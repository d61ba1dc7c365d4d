// The generated SDK (imported from its TypeScript sources) against pulumi.runtime.setMocks: what
// each resource sends to the engine. Named cases first, then the same rules checked for every
// resource in schema.json, so a resource added later is covered without touching this file.
import { hosting } from "./sdk";
import { startMockEngine, registered, valueOf, type MockEngine } from "./mockEngine";

const schema = require("../../schema.json");
const PROJECT = "00000000-0000-4000-8000-0000000a11ce";
const IMAGE = "registry.example.com/team/web:1.4.2";

let engine: MockEngine;
beforeAll(async () => {
  engine = await startMockEngine({
    outputs: (type, name) =>
      type === "hosting:index:Container"
        ? { status: "running", publicUrl: `https://${name}.apps.example.com`, internalHost: `${name}.ns.svc.cluster.local:8080` }
        : type === "hosting:index:ServiceLink"
          ? { injectedEnv: { DATABASE_URL: "postgres://user:pw@db:5432/app" } }
          : {},
  });
});

interface Case {
  name: string;
  token: string;
  create: () => hosting.Container | hosting.Postgres | hosting.Mysql | hosting.Redis | hosting.ServiceLink | hosting.Registry | hosting.Volume | hosting.VolumeAttachment;
  inputs: Record<string, unknown>;
  secretInputs: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
}

/** A named, project-scoped resource with no secrets: what most cases are. */
const named = (name: string, type: string, create: Case["create"], inputs: Record<string, unknown>): Case => ({
  name,
  token: `hosting:index:${type}`,
  create,
  inputs,
  secretInputs: [],
  replaceOnChanges: ["name", "projectId"],
  additionalSecretOutputs: [],
});

/** One constructor call per resource, with its required inputs and a few optional ones. */
const cases: Case[] = [
  // httpPort and running are filled with the schema's defaults.
  {
    ...named("app", "Container", () => new hosting.Container("app", { name: "web", image: IMAGE, env: { LOG_LEVEL: "info" }, links: ["svc-db"], replicas: 2 }), {
      name: "web", image: IMAGE, env: { LOG_LEVEL: "info" }, links: ["svc-db"], replicas: 2, httpPort: 8080, running: true, rollbackOnFailure: false,
    }),
    additionalSecretOutputs: ["injectedEnv"],
  },
  named("pg", "Postgres", () => new hosting.Postgres("pg", { name: "db", storageGb: 10 }), { name: "db", storageGb: 10 }),
  named("my", "Mysql", () => new hosting.Mysql("my", { name: "mysql", projectId: PROJECT }), { name: "mysql", projectId: PROJECT }),
  named("cache", "Redis", () => new hosting.Redis("cache", { name: "cache", memoryMb: 256 }), { name: "cache", memoryMb: 256 }),
  named("data", "Volume", () => new hosting.Volume("data", { name: "data", sizeGb: 20 }), { name: "data", sizeGb: 20 }),
  {
    ...named("link", "ServiceLink", () => new hosting.ServiceLink("link", { consumerServiceId: "svc-app", providerServiceId: "svc-db" }), {
      consumerServiceId: "svc-app", providerServiceId: "svc-db", linkType: "http",
    }),
    replaceOnChanges: ["consumerServiceId", "linkType", "projectId", "providerServiceId"],
    additionalSecretOutputs: ["injectedEnv"],
  },
  {
    ...named("registry", "Registry", () => new hosting.Registry("registry", { name: "main", host: "registry.example.com", username: "deploy", password: "hunter2" }), {
      name: "main", host: "registry.example.com", username: "deploy", password: "hunter2",
    }),
    secretInputs: ["password"],
    replaceOnChanges: ["name"],
    additionalSecretOutputs: ["password"],
  },
  {
    ...named("mount", "VolumeAttachment", () => new hosting.VolumeAttachment("mount", { volumeId: "vol-1", containerId: "svc-app", mountPath: "/data" }), {
      volumeId: "vol-1", containerId: "svc-app", mountPath: "/data", readOnly: false,
    }),
    replaceOnChanges: ["containerId", "mountPath", "projectId", "readOnly", "volumeId"],
  },
];

describe.each(cases)("$token", (c) => {
  beforeAll(async () => {
    await registered(c.create());
  });

  test("registers its token with exactly the inputs given plus defaults", () => {
    const r = engine.registration(c.name);
    expect(r.type).toBe(c.token);
    expect(r.inputs).toEqual(c.inputs);
  });

  test("marks secret inputs secret, and nothing else", () => {
    expect(engine.registration(c.name).secretInputs).toEqual(c.secretInputs);
  });

  test("sends replaceOnChanges, additionalSecretOutputs, the plugin version and where to download it", () => {
    const r = engine.registration(c.name);
    expect(r.replaceOnChanges).toEqual(c.replaceOnChanges);
    expect(r.additionalSecretOutputs).toEqual(c.additionalSecretOutputs);
    expect(r.version).toBe(schema.version);
    expect(r.pluginDownloadURL).toBe(schema.pluginDownloadURL);
  });
});

describe("the same rules, derived from schema.json, for every resource", () => {
  const byToken = new Map(cases.map((c) => [c.token, c]));

  test("every resource in the schema has a case above", () => {
    expect(Object.keys(schema.resources).sort()).toEqual([...byToken.keys()].sort());
  });

  test.each(Object.keys(schema.resources))("%s follows its schema", (token) => {
    const spec = schema.resources[token];
    const r = engine.registration(byToken.get(token)!.name);
    const flagged = (flag: string, props: Record<string, any>) => Object.keys(props).filter((k) => props[k][flag]).sort();
    // Every input sent is a schema input; every required input and every default is sent.
    expect(Object.keys(r.inputs).filter((k) => !(k in spec.inputProperties))).toEqual([]);
    for (const required of spec.requiredInputs) expect(r.inputs).toHaveProperty(required);
    for (const [key, prop] of Object.entries<any>(spec.inputProperties)) if (prop.default !== undefined) expect(r.inputs).toHaveProperty(key);
    expect(r.secretInputs).toEqual(flagged("secret", spec.inputProperties).filter((k) => k in r.inputs));
    expect(r.replaceOnChanges).toEqual(flagged("replaceOnChanges", spec.properties));
    expect(r.additionalSecretOutputs).toEqual(flagged("secret", spec.properties));
  });
});

test("the version that rides along is the schema's, the SDK package's and the plugin's", () => {
  expect(require("../../sdk/nodejs/package.json").version).toBe(schema.version);
  expect(require("../../sdk/nodejs/package.json").pulumi).toEqual({ resource: true, name: "hosting", version: schema.version, server: schema.pluginDownloadURL });
  expect(require("../../package.json").version).toBe(schema.version);
});

test("outputs resolve from the engine's answer", async () => {
  const app = new hosting.Container("outputs", { name: "outputs", image: IMAGE });
  expect(await valueOf(app.publicUrl)).toBe("https://outputs.apps.example.com");
  expect(await valueOf(app.status)).toBe("running");
  expect(await valueOf(app.id)).toBe("outputs-id");
});

test("a password computed from another resource's output is still sent as a secret", async () => {
  const link = new hosting.ServiceLink("secret-source", { consumerServiceId: "a", providerServiceId: "b" });
  const registry = new hosting.Registry("from-output", {
    name: "from-output",
    host: "registry.example.com",
    password: link.injectedEnv.apply((env) => env.DATABASE_URL),
  });
  await registered(registry);
  expect(engine.registration("from-output").secretInputs).toEqual(["password"]);
});

test("a missing required input fails in the program, naming it, before anything is sent", () => {
  const before = engine.registrations.length;
  expect(() => new hosting.Volume("no-size", { name: "v" } as any)).toThrow("Missing required property 'sizeGb'");
  expect(() => new hosting.Container("no-image", { name: "web" } as any)).toThrow("Missing required property 'image'");
  expect(() => new hosting.VolumeAttachment("no-args", undefined as any)).toThrow(/Missing required property/);
  expect(engine.registrations.length).toBe(before);
});

test("static get reads the resource by id, with the version", async () => {
  const volume = hosting.Volume.get("imported", "vol-42");
  await registered(volume);
  const r = engine.registration("imported");
  expect(r).toMatchObject({ kind: "read", type: "hosting:index:Volume", id: "vol-42", version: schema.version });
  expect(await valueOf(volume.id)).toBe("vol-42");
});

test("isInstance tells the resource types apart", async () => {
  const volume = hosting.Volume.get("instance", "vol-1");
  expect(hosting.Volume.isInstance(volume)).toBe(true);
  expect(hosting.Container.isInstance(volume)).toBe(false);
  expect(hosting.Volume.isInstance(undefined)).toBe(false);
  await registered(volume);
});
