// The binding of declarations to schema.json: property types, fields, and the secrets of
// function results, as pure mappings.
import { bindPackage, fieldsOf, propertyType } from "../../provider/src/framework/bind";
import type { PackageSpec } from "../../provider/src/framework/packageSchema";
import { hostingPackage } from "../../provider/src/package";

const schema: PackageSpec = {
  name: "hosting",
  version: "0",
  types: { "hosting:index:Conn": { type: "object", properties: { host: { type: "string" }, port: { type: "integer" } } } },
  resources: {},
};

describe("propertyType: schema types to the framework's", () => {
  test.each([
    [{ type: "string" }, { kind: "string" }],
    [{ type: "integer" }, { kind: "integer" }],
    [{ type: "number" }, { kind: "number" }],
    [{ type: "boolean" }, { kind: "boolean" }],
    [{ type: "object" }, { kind: "map", values: { kind: "string" } }],
    [{ type: "object", additionalProperties: { type: "integer" } }, { kind: "map", values: { kind: "integer" } }],
    [{ type: "array", items: { type: "string" } }, { kind: "array", items: { kind: "string" } }],
    [{ $ref: "#/types/hosting:index:Conn" }, { kind: "object", token: "hosting:index:Conn", properties: { host: { kind: "string" }, port: { kind: "integer" } } }],
  ] as const)("%j", (property, expected) => expect(propertyType(schema, property as any)).toEqual(expected));

  test("an unknown $ref or type is an error, not a guess", () => {
    expect(() => propertyType(schema, { $ref: "#/types/hosting:index:Nope" })).toThrow(/no type/);
    expect(() => propertyType(schema, { type: "date" as any })).toThrow(/unsupported/);
  });
});

test("fieldsOf: inputs from inputProperties, the rest outputs, flags merged in", () => {
  const fields = fieldsOf(
    schema,
    { properties: { name: { type: "string" }, status: { type: "string" } }, inputProperties: { name: { type: "string", description: "the name" } }, requiredInputs: ["name"] },
    { name: { replaceOnChange: true } },
  );
  expect(fields).toEqual([
    { name: "name", type: { kind: "string" }, required: true, description: "the name", output: false, replaceOnChange: true },
    { name: "status", type: { kind: "string" }, required: false, description: "", output: true },
  ]);
});

test("a lookup's result carries the secrets of the resource it reads, item by item in a list", () => {
  const resource = { typeName: "Db", flags: { name: {}, connection: { output: true, secretSubfields: ["instructions"] }, token: { secret: true } } } as any;
  const functions = [
    { name: "getDb", result: { resource } },
    { name: "getDbs", result: { resource, list: "dbs" } },
  ] as any;
  const pkg: PackageSpec = {
    ...schema,
    functions: {
      "hosting:index:getDb": { inputs: { properties: {} }, outputs: { properties: { id: { type: "string" }, connection: { type: "object" }, token: { type: "string" } } } },
      "hosting:index:getDbs": { inputs: { properties: {} }, outputs: { properties: { dbs: { type: "array", items: { type: "object" } } } } },
    },
  };
  const bound = bindPackage({ ...hostingPackage, resources: [], functions, config: { typeName: "P", flags: {} } }, () => pkg);
  const one = bound.function("hosting:index:getDb")!.result.fields;
  expect(one.find((f) => f.name === "connection")).toMatchObject({ secretSubfields: ["instructions"] });
  expect(one.find((f) => f.name === "token")).toMatchObject({ secret: true });
  expect(bound.function("hosting:index:getDbs")!.result.fields[0]).toMatchObject({ name: "dbs", secretSubfields: ["[].connection.instructions", "[].token"] });
  expect(bound.function("hosting:index:nope")).toBeUndefined();
});
