// Builds the Pulumi package schema from the declarations: the JSON Schema of each declaring
// interface (types, optionality, docs) plus its flags table (behaviour). Each flag adds its
// sentence to the property's documentation, so no description restates a flag by hand.
import {
  argsTypeName,
  itemTypeToken,
  resultTypeName,
  tokenOf,
  type FunctionDeclaration,
  type PackageDeclaration,
  type ResourceDeclaration,
} from "./declare";
import type { JsonSchema, TypeReader } from "./jsonSchema";
import {
  type ConvertedExample,
  exampleBlocks,
  examplesSection,
  functionExampleProgram,
  functionExampleYaml,
  resourceExampleProgram,
  resourceExampleYaml,
  type SdkImport,
  sdkOf,
  yamlText,
} from "./examples";
import type { ObjectTypeSpec, PackageSpec, PropertySpec, ResourceSpec } from "./packageSchema";
import { alwaysFilled, type FieldFlags } from "./spec";

export interface PackageOptions {
  version: string;
  readType: TypeReader;
  /** Where the engine downloads the plugin from, when the program's SDK names no other place. */
  pluginDownloadURL?: string;
  /** The package's homepage and its source repository (https URLs, from package.json). */
  homepage?: string;
  repository?: string;
  /** The version range of `@pulumi/pulumi` the Node.js SDK depends on: the repository's one range (package.json). */
  pulumiNodejsRange: string;
  /**
   * Each resource's and function's examples in the other languages, by token, in the order of its examples, as `pulumi
   * convert` wrote them from their YAML (make docs-languages, docs/programs/reference-examples.json).
   */
  converted?: Record<string, ConvertedExample[]>;
  /** Told of each example whose YAML is not the one `converted` holds (so the description has no other language). */
  onStale?: (token: string, title: string) => void;
}

/**
 * The Go SDK's module: sdk/go.mod in the repository (`make sdk` writes it), so its release is the tag
 * `sdk/v<version>`; from version 2 on, Go's module path ends in the major version (`sdk/v2`).
 */
export function goModulePath(repository: string, version: string): string {
  const url = new URL(repository);
  const major = Number(version.split(".")[0]);
  return `${url.host}${url.pathname.replace(/\/$/, "")}/sdk${major >= 2 ? `/v${major}` : ""}`;
}

/**
 * The repository's owner as the first part of a .NET namespace and a Java package (`pulumi-hosting` gives
 * `PulumiHosting` and `pulumihosting`): NuGet reserves the `Pulumi.` prefix for Pulumi's own packages, and
 * Maven Central publishes a group only under a namespace its publisher has verified (docs/releasing.md).
 */
const ownerWords = (repository: string) => new URL(repository).pathname.split("/")[1].split(/[^A-Za-z0-9]+/);

