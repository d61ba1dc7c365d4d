// The generated SDK (loaded from its TypeScript sources) against pulumi.runtime.setMocks: what
// each resource sends to the engine. The cases derive from the package's declaration (each
// resource's first example, the one the docs and the soak create) and what they must send from
// schema.json, so a resource added later is covered without touching this file.
import { isExampleSecret, isReference, type ExampleValue } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import { hosting } from "./sdk";
import { startMockEngine, registered, outputValue, type MockEngine } from "./mockEngine";

const schema = require("../../schema.json");
const IMAGE = "registry.example.com/team/web:1.4.2";

let engine: MockEngine;
beforeAll(async () => {
  engine = await startMockEngine({
    outputs: (type, name) =>
      type === "hosting:index:Container"
        ? {
            status: "running",
            publicUrl: `https://${name}.apps.example.com`,
            internalHost: `${name}.ns.svc.cluster.local:8080`,
          }
        : type === "hosting:index:ServiceLink"
          ? { injectedEnv: { DATABASE_URL: "postgres://user:pw@db:5432/app" } }
          : {},
  });
});

/**
 * An example's value as a program passes it here: another resource's output is a plain stand-in, a secret its
 * sample.
 */
function plain(value: ExampleValue): unknown {
  if (isReference(value)) return `${value.reference.toLowerCase()}-${value.output}`;
  if (isExampleSecret(value)) return value.sample;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v as ExampleValue)]));
  return value;
}

const flagged = (flag: string, props: Record<string, any>) =>
  Object.keys(props)
    .filter((k) => props[k][flag])
    .sort();

/** Each resource's first example, and what the SDK must send for it according to the schema. */
const cases = hostingPackage.resources.map((declaration) => {
  const token = `${hostingPackage.name}:index:${declaration.typeName}`;
  const spec = schema.resources[token];
  const args = Object.fromEntries(Object.entries(declaration.examples[0].inputs).map(([k, v]) => [k, plain(v)]));
  const defaults = Object.entries<any>(spec.inputProperties).filter(
    ([k, p]) => p.default !== undefined && !(k in args),
  );
  return {
    token,
    typeName: declaration.typeName,
    name: `sdk-${declaration.typeName}`,
    args,
    inputs: { ...args, ...Object.fromEntries(defaults.map(([k, p]) => [k, p.default])) },
    secretInputs: flagged("secret", spec.inputProperties).filter((k) => k in args),
    replaceOnChanges: flagged("replaceOnChanges", spec.properties),
    additionalSecretOutputs: flagged("secret", spec.properties),
  };
});

test("every resource of the schema has a case, and the SDK a class for it", () => {
  expect(cases.map((c) => c.token).sort()).toEqual(Object.keys(schema.resources).sort());
  for (const c of cases) expect(hosting[c.typeName].__pulumiType).toBe(c.token);
});

describe.each(cases)("$token", (c) => {
  beforeAll(async () => {
    await registered(new hosting[c.typeName](c.name, c.args));
  });

  test("registers its token with exactly the inputs given plus the schema's defaults", () => {
    const r = engine.registration(c.name);
    expect(r.type).toBe(c.token);
    expect(r.inputs).toEqual(c.inputs);
  });

  test("marks the schema's secret inputs secret, and nothing else", () => {
    expect(engine.registration(c.name).secretInputs).toEqual(c.secretInputs);
  });

  test("sends the schema's replaceOnChanges and secret outputs, the plugin version and where to download it", () => {
    const r = engine.registration(c.name);
    expect(r.replaceOnChanges).toEqual(c.replaceOnChanges);
    expect(r.additionalSecretOutputs).toEqual(c.additionalSecretOutputs);
    expect(r.version).toBe(schema.version);
    expect(r.pluginDownloadURL).toBe(schema.pluginDownloadURL);
  });

  test("fails in the program, before anything is sent, without each required input", () => {
    const before = engine.registrations.length;
    for (const required of schema.resources[c.token].requiredInputs as string[]) {
      const { [required]: _left, ...rest } = c.args;
      expect(() => new hosting[c.typeName](`${c.name}-no-${required}`, rest)).toThrow(
        `Missing required property '${required}'`,
      );
    }
    expect(engine.registrations.length).toBe(before);
  });
});

test("the version that rides along is the schema's, the SDK package's and the plugin's", () => {
  expect(require("../../sdk/nodejs/package.json").version).toBe(schema.version);
  expect(require("../../sdk/nodejs/package.json").pulumi).toEqual({
    resource: true,
    name: "hosting",
    version: schema.version,
    server: schema.pluginDownloadURL,
  });
  expect(require("../../package.json").version).toBe(schema.version);
});

test("outputs resolve from the engine's answer", async () => {
  const app = new hosting.Container("outputs", { name: "outputs", image: IMAGE });
  expect(await outputValue(app.publicUrl)).toBe("https://outputs.apps.example.com");
  expect(await outputValue(app.status)).toBe("running");
  expect(await outputValue(app.id)).toBe("outputs-id");
});

test("a password computed from another resource's output is still sent as a secret", async () => {
  const link = new hosting.ServiceLink("secret-source", { consumerServiceId: "a", providerServiceId: "b" });
  const registry = new hosting.Registry("from-output", {
    name: "from-output",
    host: "registry.example.com",
    password: link.injectedEnv.apply((env: Record<string, string>) => env.DATABASE_URL),
  });
  await registered(registry);
  expect(engine.registration("from-output").secretInputs).toEqual(["password"]);
});

test("a missing argument bag fails like a missing required input", () => {
  const before = engine.registrations.length;
  expect(() => new hosting.VolumeAttachment("no-args", undefined)).toThrow(/Missing required property/);
  expect(engine.registrations.length).toBe(before);
});

test("static get reads the resource by id, with the version", async () => {
  const volume = hosting.Volume.get("imported", "vol-42");
  await registered(volume);
  const r = engine.registration("imported");
  expect(r).toMatchObject({ kind: "read", type: "hosting:index:Volume", id: "vol-42", version: schema.version });
  expect(await outputValue(volume.id)).toBe("vol-42");
});

test("static get with state sends the state as the read's properties (schema.json's stateInputs)", async () => {
  const volume = hosting.Volume.get("imported-with-state", "vol-43", { name: "data", sizeGb: 20 });
  await registered(volume);
  expect(engine.registration("imported-with-state")).toMatchObject({
    kind: "read",
    id: "vol-43",
    inputs: { name: "data", sizeGb: 20 },
  });
});

test("isInstance tells the resource types apart", async () => {
  const volume = hosting.Volume.get("instance", "vol-1");
  expect(hosting.Volume.isInstance(volume)).toBe(true);
  expect(hosting.Container.isInstance(volume)).toBe(false);
  expect(hosting.Volume.isInstance(undefined)).toBe(false);
  await registered(volume);
});
