// The declarations' examples as programs, for the schema (each resource's and function's description ends with its
// examples, in the `{{% examples %}}` form that Pulumi's docs generators read) and the docs: in TypeScript against the
// package's Node.js SDK, and in Pulumi YAML, which `pulumi convert` writes in the other languages (make
// docs-languages, scripts/program-languages.ts). A referenced resource (`consumerServiceId: web.id`) is declared
// first, from its own first example. And every example in one program of each, for the end-to-end suite.
import {
  isExampleSecret,
  isReference,
  type PackageDeclaration,
  tokenOf,
  type ExampleValue,
  type FunctionDeclaration,
  type FunctionExample,
  type ResourceDeclaration,
  type ResourceExample,
} from "./declare";
import { dump } from "js-yaml";

/** How the programs import the SDK (`import * as <alias> from "<module>"`), and the resources they may refer to. */
export interface SdkImport {
  module: string;
  alias: string;
  resources: ResourceDeclaration[];
}

/** The resource an example refers to, by its type name. */
export function referenced(resources: ResourceDeclaration[], typeName: string): ResourceDeclaration {
  const found = resources.find((r) => r.typeName === typeName);
  if (!found || found.examples.length === 0)
    throw new Error(`an example refers to ${typeName}, which is no resource with an example`);
  return found;
}

/** `web-db` → `webDb`: a resource's name as a variable. */
export const variableName = (name: string) =>
  name.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase());

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

