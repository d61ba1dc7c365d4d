// Builds the Pulumi package schema from the declarations: the JSON Schema of each declaring
// interface (types, optionality, docs) plus its flags table (behaviour). Each flag adds its
// sentence to the property's documentation, so no description restates a flag by hand.
import {
  PACKAGE,
  argsTypeName,
  itemTypeToken,
  resultTypeName,
  tokenOf,
  type FunctionDeclaration,
  type ResourceDeclaration,
} from "./declare";
import type { ObjectTypeSpec, PackageSpec, PropertySpec, ResourceSpec } from "./packageSchema";
import type { FieldFlags } from "./spec";

/** The JSON Schema that typescript-json-schema produces for one interface. */
export interface JsonSchema {
  description?: string;
  type?: string;
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  definitions?: Record<string, JsonSchema>;
}

export type TypeReader = (typeName: string) => JsonSchema;

export interface ObjectDeclaration {
  typeName: string;
  flags: Record<string, FieldFlags>;
}

export interface PackageDeclarations {
  resources: ResourceDeclaration[];
  functions: FunctionDeclaration[];
  provider: ObjectDeclaration;
}

export interface PackageOptions {
  version: string;
  readType: TypeReader;
  /** Where the engine downloads the plugin from, when the program's SDK names no other place. */
  pluginDownloadURL?: string;
  /** The package's homepage and its source repository (https URLs, from package.json). */
  homepage?: string;
  repository?: string;
}

/** Where the Go SDK lives as a Go package: the repository's host and path, then sdk/go/<package>. */
function goImportBasePath(repository: string): string {
  const url = new URL(repository);
  return `${url.host}${url.pathname.replace(/\/$/, "")}/sdk/go/${PACKAGE}`;
}

/** The sentence each flag adds to a property's documentation. */
export function flagSentences(flags: FieldFlags): string[] {
  return [
    flags.replaceOnChange && "Changing it replaces the resource.",
    flags.growOnly && "It can only grow: a smaller value fails at preview.",
    flags.fixedAfterCreate && "Fixed at creation: a change fails at preview.",
    flags.default !== undefined && `Defaults to \`${JSON.stringify(flags.default)}\`.`,
    flags.configDefault && `Defaults to the provider's \`${flags.configDefault}\`.`,
    flags.env && `Can also be set with the environment variable${flags.env.length > 1 ? "s" : ""} ${flags.env.map((e) => `\`${e}\``).join(" or ")}.`,
    flags.clearedWhenRemoved && "Taking it out of the program clears it.",
    flags.notReturned && "The API never returns it: state keeps the value the program set.",
    flags.secret && "Secret.",
  ].filter((sentence): sentence is string => typeof sentence === "string");
}

const describe = (text: string | undefined, flags: FieldFlags) => [text ?? "", ...flagSentences(flags)].filter(Boolean).join(" ");

type Types = Record<string, ObjectTypeSpec>;

/** One property's JSON Schema as a Pulumi type spec, collecting named object types into `types`. */
function typeSpec(schema: JsonSchema, definitions: Record<string, JsonSchema>, types: Types, flags: FieldFlags = {}): PropertySpec {
  if (schema.$ref) {
    const name = decodeURIComponent(schema.$ref.replace(/^#\/definitions\//, ""));
    const target = definitions[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    if (!target.properties) return typeSpec(target, definitions, types);
    types[tokenOf(name)] ??= {
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
    return { $ref: `#/types/${tokenOf(name)}` };
  }
  if (schema.type === "object") {
    const values = typeof schema.additionalProperties === "object" ? schema.additionalProperties : { type: "string" };
    return { type: "object", additionalProperties: typeSpec(values, definitions, types) };
  }
  if (schema.type === "array" && schema.items) return { type: "array", items: typeSpec(schema.items, definitions, types) };
  if (schema.type === "string" || schema.type === "integer" || schema.type === "number" || schema.type === "boolean") return { type: schema.type };
  throw new Error(`unsupported property schema ${JSON.stringify(schema)}`);
}

function propertySpec(schema: JsonSchema, flags: FieldFlags, definitions: Record<string, JsonSchema>, types: Types): PropertySpec {
  return {
    ...typeSpec(schema, definitions, types, flags),
    description: flags.output ? schema.description ?? "" : describe(schema.description, flags),
    ...(flags.default !== undefined ? { default: flags.default } : {}),
    ...(flags.env ? { defaultInfo: { environment: flags.env } } : {}),
    ...(flags.secret ? { secret: true } : {}),
    ...(flags.replaceOnChange ? { replaceOnChanges: true } : {}),
  };
}

/** An object with inputs and outputs (a resource, the provider, a function's arguments). */
function objectSpec(declared: ObjectDeclaration, readType: TypeReader, types: Types): Required<Pick<ResourceSpec, "description" | "properties" | "required" | "inputProperties" | "requiredInputs">> {
  const schema = readType(declared.typeName);
  const names = Object.keys(schema.properties ?? {}).sort();
  const flagged = Object.keys(declared.flags);
  const disagree = names.filter((n) => !flagged.includes(n)).concat(flagged.filter((n) => !names.includes(n)));
  if (disagree.length > 0) throw new Error(`${declared.typeName}: interface and flags disagree on ${disagree.join(", ")}`);

  const properties: Record<string, PropertySpec> = {};
  const inputProperties: Record<string, PropertySpec> = {};
  for (const name of names) {
    const flags = declared.flags[name];
    properties[name] = propertySpec(schema.properties![name], flags, schema.definitions ?? {}, types);
    if (!flags.output) inputProperties[name] = properties[name];
  }
  const required = new Set(schema.required ?? []);
  const alwaysPresent = (n: string) => required.has(n) || declared.flags[n].default !== undefined || Boolean(declared.flags[n].configDefault);
  return {
    description: schema.description ?? "",
    properties,
    required: names.filter(alwaysPresent),
    inputProperties,
    requiredInputs: names.filter((n) => required.has(n) && !declared.flags[n].output),
  };
}