/** The sentence each flag adds to a property's documentation. */
export function flagSentences(flags: FieldFlags): string[] {
  return [
    flags.replaceOnChange && "Changing it replaces the resource.",
    flags.autoname &&
      "Left out, the provider names the resource: its name in the program and a random suffix (`db` becomes `db-3f9a1c2`), or the name the project's `pulumi:autonaming` configuration gives it; an update keeps the name it has, and a replacement takes a fresh one.",
    flags.growOnly && "It can only grow: a smaller value fails at preview.",
    flags.fixedAfterCreate && "Fixed at creation: a change fails at preview.",
    flags.unordered && "Its order does not matter.",
    flags.appendOnly &&
      "Items can be added, not removed: dropping one fails at preview. An item the program did not list (made outside it) reads back here, and is not the program's to manage.",
    flags.default !== undefined && `Defaults to \`${JSON.stringify(flags.default)}\`.`,
    flags.configDefault && `Defaults to the provider's \`${flags.configDefault}\`.`,
    flags.env &&
      `Can also be set with the environment variable${flags.env.length > 1 ? "s" : ""} ${flags.env.map((e) => `\`${e}\``).join(" or ")}.`,
    flags.clearedWhenRemoved && "Taking it out of the program clears it.",
    flags.notReturned && "The API never returns it: state keeps the value the program set.",
    flags.resentOnUpdate &&
      flags.notReturned &&
      "Every update sends it again: while it is in `ignoreChanges`, an update fails at preview instead of sending a stale value.",
    flags.secret && "Secret.",
  ].filter((sentence): sentence is string => typeof sentence === "string");
}

const describe = (text: string | undefined, flags: FieldFlags) =>
  [text ?? "", ...flagSentences(flags)].filter(Boolean).join(" ");

type Types = Record<string, ObjectTypeSpec>;

/** What the builder carries through: the package, and the named object types collected so far. */
interface Building {
  pkg: PackageDeclaration;
  types: Types;
}

/** One property's JSON Schema as a Pulumi type spec, collecting named object types into `types`. */
function typeSpec(
  schema: JsonSchema,
  definitions: Record<string, JsonSchema>,
  building: Building,
  flags: FieldFlags = {},
): PropertySpec {
  if (schema.$ref) {
    const name = decodeURIComponent(schema.$ref.replace(/^#\/definitions\//, ""));
    const target = definitions[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    if (!target.properties) return typeSpec(target, definitions, building);
    const token = tokenOf(building.pkg, name);
    building.types[token] ??= {
      type: "object",
      description: target.description ?? "",
      properties: Object.fromEntries(
        Object.entries(target.properties).map(([key, prop]) => [
          key,
          {
            ...typeSpec(prop, definitions, building),
            description: prop.description ?? "",
            ...(flags.secretSubfields?.includes(key) ? { secret: true } : {}),
          },
        ]),
      ),
      required: [...(target.required ?? [])].sort(),
    };
    return { $ref: `#/types/${token}` };
  }
  if (schema.type === "object") {
    const values = typeof schema.additionalProperties === "object" ? schema.additionalProperties : { type: "string" };
    return { type: "object", additionalProperties: typeSpec(values, definitions, building) };
  }
  if (schema.type === "array" && schema.items)
    return { type: "array", items: typeSpec(schema.items, definitions, building) };
  if (schema.type === "string" || schema.type === "integer" || schema.type === "number" || schema.type === "boolean")
    return { type: schema.type };
  throw new Error(`unsupported property schema ${JSON.stringify(schema)}`);
}

function propertySpec(
  schema: JsonSchema,
  flags: FieldFlags,
  definitions: Record<string, JsonSchema>,
  building: Building,
): PropertySpec {
  return {
    ...typeSpec(schema, definitions, building, flags),
    description: flags.output ? (schema.description ?? "") : describe(schema.description, flags),
    ...(flags.default !== undefined ? { default: flags.default } : {}),
    ...(flags.env ? { defaultInfo: { environment: flags.env } } : {}),
    ...(flags.secret ? { secret: true } : {}),
    ...(flags.replaceOnChange ? { replaceOnChanges: true } : {}),
  };
}

/**
 * An object with inputs and outputs (a resource, the provider, a function's arguments), from its JSON Schema and
 * flags.
 */
function objectSpec(
  what: string,
  schema: JsonSchema,
  flags: Record<string, FieldFlags>,
  building: Building,
): Required<Pick<ResourceSpec, "description" | "properties" | "required" | "inputProperties" | "requiredInputs">> {
  const names = Object.keys(schema.properties ?? {}).sort();
  const flagged = Object.keys(flags);
  const disagree = names.filter((n) => !flagged.includes(n)).concat(flagged.filter((n) => !names.includes(n)));
  if (disagree.length > 0) throw new Error(`${what}: interface and flags disagree on ${disagree.join(", ")}`);

  const properties: Record<string, PropertySpec> = {};
  const inputProperties: Record<string, PropertySpec> = {};
  for (const name of names) {
    properties[name] = propertySpec(schema.properties![name], flags[name], schema.definitions ?? {}, building);
    if (!flags[name].output) inputProperties[name] = properties[name];
  }
  const required = new Set(schema.required ?? []);
  return {
    description: schema.description ?? "",
    properties,
    required: names.filter((n) => required.has(n) || alwaysFilled(flags[n])),
    inputProperties,
    requiredInputs: names.filter((n) => required.has(n) && !flags[n].output),
  };
}

