// The codec (provider/src/server/codec.ts) against google-protobuf and the Pulumi stubs, byte for
// byte: every request the engine sends is read as the stubs read it and written back to the same
// bytes, every answer (errors' details and the engine log's request too) is written as the stubs
// write it, and so are random Values of every kind; every method has the stubs' path and messages.
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Writer } from "protobufjs/minimal";
import * as codec from "../../provider/src/server/codec";
import * as messages from "../../provider/src/server/messages";
import { CAPABILITIES, PROVIDER_METHODS, pathOf, resourceProviderService } from "../../provider/src/server/methods";
import type { StructObject, StructValue } from "../../provider/src/server/codec";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SIG = "4dabf18193072939515e22adb298388d";
const secret = (value: StructValue) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value });
const asset = (fields: StructObject) => ({ [SIG]: "c44067f5952c0a294b673a41bacd8c17", hash: "9f2a", ...fields });
const archive = (fields: StructObject) => ({ [SIG]: "0def7320c3a5731c473e5ecbe6d01bc7", hash: "4b1c", ...fields });
const resourceRef = {
  [SIG]: "5cf8f73096256a8f31e491e813e4eb8e",
  urn: "urn:pulumi:s::p::hosting:index:Volume::v",
  id: "vol-1",
  packageVersion: "",
};
const outputValue = {
  [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4",
  value: "x",
  secret: true,
  dependencies: ["urn:a", "urn:b"],
};

const google = (object: StructObject) => Buffer.from(Struct.fromJavaScript(object as any).serializeBinary());

/** Property values as the engine sends them and as the provider answers. */
const STRUCTS: Record<string, StructObject> = {
  empty: {},
  container: {
    name: "web",
    image: "registry.example.com/acme/web:1.4.2",
    httpPort: 8080,
    replicas: 3,
    cpuMilli: 250,
    env: secret({ LOG_LEVEL: "debug", DATABASE_URL: "postgres://u:p@db:5432/app" }),
    healthCheck: { path: "/healthz", intervalSeconds: 10 },
    services: [{ id: "3b1f", connection: { host: "db", instructions: secret("psql -h db") } }],
    url: UNKNOWN,
  },
  unknowns: { a: UNKNOWN, b: [UNKNOWN, "x"], c: { d: UNKNOWN }, e: secret(UNKNOWN) },
  assets: {
    text: asset({ text: "hello" }),
    path: asset({ path: "./index.html" }),
    uri: asset({ uri: "https://example.com/a.txt" }),
    archive: archive({ assets: { "a.txt": asset({ text: "a" }), dir: archive({ path: "./dir" }) } }),
    remote: archive({ uri: "https://example.com/a.tgz" }),
  },
  references: { ref: resourceRef, output: outputValue, nested: secret(secret("twice")) },
  numbers: {
    zero: 0,
    negativeZero: -0,
    one: 1,
    negative: -42,
    fraction: 0.1,
    third: 1 / 3,
    big: 2 ** 53 + 2,
    max: Number.MAX_VALUE,
    tiny: Number.MIN_VALUE,
    nan: NaN,
    infinity: Infinity,
    negativeInfinity: -Infinity,
    exponent: -1.5e-300,
  },
  scalars: { t: true, f: false, n: null, s: "", long: "x".repeat(70_000) },
  unicode: {
    é: "café",
    日本: "日本語のテキスト",
    emoji: "🚀 deploy 👩‍💻",
    combining: "e\u0301",
    "": "empty key",
    zeroWidth: "a\u200bb",
    control: "\u0000\u0001\n\t",
  },
  keyOrder: { b: 1, a: 2, "10": 3, "2": 4, B: 5, Z: 6, é: 7, e: 8 },
  nested: { a: { b: { c: { d: [[[{ e: [] }]], {}, [], [null, true, 1, "s"]] } } } },
};

const cases = Object.entries(STRUCTS);

describe("Struct and Value, byte for byte with google-protobuf", () => {
  test.each(cases)("%s: written as google-protobuf writes it", (_name, object) => {
    expect(Buffer.from(codec.encodeStruct(object)).equals(google(object))).toBe(true);
  });

  test.each(cases)("%s: read as google-protobuf reads it, keys in the same order", (_name, object) => {
    const expected = Struct.deserializeBinary(google(object)).toJavaScript();
    const read = codec.decodeStruct(google(object));
    expect(read).toEqual(expected);
    expect(Object.keys(read)).toEqual(Object.keys(expected));
  });

  // The one deliberate difference: google-protobuf's map is a plain object, so it drops this key
  // when it writes and sets the object's prototype when it reads.
  test("`__proto__` is a key like any other, written and read, never the object's prototype", () => {
    const bytes = codec.encodeStruct({ ["__proto__"]: { polluted: true } } as StructObject);
    expect(Buffer.from(bytes).toString("latin1")).toContain("__proto__");
    const read = codec.decodeStruct(bytes);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(read, "__proto__")?.value).toEqual({ polluted: true });
  });

  test("a map in any order (as Go writes one) reads with sorted keys; a repeated key keeps its last value", () => {
    const writer = Writer.create();
    for (const [key, text] of [
      ["b", "1"],
      ["a", "2"],
      ["b", "3"],
    ]) {
      writer.uint32(10).fork().uint32(10).string(key).uint32(18).fork().uint32(26).string(text).ldelim().ldelim();
    }
    const bytes = writer.finish();
    const read = codec.decodeStruct(bytes);
    expect(read).toEqual(Struct.deserializeBinary(bytes).toJavaScript());
    expect(Object.entries(read)).toEqual([
      ["a", "2"],
      ["b", "3"],
    ]);
  });

  test("what google-protobuf refuses, refused the same way", () => {
    for (const bad of [{ a: undefined }, { a: [undefined] }, { a: 1n }, { a: () => 1 }]) {
      expect(() => Struct.fromJavaScript(bad as any)).toThrow("Unexpected struct type");
      expect(() => codec.encodeStruct(bad as any)).toThrow("Unexpected struct type");
    }
    const valueOfNoKind = Writer.create()
      .uint32(10)
      .fork()
      .uint32(10)
      .string("k")
      .uint32(18)
      .fork()
      .ldelim()
      .ldelim()
      .finish();
    expect(() => codec.decodeStruct(valueOfNoKind)).toThrow("Unexpected struct type");
  });

  test(
    "a lone surrogate is written as U+FFFD (Go refuses a string that is not UTF-8); " + "well-formed text is untouched",
    () => {
      expect(codec.decodeStruct(codec.encodeStruct({ a: "x\ud800y" }))).toEqual({ a: "x\ufffdy" });
      expect(codec.decodeStruct(codec.encodeStruct({ a: "🚀" }))).toEqual({ a: "🚀" });
    },
  );
});

