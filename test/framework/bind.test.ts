// The binding of declarations to schema.json: property types, fields, and the secrets of
// function results, as pure mappings.
import { bindPackage, fieldsOf, propertyType } from "../../provider/src/framework/bind";
import type { PackageSpec } from "../../provider/src/framework/packageSchema";
import { hostingPackage } from "../../provider/src/package";

const schema: PackageSpec = {
  name: "hosting",
  version: "0",
  types: {
    "hosting:index:Conn": { type: "object", properties: { host: { type: "string" }, port: { type: "integer" } } },
  },
  resources: {},
};

describe("propertyType: schema types to the framework's", () => {
  test.each([
    [{ type: "string" }, { kind: "string" }],
    [{ type: "integer" }, { kind: "integer" }],
    [{ type: "number" }, { kind: "number" }],
    [{ type: "boolean" }, { kind: "boolean" }],
    [{ type: "object" }, { kind: "map", values: { kind: "string" } }],
    [
      { type: "object", additionalProperties: { type: "integer" } },
      { kind: "map", values: { kind: "integer" } },
    ],
    [
      { type: "array", items: { type: "string" } },
      { kind: "array", items: { kind: "string" } },
    ],
    [
      { $ref: "#/types/hosting:index:Conn" },
      {
        kind: "object",
        token: "hosting:index:Conn",
        properties: { host: { kind: "string" }, port: { kind: "integer" } },
      },
    ],
  ] as const)("%j", (property, expected) => expect(propertyType(schema, property as any)).toEqual(expected));

  test("an unknown $ref or type is an error, not a guess", () => {
    expect(() => propertyType(schema, { $ref: "#/types/hosting:index:Nope" })).toThrow(/no type/);
    expect(() => propertyType(schema, { type: "date" as any })).toThrow(/unsupported/);
  });
});

test("fieldsOf: inputs from inputProperties, the rest outputs, flags merged in", () => {
  const fields = fieldsOf(
    schema,
    {
      properties: { name: { type: "string" }, status: { type: "string" } },
      inputProperties: { name: { type: "string", description: "the name" } },
      requiredInputs: ["name"],
    },
    { name: { replaceOnChange: true } },
  );
  expect(fields).toEqual([
    {
      name: "name",
      type: { kind: "string" },
      required: true,
      description: "the name",
      output: false,
      replaceOnChange: true,
    },
    { name: "status", type: { kind: "string" }, required: false, description: "", output: true },
  ]);
});

test("a lookup's result carries the secrets of the resource it reads, item by item in a list", () => {
  const resource = {
    typeName: "Db",
    flags: { name: {}, connection: { output: true, secretSubfields: ["instructions"] }, token: { secret: true } },
  } as any;
  const functions = [
    { name: "getDb", result: { resource } },
    { name: "getDbs", result: { resource, list: "dbs" } },
  ] as any;
  const pkg: PackageSpec = {
    ...schema,
    functions: {
      "hosting:index:getDb": {
        inputs: { properties: {} },
        outputs: { properties: { id: { type: "string" }, connection: { type: "object" }, token: { type: "string" } } },
      },
      "hosting:index:getDbs": {
        inputs: { properties: {} },
        outputs: { properties: { dbs: { type: "array", items: { type: "object" } } } },
      },
    },
  };
  const bound = bindPackage(
    { ...hostingPackage, resources: [], functions, config: { typeName: "P", flags: {} } },
    () => pkg,
  );
  const one = bound.function("hosting:index:getDb")!.result.fields;
  expect(one.find((f) => f.name === "connection")).toMatchObject({ secretSubfields: ["instructions"] });
  expect(one.find((f) => f.name === "token")).toMatchObject({ secret: true });
  expect(bound.function("hosting:index:getDbs")!.result.fields[0]).toMatchObject({
    name: "dbs",
    secretSubfields: ["[].connection.instructions", "[].token"],
  });
  expect(bound.function("hosting:index:nope")).toBeUndefined();
});

describe("a resource without an update of its own: every input replaces it, or the binder refuses it", () => {
  const realSchema = require("../../schema.json") as PackageSpec;
  const token = (typeName: string) => `hosting:index:${typeName}`;

  test.each(hostingPackage.resources.map((r) => [r.typeName, r] as const))("%s binds", (typeName) => {
    expect(bindPackage(hostingPackage, () => realSchema).resource(token(typeName))).toBeDefined();
  });

  const lifecycle = { create: async () => ({ id: "x", outputs: {} }), read: async () => ({}), delete: async () => {} };
  const text = { type: "string" } as const;
  const tagSchema: PackageSpec = {
    ...schema,
    resources: {
      "hosting:index:Tag": {
        properties: { name: text, color: text, size: { type: "integer" }, at: text },
        inputProperties: { name: text, color: text, size: { type: "integer" } },
      },
    },
  };
  /** Binds a throwaway Tag (name, color and size in, `at` out) with these flags, and an update or none. */
  const bindTag = (flags: Record<string, object>, update?: () => Promise<object>) => () => {
    const tag = { typeName: "Tag", flags, scope: "user", examples: [], lifecycle: { ...lifecycle, update } };
    return bindPackage({ ...hostingPackage, resources: [tag as any] }, () => tagSchema).resource("hosting:index:Tag");
  };
  const replaces = { replaceOnChange: true };
  const fixed = { fixedAfterCreate: "the API cannot resize it" };

  test("refused, naming the resource and every input that would change in place with nothing to send it", () => {
    expect(bindTag({ name: replaces, color: {}, size: {}, at: { output: true } })).toThrow(
      "hosting:index:Tag (Tag) has no lifecycle.update, but its inputs color, size would update in place: when they change, nothing would be sent and the state would claim the change. Give the lifecycle an update that sends it, or flag each replaceOnChange (or fixedAfterCreate, when the API cannot change it at all).",
    );
    expect(bindTag({ name: replaces, color: {}, size: replaces })).toThrow(/its input color would update in place/);
  });

  test.each([
    ["every input replaces", bindTag({ name: replaces, color: replaces, size: replaces })],
    ["a change it cannot make is refused", bindTag({ name: replaces, color: replaces, size: fixed })],
    ["it has an update", bindTag({ name: replaces, color: {}, size: {} }, async () => ({}))],
  ])("bound when %s", (_, bind) => expect(bind()).toBeDefined());
});
