// `make schema`: writes schema.json from the provider's own declarations. Each declaration's
// TypeScript interface gives types, optionality and docs (read with typescript-json-schema);
// its flags table gives behaviour (secret, replaceOnChanges, defaults, defaultInfo) and the
// sentence each flag adds to the docs.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as TJS from "typescript-json-schema";
import { buildPackageSchema, type TypeReader } from "../provider/src/framework/schema";
import { provider } from "../provider/src/config";
import { functions } from "../provider/src/functions";
import { resources } from "../provider/src/resources";

const files = ["provider/src/resources/index.ts", "provider/src/functions/index.ts", "provider/src/config.ts"];
const program = TJS.getProgramFromFiles(files.map((f) => resolve(f)), {
  strict: true,
  target: 5 /* ES2018 */,
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  types: ["node"],
});
// One generator for the whole program (building it walks every type; each read is then cheap).
const generator = TJS.buildGenerator(program, { required: true, ref: true, noExtraProps: true, ignoreErrors: true });
if (!generator) throw new Error("typescript-json-schema could not read the declarations");
const readType: TypeReader = (typeName) => generator.getSchemaForSymbol(typeName) as any;

/** package.json's `repository` (`git+https://host/owner/name.git`, or `{ url }`) as a plain https URL. */
function repositoryUrl(repository: string | { url?: string } | undefined): string | undefined {
  const url = typeof repository === "string" ? repository : repository?.url;
  return url?.replace(/^git\+/, "").replace(/\.git$/, "");
}

const pkg = require(resolve("package.json"));
// The package's metadata comes from one place, package.json (its `pulumi` field for
// pluginDownloadURL): a fork changes those lines.
const schema = buildPackageSchema(
  { resources, functions, provider },
  {
    version: pkg.version,
    readType,
    pluginDownloadURL: pkg.pulumi?.pluginDownloadURL,
    homepage: pkg.homepage,
    repository: repositoryUrl(pkg.repository),
  },
);
writeFileSync(resolve(process.argv[2] ?? "schema.json"), JSON.stringify(schema, null, 2) + "\n");