// ---- the messages ----

type Schema = Parameters<typeof codec.decode>[0];
type Stub = { serializeBinary(): Uint8Array } & Record<string, any>;

/** The stub's accessor for a codec field: the same name in any case, `List` after a repeated one, `Map` after a map. */
function accessor(stub: object, verb: "get" | "set" | "has", name: string, suffix = ""): string {
  const wanted = `${verb}${name}${suffix}`.toLowerCase();
  const names = Object.getOwnPropertyNames(Object.getPrototypeOf(stub));
  const found = names.find((n) => n.toLowerCase() === wanted);
  if (!found) throw new Error(`no ${wanted} on the stub`);
  return found;
}
const suffixOf = (kind: string) =>
  kind === "strings" || kind === "raws" || kind === "repeated" ? "List" : kind === "map" ? "Map" : "";

type Field = [number, string, any?];
const fieldsOf = (schema: Schema) => Object.entries(schema) as unknown as Array<[string, Field]>;

/** The stub classes of the messages nested in others. */
const NESTED = new Map<unknown, new () => Stub>([
  [messages.CheckRequest.autonaming[2], provproto.CheckRequest.AutonamingOptions],
  [messages.CheckResponse.failures[2], provproto.CheckFailure],
  [messages.DiffResponse.detailedDiff[2], provproto.PropertyDiff],
  [messages.ConfigureErrorMissingKeys.missingKeys[2], provproto.ConfigureErrorMissingKeys.MissingKey],
  [messages.Status.details[2], Any],
]);
const nestedClass = (schema: Schema) => {
  const Class = NESTED.get(schema);
  if (!Class) throw new Error("a nested message without its stub class in NESTED");
  return Class;
};