const ID_PROPERTY: PropertySpec = { type: "string", description: "The id the API assigned." };

/** A lookup's result: the resource's properties (all but those the API never returns) and its id. */
function lookupResult(resource: ResourceDeclaration, readType: TypeReader, types: Types): ObjectTypeSpec {
  const schema = readType(resource.typeName);
  const flags = resource.flags as Record<string, FieldFlags>;
  const returned = Object.keys(schema.properties ?? {}).filter((n) => !flags[n].notReturned).sort();
  // As a function returns it, a property is a fact about the value: no defaults, no replacing.
  const asResult = (n: string): FieldFlags => ({ output: true, secret: flags[n].secret, secretSubfields: flags[n].secretSubfields });
  const properties = Object.fromEntries(returned.map((n) => [n, propertySpec(schema.properties![n], asResult(n), schema.definitions ?? {}, types)]));
  const required = new Set(schema.required ?? []);
  const alwaysPresent = returned.filter((n) => required.has(n) || flags[n].default !== undefined || Boolean(flags[n].configDefault));
  return { properties: { id: ID_PROPERTY, ...properties }, required: ["id", ...alwaysPresent] };
}

function functionSpec(fn: FunctionDeclaration, readType: TypeReader, types: Types) {
  const args = objectSpec({ typeName: argsTypeName(fn), flags: fn.args as Record<string, FieldFlags> }, readType, types);
  let outputs: ObjectTypeSpec;
  if ("flags" in fn.result) {
    const result = objectSpec({ typeName: resultTypeName(fn), flags: fn.result.flags }, readType, types);
    outputs = { properties: result.properties, required: result.required };
  } else if (fn.result.list) {
    // A list may mix kinds (the containers list holds databases too): only id and name (where the
    // kind has one: a service link has none) are always there. Pulumi's schema binder rejects a
    // required property that is not declared.
    const item = lookupResult(fn.result.resource, readType, types);
    const required = ["id", "name"].filter((n) => n in (item.properties ?? {}));
    types[itemTypeToken(fn)] = { type: "object", description: `One item of ${fn.name}.`, properties: item.properties, required };
    const described = `Every one found, with the properties of a ${fn.result.resource.typeName} and its id.`;
    outputs = {
      properties: { [fn.result.list]: { type: "array", items: { $ref: `#/types/${itemTypeToken(fn)}` }, description: described } },
      required: [fn.result.list],
    };
  } else {
    outputs = lookupResult(fn.result.resource, readType, types);
  }
  return { description: fn.description, inputs: { properties: args.inputProperties, required: args.requiredInputs }, outputs };
}

const sortedByKey = <T>(entries: Array<[string, T]>) => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));

export function buildPackageSchema(declarations: PackageDeclarations, options: PackageOptions): PackageSpec {
  const { readType } = options;
  const types: Types = {};
  const resources = sortedByKey(declarations.resources.map((r) => [tokenOf(r.typeName), objectSpec(r, readType, types)]));
  const provider = objectSpec(declarations.provider, readType, types);
  const functions = sortedByKey(declarations.functions.map((fn) => [tokenOf(fn.name), functionSpec(fn, readType, types)]));
  return {
    name: PACKAGE,
    displayName: "Hosting",
    version: options.version,
    description: "Apps, managed databases, service links, image registries and block volumes on the container hosting platform.",
    keywords: ["pulumi", "hosting", "containers", "kind/native"],
    license: "Apache-2.0",
    publisher: "pulumi-hosting",
    ...(options.homepage ? { homepage: options.homepage } : {}),
    ...(options.repository ? { repository: options.repository } : {}),
    ...(options.pluginDownloadURL ? { pluginDownloadURL: options.pluginDownloadURL } : {}),
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
    types: sortedByKey(Object.entries(types)),
    resources,
    functions,
    language: {
      nodejs: {
        packageName: "@hosting/pulumi",
        packageDescription: "Pulumi SDK for the container hosting platform.",
        dependencies: { "@pulumi/pulumi": "^3.142.0" },
        respectSchemaVersion: true,
      },
      // What `pulumi package gen-sdk schema.json --language python|go|dotnet` reads (the release
      // workflow generates those SDKs; pulumi/pulumi's pkg/codegen/<language>/importer.go, and
      // pulumi/pulumi-dotnet's for C#, define the fields).
      python: {
        packageName: `pulumi_${PACKAGE}`,
        requires: { pulumi: ">=3.142.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      ...(options.repository
        ? { go: { importBasePath: goImportBasePath(options.repository), generateResourceContainerTypes: true, respectSchemaVersion: true } }
        : {}),
      csharp: {
        packageReferences: { Pulumi: "3.*" },
        respectSchemaVersion: true,
      },
    },
  };
}
