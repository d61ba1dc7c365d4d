// The declarations' examples as TypeScript programs against the package's Node.js SDK, for
// the schema (each resource's and function's description ends with its examples, in the
// `{{% examples %}}` form that Pulumi's docs generators read) and the docs. A referenced
// resource (`consumerServiceId: web.id`) is declared first, from its own first example.
import {
  isExampleSecret,
  isReference,
  type ExampleValue,
  type FunctionDeclaration,
  type FunctionExample,
  type ResourceDeclaration,
  type ResourceExample,
} from "./declare";

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

/** The examples section that ends a description, in the form Pulumi's docs generators read. */
export function examplesSection(examples: Array<{ title: string; code: string }>): string {
  if (examples.length === 0) return "";
  const blocks = examples.map(({ title, code }) =>
    ["{{% example %}}", `### ${title}`, "", "```typescript", code, "```", "{{% /example %}}"].join("\n"),
  );
  return ["{{% examples %}}", "## Example Usage", ...blocks, "{{% /examples %}}"].join("\n");
}
