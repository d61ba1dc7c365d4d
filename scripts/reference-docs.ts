// The reference pages of docs/reference/, from schema.json (`make docs`, scripts/gen-docs.ts): an
// index, one page per resource and per function, and the explicit provider's page. Each has what
// the description says (Pulumi's example shortcodes dropped, the markdown kept), its examples, its
// inputs (type, required, default, secret, replace-on-change), its outputs, the object types it
// uses, and for a resource how to import it. Pure and deterministic: the same schema gives the
// same pages, byte for byte.
import type {
  FunctionSpec,
  ObjectTypeSpec,
  PackageSpec,
  PropertySpec,
  ResourceSpec,
} from "../provider/src/framework/packageSchema";
import { LANGUAGES, registryChooser } from "./program-languages";
import {
  examplesByLanguage,
  firstSentence,
  nameOfToken,
  referencePage,
  sortedEntries,
  splitDescription,
  tableCell,
  typesReferenced,
  typeToken,
} from "./schema-text";

const GENERATED = "<!-- Generated from schema.json by `make docs` (scripts/gen-docs.ts): do not edit. -->";

const yes = (flag: boolean | undefined) => (flag ? "yes" : "");
/** The args parameter as the SDK declares it (gen-sdk.ts, after Pulumi's gen.go): optional when none is required. */
const argsParam = (type: string, required: string[] | undefined) =>
  `args${(required ?? []).length > 0 ? "" : "?"}: ${type}`;
const code = (text: string) => `\`${text}\``;
const anchorOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9-]/g, "");

/** A property's type as the TypeScript SDK spells it, object types linked to where the page lists them. */
function typeOf(spec: PropertySpec): string {
  if (spec.$ref) {
    const name = nameOfToken(typeToken(spec.$ref));
    return `[${name}](#${anchorOf(name)})`;
  }
  if (spec.type === "array") return `${typeOf(spec.items ?? {})}[]`;
  if (spec.type === "object") return `map of ${typeOf(spec.additionalProperties ?? { type: "string" })}`;
  if (spec.type === "integer" || spec.type === "number") return "number";
  return spec.type ?? "any";
}

/** What stands in for an unset input: its default, then the environment variables it reads. */
function defaultOf(spec: PropertySpec): string {
  return [
    ...(spec.default !== undefined ? [code(JSON.stringify(spec.default))] : []),
    ...(spec.defaultInfo?.environment ?? []).map((name) => `env ${code(name)}`),
  ].join(", ");
}

interface Columns {
  /** The required inputs (heading "required"), or the properties a result always has (heading "always set"). */
  required?: Set<string>;
  requiredHeading?: string;
  defaults?: boolean;
  replaces?: boolean;
}

/** A table of properties: name, type, then the columns asked for, secret, and the description. */
function propertyTable(properties: Record<string, PropertySpec> | undefined, columns: Columns = {}): string {
  const rows = sortedEntries(properties);
  if (rows.length === 0) return "None.\n";
  const headings = [
    "name",
    "type",
    ...(columns.required ? [columns.requiredHeading ?? "required"] : []),
    ...(columns.defaults ? ["default"] : []),
    "secret",
    ...(columns.replaces ? ["replaces on change"] : []),
    "description",
  ];
  const line = (values: string[]) => `| ${values.join(" | ")} |`;
  return [
    line(headings),
    line(headings.map(() => "---")),
    ...rows.map(([name, spec]) =>
      line([
        code(name),
        typeOf(spec),
        ...(columns.required ? [yes(columns.required.has(name))] : []),
        ...(columns.defaults ? [defaultOf(spec)] : []),
        yes(spec.secret),
        ...(columns.replaces ? [yes(spec.replaceOnChanges)] : []),
        tableCell(spec.description),
      ]),
    ),
    "",
  ].join("\n");
}

function supportingTypes(pkg: PackageSpec, tokens: string[]): string {
  if (tokens.length === 0) return "";
  const sections = tokens.map((token) => {
    const type: ObjectTypeSpec = pkg.types?.[token] ?? {};
    const description = type.description ? `${type.description}\n\n` : "";
    const table = propertyTable(type.properties, {
      required: new Set(type.required ?? []),
      requiredHeading: "always set",
    });
    return `### ${nameOfToken(token)}\n\n${description}${table}`;
  });
  return `## Supporting types\n\n${sections.join("\n")}`;
}

/** The page's title block: the name, its token and kind, and the description's summary. */
function header(token: string, kind: string, summary: string): string {
  return `${GENERATED}\n\n# ${nameOfToken(token)}\n\n${code(token)} · ${kind}\n\n${summary ? `${summary}\n\n` : ""}`;
}

/**
 * The examples, each its title and its code in every language it has, in the Pulumi Registry's language chooser
 * (scripts/program-languages.ts) when it has more than one.
 */
function examplesSection(examples: string | undefined): string {
  if (!examples) return "";
  const shown = examplesByLanguage(examples).map(({ title, code }) => {
    const languages = LANGUAGES.filter((language) => code[language.fence] !== undefined);
    const sources = Object.fromEntries(languages.map((language) => [language.id, code[language.fence]]));
    const block = ([fence, program]: [string, string]) => `\`\`\`${fence}\n${program.trimEnd()}\n\`\`\``;
    // The chooser where there is a choice; a block in no language it knows, as it is.
    const blocks = Object.entries(code).filter(
      ([fence]) => languages.length < 2 || !languages.some((l) => l.fence === fence),
    );
    return [`### ${title}`, ...(languages.length > 1 ? [registryChooser(sources)] : []), ...blocks.map(block)].join(
      "\n\n",
    );
  });
  return `## Example usage\n\n${shown.join("\n\n")}\n\n`;
}

