// `make schema`: writes schema.json from the provider's own declarations. Each declaration's
// TypeScript interface gives types, optionality and docs (read with typescript-json-schema);
// its flags table gives behaviour (secret, replaceOnChanges, defaults, defaultInfo) and the
// sentence each flag adds to the docs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as TJS from "typescript-json-schema";
import type { TypeReader } from "../provider/src/framework/jsonSchema";
import { buildPackageSchema } from "../provider/src/framework/schema";
import { hostingPackage } from "../provider/src/package";
import { CONVERTED_EXAMPLES } from "./program-languages";

const files = ["provider/src/package.ts"];
const program = TJS.getProgramFromFiles(
  files.map((f) => resolve(f)),
  {
    strict: true,
    target: 5 /* ES2018 */,
    esModuleInterop: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    types: ["node"],
  },
);
// One generator for the whole program (building it walks every type; each read is then cheap).
// Names are made unique (`Domain.286f7513`): a declaration may share its name with a type of a
// library (Node's own `Domain`), and it is read from the provider's sources, never from theirs.
const generator = TJS.buildGenerator(program, {
  required: true,
  ref: true,
  noExtraProps: true,
  ignoreErrors: true,
  uniqueNames: true,
});
if (!generator) throw new Error("typescript-json-schema could not read the declarations");
const SOURCES = resolve("provider/src");
const readType: TypeReader = (typeName) => {
  const ours = generator
    .getSymbols(typeName)
    .filter((ref) => ref.symbol.declarations?.[0]?.getSourceFile().fileName.startsWith(SOURCES));
  if (ours.length !== 1)
    throw new Error(`${ours.length} declarations named ${typeName} in provider/src: each needs a name of its own`);
  // The unique names' suffixes come off again: the schema's types are named as declared.
  return JSON.parse(JSON.stringify(generator.getSchemaForSymbol(ours[0].name)), (key, value) =>
    key === "$ref" ? value.replace(/\.[0-9a-f]{8}$/, "") : key === "definitions" ? withoutSuffixes(value) : value,
  );
};
const withoutSuffixes = (definitions: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(definitions).map(([name, value]) => [name.replace(/\.[0-9a-f]{8}$/, ""), value]));

/** package.json's `repository` (`git+https://host/owner/name.git`, or `{ url }`) as a plain https URL. */
function repositoryUrl(repository: string | { url?: string } | undefined): string | undefined {
  const url = typeof repository === "string" ? repository : repository?.url;
  return url?.replace(/^git\+/, "").replace(/\.git$/, "");
}

// The examples in the other languages, as `make docs-languages` converted them from their YAML.
const CONVERTED = CONVERTED_EXAMPLES;
const converted = existsSync(resolve(CONVERTED)) ? JSON.parse(readFileSync(resolve(CONVERTED), "utf8")) : {};
const stale: string[] = [];

const pkg = require(resolve("package.json"));
// The package's metadata comes from one place, package.json (its `pulumi` field for
// pluginDownloadURL): a fork changes those lines.
const schema = buildPackageSchema(hostingPackage, {
  version: pkg.version,
  readType,
  pluginDownloadURL: pkg.pulumi?.pluginDownloadURL,
  homepage: pkg.homepage,
  repository: repositoryUrl(pkg.repository),
  // The one range of @pulumi/pulumi in the repository: the provider's, the SDK's and the examples'.
  pulumiNodejsRange: pkg.dependencies["@pulumi/pulumi"],
  converted,
  onStale: (token, title) => stale.push(`${token} "${title}"`),
});
if (stale.length > 0)
  console.error(
    `make schema: ${stale.length} examples are shown in TypeScript and YAML only, as ${CONVERTED} holds no conversion of their YAML: ${stale.join(", ")}. Run make docs-languages sdk docs (it converts them and writes schema.json again).`,
  );
writeFileSync(resolve(process.argv[2] ?? "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);