const ID_PROPERTY: PropertySpec = { type: "string", description: "The id the API assigned." };

/** A lookup's result: the resource's properties (all but those the API never returns) and its id. */
function lookupResult(resource: ResourceDeclaration, readType: TypeReader, building: Building): ObjectTypeSpec {
  const schema = readType(resource.typeName);
  const flags = resource.flags as Record<string, FieldFlags>;
  const returned = Object.keys(schema.properties ?? {})
    .filter((n) => !flags[n].notReturned)
    .sort();
  // As a function returns it, a property is a fact about the value: no defaults, no replacing.
  const asResult = (n: string): FieldFlags => ({
    output: true,
    secret: flags[n].secret,
    secretSubfields: flags[n].secretSubfields,
  });
  const properties = Object.fromEntries(
    returned.map((n) => [n, propertySpec(schema.properties![n], asResult(n), schema.definitions ?? {}, building)]),
  );
  const required = new Set(schema.required ?? []);
  const alwaysPresent = returned.filter((n) => required.has(n) || alwaysFilled(flags[n]));
  return { properties: { id: ID_PROPERTY, ...properties }, required: ["id", ...alwaysPresent] };
}

function functionSpec(
  fn: FunctionDeclaration,
  readType: TypeReader,
  building: Building,
  sdk: SdkImport,
  options: PackageOptions,
) {
  const args = objectSpec(
    argsTypeName(fn),
    fn.argsSchema?.(readType) ?? readType(argsTypeName(fn)),
    fn.args as Record<string, FieldFlags>,
    building,
  );
  let outputs: ObjectTypeSpec;
  if ("flags" in fn.result) {
    const result = objectSpec(resultTypeName(fn), readType(resultTypeName(fn)), fn.result.flags, building);
    outputs = { properties: result.properties, required: result.required };
  } else if (fn.result.list) {
    // A list may mix kinds (the containers list holds databases too): only id and name (where the
    // kind has one: a service link has none) are always there. Pulumi's schema binder rejects a
    // required property that is not declared.
    const item = lookupResult(fn.result.resource, readType, building);
    const required = ["id", "name"].filter((n) => n in (item.properties ?? {}));
    const itemToken = itemTypeToken(building.pkg, fn);
    building.types[itemToken] = {
      type: "object",
      description: `One item of ${fn.name}.`,
      properties: item.properties,
      required,
    };
    const described = `Every one found, with the properties of a ${fn.result.resource.typeName} and its id.`;
    outputs = {
      properties: {
        [fn.result.list]: { type: "array", items: { $ref: `#/types/${itemToken}` }, description: described },
      },
      required: [fn.result.list],
    };
  } else {
    outputs = lookupResult(fn.result.resource, readType, building);
  }
  const token = tokenOf(building.pkg, fn.name);
  const examples = fn.examples.map((e, i) => ({
    title: e.title,
    code: exampleBlocks(
      functionExampleProgram(sdk, fn, e),
      yamlText(functionExampleYaml(sdk, fn, e)),
      options.converted?.[token]?.[i],
      () => options.onStale?.(token, e.title),
    ),
  }));
  return {
    description: withSections(fn.description, examplesSection(examples)),
    inputs: { properties: args.inputProperties, required: args.requiredInputs },
    outputs,
  };
}

/**
 * How `pulumi import` takes a resource: its id, in the resource's form, and the project in front for project
 * resources.
 */