function resourcePage(pkg: PackageSpec, token: string, resource: ResourceSpec): string {
  const name = nameOfToken(token);
  const packageName = pkg.language?.nodejs?.packageName ?? `@pulumi/${pkg.name}`;
  const { summary, examples, importSection } = splitDescription(resource.description);
  const outputsOnly = Object.fromEntries(
    sortedEntries(resource.properties).filter(([property]) => !resource.inputProperties?.[property]),
  );
  const imported =
    importSection ??
    `The id is the one the API assigned:\n\n\`\`\`sh\npulumi import ${token} <resource name> <id>\n\`\`\``;
  const inputs = propertyTable(resource.inputProperties, {
    required: new Set(resource.requiredInputs ?? []),
    defaults: true,
    replaces: true,
  });
  return `${header(token, "resource", summary)}${examplesSection(examples)}## Create

\`\`\`typescript
import * as ${pkg.name} from "${packageName}";

new ${pkg.name}.${name}(name: string, ${argsParam(`${pkg.name}.${name}Args`, resource.requiredInputs)}, opts?: pulumi.CustomResourceOptions);
\`\`\`

## Inputs

${inputs}
## Outputs

Every input is also an output, as is the resource's \`id\`. And:

${propertyTable(outputsOnly)}
${supportingTypes(pkg, [...typesReferenced(pkg, [resource.inputProperties, resource.properties])].sort())}## Import

${imported}
`;
}

function functionPage(pkg: PackageSpec, token: string, fn: FunctionSpec): string {
  const name = nameOfToken(token);
  const Name = name[0].toUpperCase() + name.slice(1);
  const { summary, examples } = splitDescription(fn.description);
  const call = `${pkg.name}.${name}`;
  const types = `${pkg.name}.${Name}`;
  const args = fn.inputs;
  // The Output form of a function without arguments takes none, and has no OutputArgs type (gen-sdk.ts).
  const plainArgs = args ? `${argsParam(`${types}Args`, args.required)}, ` : "";
  const outputArgs =
    args && Object.keys(args.properties ?? {}).length > 0 ? `${argsParam(`${types}OutputArgs`, args.required)}, ` : "";
  const result = propertyTable(fn.outputs?.properties, {
    required: new Set(fn.outputs?.required ?? []),
    requiredHeading: "always set",
  });
  return `${header(token, "function", summary)}${examplesSection(examples)}## Use

\`\`\`typescript
${call}(${plainArgs}opts?: pulumi.InvokeOptions): Promise<${types}Result>
${call}Output(${outputArgs}opts?: pulumi.InvokeOutputOptions): pulumi.Output<${types}Result>
\`\`\`

The first takes plain values and returns a promise; the second takes outputs (another resource's
\`id\`, say) and returns an output.

## Arguments

${propertyTable(fn.inputs?.properties, { required: new Set(fn.inputs?.required ?? []), defaults: true })}
## Result

${result}
${supportingTypes(pkg, [...typesReferenced(pkg, [fn.inputs?.properties, fn.outputs?.properties])].sort())}`.replace(
    /\n+$/,
    "\n",
  );
}

function providerPage(pkg: PackageSpec): string {
  const provider = pkg.provider ?? {};
  const title = header(`pulumi:providers:${pkg.name}`, "provider", provider.description ?? "");
  return `${title}Its inputs are the package's configuration keys (\`${pkg.name}:<key>\` in stack configuration);
[Installation and configuration](../installation-configuration.md) says how to set them.

\`\`\`typescript
new ${pkg.name}.Provider(name: string, ${argsParam(`${pkg.name}.ProviderArgs`, provider.requiredInputs)}, opts?: pulumi.ResourceOptions);
\`\`\`

## Inputs

${propertyTable(provider.inputProperties, { required: new Set(provider.requiredInputs ?? []), defaults: true })}`;
}

function indexPage(pkg: PackageSpec): string {
  const someFunction = sortedEntries(pkg.functions).map(([token]) => nameOfToken(token))[0] ?? "getX";
  const rows = <T extends { description?: string }>(record: Record<string, T> | undefined) =>
    sortedEntries(record).map(
      ([token, spec]) =>
        `| [${nameOfToken(token)}](${referencePage(token)}) | ${tableCell(firstSentence(spec.description))} |`,
    );
  return `${GENERATED}

# API reference

The \`${pkg.name}\` package ${pkg.version}: ${pkg.description ?? ""}

Every page here is generated from \`schema.json\`. The [provider](provider.md) page lists the
configuration keys.

## Resources

| resource | what it is |
|---|---|
${rows(pkg.resources).join("\n")}

## Functions

Each also has an \`Output\` form (\`${someFunction}Output\`) that takes outputs and returns one.

| function | what it does |
|---|---|
${rows(pkg.functions).join("\n")}
`;
}

/** Every page of docs/reference/, by file name. */
export function referenceDocs(pkg: PackageSpec): Map<string, string> {
  const pages = new Map<string, string>([
    ["_index.md", indexPage(pkg)],
    ["provider.md", providerPage(pkg)],
  ]);
  for (const [token, resource] of sortedEntries(pkg.resources))
    pages.set(referencePage(token), resourcePage(pkg, token, resource));
  for (const [token, fn] of sortedEntries(pkg.functions)) pages.set(referencePage(token), functionPage(pkg, token, fn));
  return new Map([...pages.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}