/** What the stub holds, in the codec's shape. */
function viewOf(schema: Schema, stub: Stub): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [name, [, kind, inner]] of fieldsOf(schema)) {
    const value = stub[accessor(stub, "get", name, suffixOf(kind))]();
    if (kind === "struct") view[name] = value?.toJavaScript();
    else if (kind === "raws") view[name] = value.map((m: Stub) => Buffer.from(m.serializeBinary()));
    else if (kind === "bytes") view[name] = Buffer.from(stub[accessor(stub, "get", `${name}_asU8`)]());
    else if (kind === "optionalString") view[name] = stub[accessor(stub, "has", name)]() ? value : undefined;
    else if (kind === "enum") view[name] = inner[value] ?? value;
    else if (kind === "message") view[name] = value ? viewOf(inner, value) : undefined;
    else if (kind === "repeated") view[name] = value.map((m: Stub) => viewOf(inner, m));
    else if (kind === "map") {
      const entries: Record<string, unknown> = {};
      value.forEach((v: unknown, key: string) => {
        entries[key] = inner === "string" ? v : viewOf(inner, v as Stub);
      });
      view[name] = entries;
    } else view[name] = value;
  }
  return view;
}

/** The stub message holding `message`, set field by field through its setters. */
function stubOf(schema: Schema, Class: new () => Stub, message: Record<string, unknown>): Stub {
  const stub = new Class();
  for (const [name, [, kind, inner]] of fieldsOf(schema)) {
    const value = message[name];
    if (value === undefined) continue;
    if (kind === "map") {
      const map = stub[accessor(stub, "get", name, "Map")]();
      for (const [key, v] of Object.entries(value as Record<string, unknown>))
        map.set(key, inner === "string" ? v : stubOf(inner, nestedClass(inner), v as Record<string, unknown>));
      continue;
    }
    const setter = accessor(stub, "set", name, suffixOf(kind));
    if (kind === "struct") stub[setter](Struct.fromJavaScript(value as any));
    else if (kind === "enum") stub[setter](typeof value === "number" ? value : inner.indexOf(value));
    else if (kind === "message") stub[setter](stubOf(inner, nestedClass(inner), value as Record<string, unknown>));
    else if (kind === "repeated")
      stub[setter]((value as Record<string, unknown>[]).map((m) => stubOf(inner, nestedClass(inner), m)));
    else stub[setter](value);
  }
  return stub;
}

const bytesOf = (message: { serializeBinary(): Uint8Array }) => Buffer.from(message.serializeBinary());
const URN = "urn:pulumi:dev::shop::hosting:index:Container::web";
const TYPE = "hosting:index:Container";

/** Fills the fields the engine sets on a resource call. */
function address<T extends Stub>(stub: T, id?: string): T {
  stub.setUrn(URN);
  if ("setType" in stub) stub.setType(TYPE);
  if ("setName" in stub) stub.setName("web");
  if (id !== undefined) stub.setId(id);
  return stub;
}

const views = () => {
  const view = new provproto.View();
  view.setType("hosting:index:Service");
  view.setName("web-svc");
  view.setOutputs(Struct.fromJavaScript({ name: "web" }));
  return [view];
};
const structOf = (object: StructObject) => Struct.fromJavaScript(object as any);
const { container, unknowns, assets, numbers, unicode, nested, references } = STRUCTS;