/** A value as TypeScript source: on one line when it is short, else one property a line. */
function literal(sdk: SdkImport, value: ExampleValue, indent: string): string {
  if (isReference(value))
    return `${variableName(referenced(sdk.resources, value.reference).examples[0].name)}.${value.output}`;
  if (isExampleSecret(value)) return `config.requireSecret(${JSON.stringify(value.secretConfig)})`;
  if (Array.isArray(value)) return `[${value.map((item) => literal(sdk, item, indent)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(
      ([k, v]) => `${key(k)}: ${literal(sdk, v as ExampleValue, `${indent}    `)}`,
    );
    if (entries.length === 0) return "{}";
    const flat = `{ ${entries.join(", ")} }`;
    if (flat.length + indent.length <= 100 && !flat.includes("\n")) return flat;
    return `{\n${entries.map((e) => `${indent}    ${e},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The resources an example refers to, each before those that refer to it, each once. */
export function referencedIn(
  resources: ResourceDeclaration[],
  values: Record<string, ExampleValue>,
  seen = new Set<ResourceDeclaration>(),
): ResourceDeclaration[] {
  const found: ResourceDeclaration[] = [];
  const visit = (value: ExampleValue) => {
    if (isReference(value)) {
      const declaration = referenced(resources, value.reference);
      if (seen.has(declaration)) return;
      seen.add(declaration);
      found.push(...referencedIn(resources, declaration.examples[0].inputs, seen), declaration);
    } else if (value !== null && typeof value === "object" && !isExampleSecret(value)) {
      for (const v of Object.values(value)) visit(v as ExampleValue);
    }
  };
  Object.values(values).forEach(visit);
  return found;
}

const usesSecrets = (values: Record<string, ExampleValue>): boolean =>
  JSON.stringify(values).includes('"secretConfig"');

function declaration(sdk: SdkImport, resource: ResourceDeclaration, example: ResourceExample): string {
  const options = example.options ? `, ${literal(sdk, example.options, "")}` : "";
  const newExpression = `new ${sdk.alias}.${resource.typeName}`;
  const args = `${JSON.stringify(example.name)}, ${literal(sdk, example.inputs, "")}${options}`;
  return `const ${variableName(example.name)} = ${newExpression}(${args});`;
}

function program(sdk: SdkImport, inputs: Record<string, ExampleValue>, body: string[]): string {
  const dependencies = referencedIn(sdk.resources, inputs);
  const secrets = [inputs, ...dependencies.map((r) => r.examples[0].inputs)].some(usesSecrets);
  return [
    ...(secrets ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    `import * as ${sdk.alias} from "${sdk.module}";`,
    "",
    ...(secrets ? ["const config = new pulumi.Config();"] : []),
    ...dependencies.map((r) => declaration(sdk, r, r.examples[0])),
    ...body,
  ].join("\n");
}

export function resourceExampleProgram(
  sdk: SdkImport,
  resource: ResourceDeclaration,
  example: ResourceExample,
): string {
  return program(sdk, example.inputs, [declaration(sdk, resource, example)]);
}

export function functionExampleProgram(sdk: SdkImport, fn: FunctionDeclaration, example: FunctionExample): string {
  const args = Object.keys(example.args).length > 0 ? literal(sdk, example.args, "") : "";
  return program(sdk, example.args, [
    `export const ${variableName(example.show)} = ${sdk.alias}.${fn.name}Output(${args}).${example.show};`,
  ]);
}

/**
 * The examples section that ends a description, in the form Pulumi's docs generators read: each example its title
 * and one code block per language (`typescript`, `python`, …), which Pulumi's SDK generators filter to their own
 * language for the doc comments, and its docs generator shows in its language chooser.
 */
export function examplesSection(
  examples: Array<{ title: string; code: Array<[fence: string, code: string]> }>,
): string {
  if (examples.length === 0) return "";
  const blocks = examples.map(({ title, code }) =>
    [
      "{{% example %}}",
      `### ${title}`,
      "",
      ...code.map(([fence, program]) => ["```" + fence, program.trimEnd(), "```"].join("\n")),
      "{{% /example %}}",
    ].join("\n"),
  );
  return ["{{% examples %}}", "## Example Usage", ...blocks, "{{% /examples %}}"].join("\n");
}

/** The languages of an example, in the Pulumi Registry's order: each its code block's fence. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "csharp", "java", "yaml"] as const;

/** An example as `pulumi convert` wrote it from its YAML (make docs-languages): the YAML, and the code by language. */
export type ConvertedExample = { yaml: string } & Partial<Record<(typeof EXAMPLE_LANGUAGES)[number], string>>;

/**
 * An example's code blocks: the TypeScript examples.ts writes, what `pulumi convert` wrote from the YAML (when it
 * was converted from this YAML: else none, and `stale` is told), and the YAML.
 */
export function exampleBlocks(
  typescript: string,
  yaml: string,
  converted: ConvertedExample | undefined,
  stale: () => void,
): Array<[fence: string, code: string]> {
  const current = converted?.yaml === yaml ? converted : undefined;
  if (!current) stale();
  return EXAMPLE_LANGUAGES.flatMap((language): Array<[string, string]> => {
    if (language === "typescript") return [[language, typescript]];
    if (language === "yaml") return [[language, yaml]];
    const code = current?.[language];
    return code === undefined ? [] : [[language, code]];
  });
}

/** `getPostgres` → `postgres`: the variable that holds a function's result. */
const resultVariable = (fn: FunctionDeclaration) => fn.name.replace(/^get(.)/, (_, c: string) => c.toLowerCase());

/** Where the program of every example exports a function example's value: `postgresInternalHost`. */
export const everyExampleOutput = (fn: FunctionDeclaration, example: FunctionExample) =>
  `${resultVariable(fn)}${example.show[0].toUpperCase()}${example.show.slice(1)}`;

/**
 * Every example of the package in one TypeScript program, as the end-to-end suite runs them: each resource declared
 * once, as its examples declare it (what an example refers to is always that resource's first example, so the
 * examples agree on it), and each function example's value exported under a name of its own (everyExampleOutput).
 */
export function everyExampleProgram(sdk: SdkImport, functions: FunctionDeclaration[]): string {
  const lines = new Set<string>();
  const values: Array<Record<string, ExampleValue>> = [];
  for (const resource of sdk.resources)
    for (const example of resource.examples) {
      values.push(example.inputs);
      for (const dependency of referencedIn(sdk.resources, example.inputs))
        lines.add(declaration(sdk, dependency, dependency.examples[0]));
      lines.add(declaration(sdk, resource, example));
    }
  for (const fn of functions)
    for (const example of fn.examples) {
      values.push(example.args);
      for (const dependency of referencedIn(sdk.resources, example.args))
        lines.add(declaration(sdk, dependency, dependency.examples[0]));
      const args = Object.keys(example.args).length > 0 ? literal(sdk, example.args, "") : "";
      lines.add(
        `export const ${everyExampleOutput(fn, example)} = ${sdk.alias}.${fn.name}Output(${args}).${example.show};`,
      );
    }
  const secrets = values.some(usesSecrets);
  return [
    ...(secrets ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    `import * as ${sdk.alias} from "${sdk.module}";`,
    "",
    ...(secrets ? ["const config = new pulumi.Config();"] : []),
    ...lines,
  ].join("\n");
}

/** A Pulumi YAML program's sections, as the examples fill them (js-yaml writes them out). */
export interface YamlProgram {
  config?: Record<string, { type: string; secret?: boolean }>;
  resources?: Record<string, { type: string; properties?: Record<string, unknown>; options?: Record<string, unknown> }>;
  variables?: Record<string, { "fn::invoke": { function: string; arguments?: Record<string, unknown> } }>;
  outputs?: Record<string, string>;
}

/** A value as Pulumi YAML writes it: another resource's output as `${web.id}`, a secret as the config key it names. */
function yamlValue(sdk: SdkImport, value: ExampleValue, program: YamlProgram): unknown {
  if (isReference(value)) return `\${${referenced(sdk.resources, value.reference).examples[0].name}.${value.output}}`;
  if (isExampleSecret(value)) {
    program.config = { ...program.config, [value.secretConfig]: { type: "string", secret: true } };
    return `\${${value.secretConfig}}`;
  }
  if (Array.isArray(value)) return value.map((item) => yamlValue(sdk, item, program));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, yamlValue(sdk, v as ExampleValue, program)]));
  return value;
}

