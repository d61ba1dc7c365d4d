// Builds the Pulumi package schema from the declarations: the JSON Schema of each
// declaring interface (types, optionality, docs) plus its flags table (behaviour).
import type { FieldFlags } from "./spec";

/** The JSON Schema that typescript-json-schema produces for one interface. */
export interface JsonSchema {
  description?: string;
  type?: string;
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  definitions?: Record<string, JsonSchema>;
  default?: unknown;
}

export type TypeReader = (typeName: string) => JsonSchema;

interface Declared {
  token?: string;
  typeName: string;
  flags: Record<string, FieldFlags>;
}

export interface PackageInput {
  version: string;
  pluginDownloadURL?: string;
  readType: TypeReader;
  resources: Array<Declared & { token: string }>;
  functions: Array<{ token: string; description: string; argsTypeName: string; resultTypeName: string; flags: Record<string, FieldFlags> }>;
  provider: Declared;
}

type Json = Record<string, unknown>;
const PACKAGE = "hosting";
const typeToken = (name: string) => `${PACKAGE}:index:${name}`;

/** Converts one property's JSON Schema into a Pulumi type spec, collecting named object types. */
function typeSpec(schema: JsonSchema, definitions: Record<string, JsonSchema>, types: Record<string, Json>, flags: FieldFlags = {}): Json {
  if (schema.$ref) {
    const name = decodeURIComponent(schema.$ref.replace(/^#\/definitions\//, ""));
    const target = definitions[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    if (!target.properties) return typeSpec(target, definitions, types);
    if (!types[typeToken(name)]) {
      types[typeToken(name)] = {
        type: "object",
        description: target.description ?? "",
        properties: Object.fromEntries(
          Object.entries(target.properties).map(([key, prop]) => [
            key,
            { ...typeSpec(prop, definitions, types), description: prop.description ?? "", ...(flags.secretSubfields?.includes(key) ? { secret: true } : {}) },
          ]),
        ),
        required: [...(target.required ?? [])].sort(),
      };
    }
    return { $ref: `#/types/${typeToken(name)}` };
  }
  if (schema.type === "object") {
    const values = typeof schema.additionalProperties === "object" ? schema.additionalProperties : { type: "string" };
    return { type: "object", additionalProperties: typeSpec(values, definitions, types) };
  }
  if (schema.type && ["string", "integer", "number", "boolean"].includes(schema.type)) return { type: schema.type };
  throw new Error(`unsupported property schema ${JSON.stringify(schema)}`);
}

function propertySpec(name: string, schema: JsonSchema, flags: FieldFlags, definitions: Record<string, JsonSchema>, types: Record<string, Json>): Json {
  return {
    ...typeSpec(schema, definitions, types, flags),
    description: schema.description ?? "",
    ...(flags.default !== undefined ? { default: flags.default } : {}),
    ...(flags.env ? { defaultInfo: { environment: flags.env } } : {}),
    ...(flags.secret ? { secret: true } : {}),
    ...(flags.replaceOnChange ? { replaceOnChanges: true } : {}),
  };
}

/** A resource-shaped object (resource or provider): all properties, the inputs, and what is required. */
function objectSpec(declared: Declared, readType: TypeReader, types: Record<string, Json>) {
  const schema = readType(declared.typeName);
  const definitions = schema.definitions ?? {};
  const declaredNames = Object.keys(schema.properties ?? {});
  const flagged = Object.keys(declared.flags);
  const missing = declaredNames.filter((n) => !flagged.includes(n)).concat(flagged.filter((n) => !declaredNames.includes(n)));
  if (missing.length > 0) throw new Error(`${declared.typeName}: interface and flags disagree on ${missing.join(", ")}`);

  const properties: Record<string, Json> = {};
  const inputProperties: Record<string, Json> = {};
  for (const name of declaredNames.sort()) {
    const flags = declared.flags[name];
    const spec = propertySpec(name, schema.properties![name], flags, definitions, types);
    properties[name] = spec;
    if (!flags.output) inputProperties[name] = spec;
  }
  const required = new Set(schema.required ?? []);
  const alwaysPresent = declaredNames.filter((n) => required.has(n) || declared.flags[n].default !== undefined || declared.flags[n].configDefault);
  return {
    description: schema.description ?? "",
    properties,
    required: alwaysPresent.sort(),
    inputProperties,
    requiredInputs: declaredNames.filter((n) => required.has(n) && !declared.flags[n].output).sort(),
  };
}

export function buildPackageSchema(input: PackageInput): Json {
  const types: Record<string, Json> = {};
  const resources = Object.fromEntries(
    [...input.resources].sort((a, b) => a.token.localeCompare(b.token)).map((r) => [r.token, objectSpec(r, input.readType, types)]),
  );
  const provider = objectSpec(input.provider, input.readType, types);
  const functions = Object.fromEntries(
    input.functions.map((fn) => {
      const args = objectSpec({ typeName: fn.argsTypeName, flags: fn.flags }, input.readType, types);
      const result = objectSpec(
        { typeName: fn.resultTypeName, flags: Object.fromEntries(Object.keys(input.readType(fn.resultTypeName).properties ?? {}).map((k) => [k, {}])) },
        input.readType,
        types,
      );
      return [
        fn.token,
        {
          description: fn.description,
          inputs: { properties: args.inputProperties, required: args.requiredInputs },
          outputs: { properties: result.properties, required: result.required },
        },
      ];
    }),
  );
  return {
    name: PACKAGE,
    displayName: "Hosting",
    version: input.version,
    description: "Apps, managed databases, service links, image registries and block volumes on the container hosting platform.",
    keywords: ["pulumi", "hosting", "containers", "kind/native"],
    license: "Apache-2.0",
    publisher: "pulumi-hosting",
    ...(input.pluginDownloadURL ? { pluginDownloadURL: input.pluginDownloadURL } : {}),
    config: {
      variables: provider.inputProperties,
      defaults: Object.keys(provider.inputProperties).filter((n) => !provider.requiredInputs.includes(n)),
    },
    provider: {
      description: "The provider type for the hosting package. By default, resources use package-wide configuration settings; an explicit `Provider` instance overrides them.",
      properties: provider.properties,
      inputProperties: provider.inputProperties,
      requiredInputs: [],
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
    language: {
      nodejs: {
        packageName: "@hosting/pulumi",
        packageDescription: "Pulumi SDK for the container hosting platform.",
        dependencies: { "@pulumi/pulumi": "^3.142.0" },
        respectSchemaVersion: true,
      },
    },
  };
}