/** Every request the engine sends a provider, with every field this provider reads or passes over. */
const REQUESTS: Array<[string, Schema, Stub]> = [
  ["Empty (GetPluginInfo, Cancel)", messages.Empty, new Empty()],
  [
    "ProviderHandshakeRequest, every field",
    messages.ProviderHandshakeRequest,
    (() => {
      const r = new provproto.ProviderHandshakeRequest();
      r.setEngineAddress("127.0.0.1:50051");
      r.setRootDirectory("/home/me/.pulumi/plugins/resource-hosting-v1.2.3");
      r.setProgramDirectory("/home/me/.pulumi/plugins/resource-hosting-v1.2.3/bin");
      r.setConfigureWithUrn(true);
      r.setSupportsViews(true);
      r.setSupportsRefreshBeforeUpdate(true);
      r.setInvokeWithPreview(true);
      r.setMapperTarget("127.0.0.1:1");
      r.setLoaderTarget("127.0.0.1:2");
      r.setResolverTarget("127.0.0.1:3");
      return r;
    })(),
  ],
  [
    "ProviderHandshakeRequest of an attached plugin: no directories, an optional field set to empty",
    messages.ProviderHandshakeRequest,
    (() => {
      const r = new provproto.ProviderHandshakeRequest();
      r.setEngineAddress("127.0.0.1:50051");
      r.setMapperTarget("");
      return r;
    })(),
  ],
  [
    "GetSchemaRequest",
    messages.GetSchemaRequest,
    (() => {
      const r = new provproto.GetSchemaRequest();
      r.setVersion(2);
      r.setSubpackageName("sub");
      r.setSubpackageVersion("1.0.0");
      return r;
    })(),
  ],
  [
    "PluginAttach",
    messages.PluginAttach,
    (() => {
      const r = new plugproto.PluginAttach();
      r.setAddress("127.0.0.1:50051");
      return r;
    })(),
  ],
  [
    "ConfigureRequest, every field, variables of several keys",
    messages.ConfigureRequest,
    (() => {
      const r = new provproto.ConfigureRequest();
      for (const [key, value] of [
        ["hosting:config:token", "t0k"],
        ["hosting:config:baseUrl", "https://api.example.com"],
        ["", "empty key"],
        ["hosting:config:projectId", UNKNOWN],
        ["é", ""],
      ])
        r.getVariablesMap().set(key, value);
      r.setArgs(structOf({ baseUrl: "https://api.example.com", token: secret("t0k"), version: "1.2.3" }));
      r.setAcceptsecrets(true);
      r.setAcceptresources(true);
      r.setSendsOldInputs(true);
      r.setSendsOldInputsToDelete(true);
      r.setId("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
      r.setUrn("urn:pulumi:dev::shop::pulumi:providers:hosting::default");
      r.setName("default");
      r.setType("pulumi:providers:hosting");
      return r;
    })(),
  ],
  ["ConfigureRequest of nothing", messages.ConfigureRequest, new provproto.ConfigureRequest()],
  [
    "CheckRequest (CheckConfig's too)",
    messages.CheckRequest,
    (() => {
      const r = address(new provproto.CheckRequest());
      r.setOlds(structOf(container));
      r.setNews(structOf({ ...container, ...unknowns }));
      r.setRandomseed(new Uint8Array([1, 2, 3, 250]));
      const autonaming = new provproto.CheckRequest.AutonamingOptions();
      autonaming.setProposedName("web-3f2a");
      autonaming.setMode(provproto.CheckRequest.AutonamingOptions.Mode.ENFORCE);
      r.setAutonaming(autonaming);
      return r;
    })(),
  ],
  ...(["PROPOSE", "DISABLE"] as const).map((mode): [string, Schema, Stub] => [
    `CheckRequest with autonaming ${mode}`,
    messages.CheckRequest,
    (() => {
      const r = address(new provproto.CheckRequest());
      r.setNews(structOf(container));
      const autonaming = new provproto.CheckRequest.AutonamingOptions();
      if (mode === "PROPOSE") autonaming.setProposedName("web-a1b2c3d");
      autonaming.setMode(provproto.CheckRequest.AutonamingOptions.Mode[mode]);
      r.setAutonaming(autonaming);
      return r;
    })(),
  ]),
  ["CheckRequest of nothing", messages.CheckRequest, new provproto.CheckRequest()],
  [
    "CheckRequest with empty news",
    messages.CheckRequest,
    (() => {
      const r = address(new provproto.CheckRequest());
      r.setNews(new Struct());
      return r;
    })(),
  ],
  [
    "DiffRequest",
    messages.DiffRequest,
    (() => {
      const r = address(new provproto.DiffRequest(), "app-1");
      r.setOlds(structOf(container));
      r.setNews(structOf({ ...container, replicas: 4 }));
      r.setOldInputs(structOf({ name: "web", image: container.image }));
      r.setIgnorechangesList(["env", "services[0].connection", ""]);
      return r;
    })(),
  ],
  [
    "CreateRequest",
    messages.CreateRequest,
    (() => {
      const r = address(new provproto.CreateRequest());
      r.setProperties(structOf({ ...container, ...assets }));
      r.setTimeout(1200.5);
      r.setResourceStatusAddress("127.0.0.1:4242");
      r.setResourceStatusToken("tok");
      return r;
    })(),
  ],
  [
    "CreateRequest at preview",
    messages.CreateRequest,
    (() => {
      const r = address(new provproto.CreateRequest());
      r.setProperties(structOf(unknowns));
      r.setPreview(true);
      return r;
    })(),
  ],
  [
    "ReadRequest",
    messages.ReadRequest,
    (() => {
      const r = address(new provproto.ReadRequest(), "proj-1/app-1");
      r.setProperties(structOf(container));
      r.setInputs(structOf({ name: "web" }));
      r.setOldViewsList(views());
      r.setTimeout(-0.25);
      return r;
    })(),
  ],
  ["ReadRequest of an import (no state)", messages.ReadRequest, address(new provproto.ReadRequest(), "app-1")],
  [
    "UpdateRequest",
    messages.UpdateRequest,
    (() => {
      const r = address(new provproto.UpdateRequest(), "app-1");
      r.setOlds(structOf({ ...container, ...numbers }));
      r.setNews(structOf({ ...container, ...unicode }));
      r.setOldInputs(structOf(nested));
      r.setTimeout(60);
      r.setIgnorechangesList(["replicas"]);
      r.setPreview(true);
      r.setOldViewsList(views());
      return r;
    })(),
  ],
  [
    "DeleteRequest",
    messages.DeleteRequest,
    (() => {
      const r = address(new provproto.DeleteRequest(), "app-1");
      r.setProperties(structOf(references));
      r.setOldInputs(structOf({ name: "web" }));
      r.setTimeout(NaN);
      r.setOldViewsList(views());
      return r;
    })(),
  ],
  [
    "InvokeRequest",
    messages.InvokeRequest,
    (() => {
      const r = new provproto.InvokeRequest();
      r.setTok("hosting:index:getContainers");
      r.setArgs(structOf({ projectId: "proj-1", name: secret("web") }));
      r.setPreview(true);
      return r;
    })(),
  ],
  [
    "InvokeRequest without args",
    messages.InvokeRequest,
    (() => {
      const r = new provproto.InvokeRequest();
      r.setTok("hosting:index:getContainerLogs");
      return r;
    })(),
  ],
];

describe("every request the engine sends", () => {
  test.each(REQUESTS)("%s: read as the stubs read it, and written back to the same bytes", (_name, schema, stub) => {
    const bytes = bytesOf(stub);
    const read = codec.decode(schema, bytes);
    expect(read).toEqual(viewOf(schema, stub));
    expect(codec.encode(schema, read).equals(bytes)).toBe(true);
  });

  test("a field this provider does not know (a newer engine's) is passed over", () => {
    const known = bytesOf(address(new provproto.CreateRequest()));
    const unknown = Writer.create()
      .uint32((99 << 3) | 2)
      .string("later")
      .uint32((98 << 3) | 0)
      .uint32(7)
      .finish();
    expect(codec.decode(messages.CreateRequest, Buffer.concat([known, unknown]))).toEqual(
      codec.decode(messages.CreateRequest, known),
    );
  });
});

/** Every answer the provider gives through the codec, as it fills it. */
const failures = [
  { property: "image", reason: "has no tag" },
  { property: "", reason: "" },
];
const RESPONSES: Array<[string, Schema, new () => Stub, Record<string, unknown>]> = [
  ["Empty (Cancel, Attach, Delete)", messages.Empty, Empty, {}],
  ["PluginInfo", messages.PluginInfo, plugproto.PluginInfo, { version: "1.2.3-alpha.1+dirty" }],
  [
    "ProviderHandshakeResponse, every field",
    messages.ProviderHandshakeResponse,
    provproto.ProviderHandshakeResponse,
    { acceptSecrets: true, acceptResources: true, acceptOutputs: true, supportsAutonamingConfiguration: true },
  ],
  [
    "ProviderHandshakeResponse as this provider answers",
    messages.ProviderHandshakeResponse,
    provproto.ProviderHandshakeResponse,
    CAPABILITIES,
  ],
  ["GetSchemaResponse", messages.GetSchemaResponse, provproto.GetSchemaResponse, { schema: '{"name":"hosting"}' }],
  [
    "ConfigureResponse, every field",
    messages.ConfigureResponse,
    provproto.ConfigureResponse,
    {
      acceptSecrets: true,
      supportsPreview: true,
      acceptResources: true,
      acceptOutputs: true,
      supportsAutonamingConfiguration: true,
    },
  ],
  [
    "DiffResponse, every field, a detailed diff of several keys",
    messages.DiffResponse,
    provproto.DiffResponse,
    {
      replaces: ["name", "region"],
      stables: ["id"],
      deleteBeforeReplace: true,
      changes: "DIFF_SOME",
      diffs: ["name", "region", "env", ""],
      detailedDiff: {
        region: { kind: "UPDATE_REPLACE", inputDiff: true },
        name: { kind: "ADD_REPLACE", inputDiff: false },
        "env.LOG_LEVEL": { kind: "DELETE", inputDiff: true },
        "services[0].connection": { kind: "ADD", inputDiff: false },
        "": { kind: "UPDATE", inputDiff: false },
        é: { kind: "DELETE_REPLACE", inputDiff: true },
      },
      hasDetailedDiff: true,
    },
  ],
  [
    "DiffResponse of no change",
    messages.DiffResponse,
    provproto.DiffResponse,
    { changes: "DIFF_NONE", diffs: [], replaces: [], detailedDiff: {}, hasDetailedDiff: true },
  ],
  ["CheckResponse", messages.CheckResponse, provproto.CheckResponse, { inputs: container, failures }],
  ["CheckResponse, no failures", messages.CheckResponse, provproto.CheckResponse, { inputs: {}, failures: [] }],
  [
    "CreateResponse",
    messages.CreateResponse,
    provproto.CreateResponse,
    { id: "app-1", properties: { ...container, ...assets } },
  ],
  ["CreateResponse at preview", messages.CreateResponse, provproto.CreateResponse, { properties: unknowns }],
  [
    "ReadResponse",
    messages.ReadResponse,
    provproto.ReadResponse,
    { id: "proj-1/app-1", properties: { ...container, ...numbers }, inputs: unicode },
  ],
  ["ReadResponse of a resource gone", messages.ReadResponse, provproto.ReadResponse, {}],
  ["UpdateResponse", messages.UpdateResponse, provproto.UpdateResponse, { properties: { ...nested, ...references } }],
  [
    "ReadResponse asking for a refresh before update",
    messages.ReadResponse,
    provproto.ReadResponse,
    { id: "app-1", properties: container, inputs: {}, refreshBeforeUpdate: true },
  ],
  [
    "CreateResponse asking for a refresh before update",
    messages.CreateResponse,
    provproto.CreateResponse,
    { id: "app-1", properties: container, refreshBeforeUpdate: true },
  ],
  [
    "UpdateResponse asking for a refresh before update",
    messages.UpdateResponse,
    provproto.UpdateResponse,
    { properties: container, refreshBeforeUpdate: true },
  ],
  [
    "InvokeResponse",
    messages.InvokeResponse,
    provproto.InvokeResponse,
    { return: { containers: [container, container] } },
  ],
  ["InvokeResponse with failures", messages.InvokeResponse, provproto.InvokeResponse, { failures }],
  [
    "ErrorResourceInitFailed",
    messages.ErrorResourceInitFailed,
    provproto.ErrorResourceInitFailed,
    { id: "app-1", properties: container, reasons: ["not ready"], inputs: {} },
  ],
  [
    "ErrorResourceInitFailed, every field",
    messages.ErrorResourceInitFailed,
    provproto.ErrorResourceInitFailed,
    {
      id: "app-1",
      properties: container,
      reasons: ["not ready", "still"],
      inputs: unknowns,
      refreshBeforeUpdate: true,
    },
  ],
  [
    "ConfigureErrorMissingKeys",
    messages.ConfigureErrorMissingKeys,
    provproto.ConfigureErrorMissingKeys,
    {
      missingKeys: [
        { name: "hosting:token", description: "The API token." },
        { name: "hosting:baseUrl", description: "" },
      ],
    },
  ],
  [
    "Status with a detail",
    messages.Status,
    statusproto.Status,
    {
      code: 3,
      message: "required configuration keys were missing",
      details: [
        { typeUrl: "type.googleapis.com/pulumirpc.ConfigureErrorMissingKeys", value: Buffer.from([10, 2, 10, 0]) },
      ],
    },
  ],
  ["Status of a negative code", messages.Status, statusproto.Status, { code: -2, message: "", details: [] }],
  [
    "LogRequest (the engine's Log)",
    messages.LogRequest,
    engineproto.LogRequest,
    { severity: "WARNING", message: "waiting for volume data", urn: URN, streamId: -7, ephemeral: true },
  ],
  ["LogRequest at DEBUG", messages.LogRequest, engineproto.LogRequest, { severity: "DEBUG", message: "x" }],
];

describe("every answer the provider gives", () => {
  test.each(RESPONSES)("%s: written as the stubs write it", (_name, schema, Class, message) => {
    const expected = bytesOf(stubOf(schema, Class, message));
    expect(codec.encode(schema, message as Parameters<typeof codec.encode>[1]).equals(expected)).toBe(true);
    expect(codec.decode(schema, expected)).toEqual(
      viewOf(schema, (Class as unknown as { deserializeBinary(b: Uint8Array): Stub }).deserializeBinary(expected)),
    );
  });
});

describe("the messages' schemas", () => {
  test("CheckRequest's autonaming is read as a message: the proposed name and the mode's name", () => {
    const r = new provproto.CheckRequest();
    const autonaming = new provproto.CheckRequest.AutonamingOptions();
    autonaming.setProposedName("web-3f2a");
    autonaming.setMode(provproto.CheckRequest.AutonamingOptions.Mode.ENFORCE);
    r.setAutonaming(autonaming);
    expect(codec.decode(messages.CheckRequest, bytesOf(r)).autonaming).toEqual({
      proposedName: "web-3f2a",
      mode: "ENFORCE",
    });
    expect(codec.decode(messages.CheckRequest, bytesOf(new provproto.CheckRequest())).autonaming).toBeUndefined();
  });

  test("a map in any order (as Go writes one) is read whole; a repeated key keeps its last value, a missing value is empty", () => {
    const entry = (key: string | undefined, value: string | undefined) => {
      const writer = Writer.create().uint32(10).fork();
      if (key !== undefined) writer.uint32(10).string(key);
      if (value !== undefined) writer.uint32(18).string(value);
      return writer.ldelim().finish();
    };
    const bytes = Buffer.concat([
      entry("b", "1"),
      entry("a", "2"),
      entry("b", "3"),
      entry(undefined, "x"),
      entry("c", undefined),
    ]);
    const read = codec.decode(messages.ConfigureRequest, bytes).variables;
    expect(read).toEqual({ a: "2", b: "3", "": "x", c: "" });
    const stub = provproto.ConfigureRequest.deserializeBinary(bytes);
    expect(Object.fromEntries(stub.getVariablesMap().entries() as unknown as Iterable<[string, string]>)).toEqual(read);
  });

  test("an enum number the schema does not name (a newer engine's) is read as the number and written back", () => {
    const bytes = Writer.create().uint32(16).int32(7).finish();
    const read = codec.decode(messages.CheckRequest, Writer.create().uint32(66).bytes(bytes).finish());
    expect(read.autonaming).toEqual({ proposedName: "", mode: 7 });
    expect(codec.encode(messages.CheckRequest, read)).toEqual(
      Buffer.from(Writer.create().uint32(66).bytes(bytes).finish()),
    );
  });

  test("an enum value that is none of its names is refused, naming the field", () => {
    expect(() => codec.encode(messages.DiffResponse, { changes: "DIFF_MANY" as never })).toThrow(
      'changes is "DIFF_MANY", which is none of DIFF_UNKNOWN, DIFF_NONE, DIFF_SOME',
    );
  });

  test("every method has the stubs' path and the stubs' messages, field for field", () => {
    const stubs = provrpc.ResourceProviderService as unknown as Record<
      string,
      { path: string; requestType: new () => Stub; responseType: new () => Stub }
    >;
    const served = resourceProviderService();
    for (const [method, { request, answer }] of Object.entries(PROVIDER_METHODS) as Array<
      [keyof typeof PROVIDER_METHODS, { request: Schema; answer: Schema }]
    >) {
      expect([method, pathOf(method)]).toEqual([method, stubs[method].path]);
      expect(served[method].path).toBe(stubs[method].path);
      for (const [schema, Class] of [
        [request, stubs[method].requestType],
        [answer, stubs[method].responseType],
      ] as const) {
        const stub = new Class();
        for (const [name, [, kind]] of fieldsOf(schema))
          expect(() => accessor(stub, "get", name, suffixOf(kind))).not.toThrow();
        expect(Object.keys(viewOf(schema, stub))).toEqual(Object.keys(schema));
      }
    }
  });

  test("the service definition reads a request from its bytes and writes an answer to the stubs' bytes", () => {
    const { check } = resourceProviderService();
    const request = address(new provproto.CheckRequest());
    request.setNews(structOf(container));
    expect(check.requestDeserialize(bytesOf(request))).toEqual(codec.decode(messages.CheckRequest, bytesOf(request)));
    const answer = new provproto.CheckResponse();
    answer.setInputs(structOf(container));
    expect(check.responseSerialize({ inputs: container, failures: [] })).toEqual(bytesOf(answer));
  });
});

// ---- random Values ----

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIAL_NUMBERS = [0, -0, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, Number.EPSILON, -1e21, 5e-324];
const ALPHABET = ["a", "Z", "0", "_", "-", " ", "é", "ß", "日", "🚀", "\u0000", "\n", '"', "\\", UNKNOWN];

function randomValue(next: () => number, depth: number): StructValue {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const text = () => Array.from({ length: Math.floor(next() * 6) }, () => pick(ALPHABET)).join("");
  switch (Math.floor(next() * (depth > 3 ? 4 : 7))) {
    case 0:
      return null;
    case 1:
      return next() < 0.3 ? pick(SPECIAL_NUMBERS) : (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    case 2:
      return text();
    case 3:
      return next() < 0.5;
    case 4:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    case 5:
      return secret(randomValue(next, depth + 1));
    default:
      return randomObject(next, depth + 1);
  }
}

function randomObject(next: () => number, depth: number): StructObject {
  const object: StructObject = {};
  const count = Math.floor(next() * 5);
  for (let i = 0; i < count; i++)
    object[Array.from({ length: Math.floor(next() * 4) }, () => ALPHABET[Math.floor(next() * 13)]).join("")] =
      randomValue(next, depth);
  return object;
}

test("2,000 random Structs: written as google-protobuf writes them, read as it reads them", () => {
  for (let seed = 1; seed <= 2_000; seed++) {
    const object = randomObject(random(seed), 0);
    const bytes = google(object);
    const written = Buffer.from(codec.encodeStruct(object));
    if (!written.equals(bytes)) throw new Error(`seed ${seed}: written differently: ${JSON.stringify(object)}`);
    expect(codec.decodeStruct(bytes)).toEqual(Struct.deserializeBinary(bytes).toJavaScript());
  }
});