/** What a resource-level declaration adds to the resource's documentation. */
function resourceSentences(resource: ResourceDeclaration): string[] {
  return [
    resource.lifecycle.dataAtStake &&
      "A change that would replace it (and so delete its data) fails at preview; replace it deliberately with `pulumi up --replace <urn>`. `pulumi destroy`, and deleting it from the program, delete it as usual.",
  ].filter((sentence): sentence is string => typeof sentence === "string");
}

function importSection(pkg: PackageDeclaration, resource: ResourceDeclaration): string {
  const token = tokenOf(pkg, resource.typeName);
  const id = resource.idFormat ?? "<id>";
  const name = resource.examples[0]?.name ?? "name";
  const lines = [
    `pulumi import ${token} ${name} '${id}'`,
    ...(resource.scope === "project" ? [`pulumi import ${token} ${name} '<projectId>/${id}'`] : []),
  ];
  const where =
    resource.scope === "project" ? " (in the provider's project, or in another one with the project in front)" : "";
  return [
    "## Import",
    "",
    `An existing ${resource.typeName} is imported by its id${where}:`,
    "",
    "```sh",
    ...lines,
    "```",
  ].join("\n");
}

/**
 * What `Resource.get(name, id, state)` may pass to qualify a lookup: every property, none required.
 * Pulumi's SDK generators emit the `<Name>State` type and the state parameter only for this; what
 * configures a create (defaults, replaceOnChanges) has no place in a lookup.
 */
function stateInputsOf(typeName: string, properties: Record<string, PropertySpec>): ObjectTypeSpec {
  const asState = ({
    default: _default,
    defaultInfo: _defaultInfo,
    replaceOnChanges: _replace,
    ...spec
  }: PropertySpec) => spec;
  return {
    description: `Input properties used for looking up and filtering ${typeName} resources.`,
    properties: Object.fromEntries(Object.entries(properties).map(([name, spec]) => [name, asState(spec)])),
    type: "object",
  };
}

const withSections = (text: string, ...sections: string[]) =>
  [text, ...sections].filter((part) => part !== "").join("\n\n");

const sortedByKey = <T>(entries: Array<[string, T]>) =>
  Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));

export function buildPackageSchema(pkg: PackageDeclaration, options: PackageOptions): PackageSpec {
  const { readType } = options;
  const building: Building = { pkg, types: {} };
  const sdk = sdkOf(pkg);
  const resourceSpec = (r: ResourceDeclaration) => {
    const object = objectSpec(r.typeName, readType(r.typeName), r.flags as Record<string, FieldFlags>, building);
    const token = tokenOf(pkg, r.typeName);
    const examples = r.examples.map((e, i) => ({
      title: e.title,
      code: exampleBlocks(
        resourceExampleProgram(sdk, r, e),
        yamlText(resourceExampleYaml(sdk, r, e)),
        options.converted?.[token]?.[i],
        () => options.onStale?.(token, e.title),
      ),
    }));
    const description = [object.description, ...resourceSentences(r)].filter(Boolean).join("\n\n");
    return {
      ...object,
      description: withSections(description, examplesSection(examples), importSection(pkg, r)),
      stateInputs: stateInputsOf(r.typeName, object.properties),
    };
  };
  const resources = sortedByKey(pkg.resources.map((r) => [tokenOf(pkg, r.typeName), resourceSpec(r)]));
  const provider = objectSpec(pkg.config.typeName, readType(pkg.config.typeName), pkg.config.flags, building);
  const functions = sortedByKey(
    pkg.functions.map((fn) => [tokenOf(pkg, fn.name), functionSpec(fn, readType, building, sdk, options)]),
  );
  const types = building.types;
  return {
    name: pkg.name,
    displayName: pkg.about.displayName,
    version: options.version,
    description: pkg.about.description,
    keywords: pkg.about.keywords,
    license: pkg.about.license,
    publisher: pkg.about.publisher,
    ...(options.homepage ? { homepage: options.homepage } : {}),
    ...(options.repository ? { repository: options.repository } : {}),
    ...(options.pluginDownloadURL ? { pluginDownloadURL: options.pluginDownloadURL } : {}),
    config: {
      variables: provider.inputProperties,
      defaults: Object.keys(provider.inputProperties).filter((n) => !provider.requiredInputs.includes(n)),
    },
    provider: {
      description: `The provider type for the ${pkg.name} package. By default, resources use package-wide configuration settings; an explicit \`Provider\` instance overrides them.`,
      properties: provider.properties,
      inputProperties: provider.inputProperties,
      requiredInputs: [],
    },
    types: sortedByKey(Object.entries(types)),
    resources,
    functions,
    language: languageSection(pkg, options),
  };
}