/** The resource, and what it refers to before it, in the program (each once). */
function yamlResources(sdk: SdkImport, resource: ResourceDeclaration, example: ResourceExample, program: YamlProgram) {
  for (const dependency of referencedIn(sdk.resources, example.inputs))
    if (!program.resources?.[dependency.examples[0].name])
      yamlResources(sdk, dependency, dependency.examples[0], program);
  const properties = yamlValue(sdk, example.inputs, program) as Record<string, unknown>;
  program.resources = {
    ...program.resources,
    [example.name]: {
      type: `${sdk.alias}:${resource.typeName}`,
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
      ...(example.options ? { options: example.options } : {}),
    },
  };
}

/** The function's result in a variable of the program (what its arguments refer to declared first). */
function yamlInvoke(sdk: SdkImport, fn: FunctionDeclaration, example: FunctionExample, program: YamlProgram) {
  for (const dependency of referencedIn(sdk.resources, example.args))
    if (!program.resources?.[dependency.examples[0].name])
      yamlResources(sdk, dependency, dependency.examples[0], program);
  const args = yamlValue(sdk, example.args, program) as Record<string, unknown>;
  const invoke = { function: `${sdk.alias}:${fn.name}`, ...(Object.keys(args).length > 0 ? { arguments: args } : {}) };
  program.variables = { ...program.variables, [resultVariable(fn)]: { "fn::invoke": invoke } };
}

export function resourceExampleYaml(sdk: SdkImport, resource: ResourceDeclaration, example: ResourceExample) {
  const program: YamlProgram = {};
  yamlResources(sdk, resource, example, program);
  return program;
}

export function functionExampleYaml(sdk: SdkImport, fn: FunctionDeclaration, example: FunctionExample) {
  const program: YamlProgram = {};
  yamlInvoke(sdk, fn, example, program);
  return { ...program, outputs: { [example.show]: `\${${resultVariable(fn)}.${example.show}}` } };
}

/** Every example in one YAML program, as everyExampleProgram holds them in TypeScript. */
export function everyExampleYaml(sdk: SdkImport, functions: FunctionDeclaration[]): YamlProgram {
  const program: YamlProgram = {};
  for (const resource of sdk.resources)
    for (const example of resource.examples) yamlResources(sdk, resource, example, program);
  for (const fn of functions)
    for (const example of fn.examples) {
      yamlInvoke(sdk, fn, example, program);
      program.outputs = {
        ...program.outputs,
        [everyExampleOutput(fn, example)]: `\${${resultVariable(fn)}.${example.show}}`,
      };
    }
  return program;
}

/**
 * The program as YAML, its sections in Pulumi.yaml's order; with `project`, as a Pulumi.yaml (its `name`,
 * `runtime: yaml`), else as the Pulumi Registry shows an example (the sections only).
 */
export function yamlText(program: YamlProgram, project?: { name: string; description?: string }): string {
  const { config, resources, variables, outputs } = program;
  const document = {
    ...(project ? { name: project.name, runtime: "yaml" } : {}),
    ...(project?.description ? { description: project.description } : {}),
    ...(config ? { config } : {}),
    ...(resources ? { resources } : {}),
    ...(variables ? { variables } : {}),
    ...(outputs ? { outputs } : {}),
  };
  return dump(document, { lineWidth: -1, noRefs: true });
}

/** How a package's programs import its SDK: its npm module, its name as the alias, and the resources they may use. */
export const sdkOf = (pkg: PackageDeclaration): SdkImport => ({
  module: pkg.nodejsPackage,
  alias: pkg.name,
  resources: pkg.resources,
});

/** Each resource's and function's examples, in order: its token, its title, and its YAML (the Registry's form). */
export function referenceExamples(pkg: PackageDeclaration): Array<{ token: string; title: string; yaml: string }> {
  const sdk = sdkOf(pkg);
  return [
    ...pkg.resources.flatMap((r) =>
      r.examples.map((e) => ({
        token: tokenOf(pkg, r.typeName),
        title: e.title,
        yaml: yamlText(resourceExampleYaml(sdk, r, e)),
      })),
    ),
    ...pkg.functions.flatMap((fn) =>
      fn.examples.map((e) => ({
        token: tokenOf(pkg, fn.name),
        title: e.title,
        yaml: yamlText(functionExampleYaml(sdk, fn, e)),
      })),
    ),
  ];
}