/**
 * What each language's generator (`pulumi package gen-sdk`, `make sdk`) reads: the package's name in that
 * language's registry and where its SDK lives (pulumi/pulumi's pkg/codegen/<language>/importer.go,
 * pulumi-dotnet's and pulumi-java's codegen define the fields). The Python SDK depends on the
 * generator's own minimum of the Pulumi SDK (the code it writes calls `exists_resource`, new in 3.269).
 */
function languageSection(pkg: PackageDeclaration, options: PackageOptions): PackageSpec["language"] {
  const owner = options.repository ? ownerWords(options.repository) : undefined;
  return {
    nodejs: {
      packageName: pkg.nodejsPackage,
      packageDescription: "Pulumi SDK for the container hosting platform.",
      readme: registryPage(pkg, options, "Node.js (TypeScript and JavaScript)", `npm install ${pkg.nodejsPackage}`),
      dependencies: { "@pulumi/pulumi": options.pulumiNodejsRange },
      typescriptVersion: "^5.0.0",
      respectSchemaVersion: true,
    },
    python: {
      packageName: `pulumi_${pkg.name}`,
      readme: registryPage(pkg, options, "Python", `pip install pulumi_${pkg.name}`),
      pyproject: { enabled: true },
      respectSchemaVersion: true,
    },
    ...(options.repository
      ? {
          go: {
            importBasePath: `${goModulePath(options.repository, options.version)}/go/${pkg.name}`,
            generateResourceContainerTypes: true,
            respectSchemaVersion: true,
          },
        }
      : {}),
    csharp: {
      ...(owner ? { rootNamespace: owner.map((w) => w[0].toUpperCase() + w.slice(1)).join("") } : {}),
      packageReferences: { Pulumi: "3.*" },
      respectSchemaVersion: true,
    },
    java: {
      ...(owner ? { basePackage: `io.github.${owner.join("").toLowerCase()}` } : {}),
      dependencies: { "com.pulumi:pulumi": JAVA_SDK_VERSION },
    },
  };
}

/** com.pulumi:pulumi on Maven Central, which the Java SDK is built against (its build.gradle's dependency). */
const JAVA_SDK_VERSION = "1.36.1";

/** The SDK's page on its registry (npm, PyPI): what it is, how to install it and the plugin, where the docs are. */
function registryPage(pkg: PackageDeclaration, options: PackageOptions, language: string, install: string): string {
  const docs = options.repository && `${options.repository}/blob/v${options.version}/docs/_index.md`;
  const server = options.pluginDownloadURL ? ` --server ${options.pluginDownloadURL}` : "";
  return [
    pkg.about.description,
    `The ${language} SDK of the Pulumi provider \`${pkg.name}\` ${options.version}.${docs ? ` [Documentation](${docs})` : ""}`,
    "## Install",
    `\`\`\`sh\n${install}\n\`\`\``,
    `Programs also need the provider plugin, \`pulumi-resource-${pkg.name}\` ${options.version}: the SDK tells the engine which version and where it is published, so \`pulumi up\` (or \`pulumi install\`) installs it. By hand:`,
    `\`\`\`sh\npulumi plugin install resource ${pkg.name} ${options.version}${server}\n\`\`\``,
  ].join("\n\n");
}
