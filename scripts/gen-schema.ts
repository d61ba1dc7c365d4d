// `make schema`: writes schema.json from the provider's own declarations. Each declaration's
// TypeScript interface gives types, optionality and docs (read with typescript-json-schema);
// its flags table gives behaviour (secret, replaceOnChanges, defaults, defaultInfo) and the
// sentence each flag adds to the docs.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as TJS from "typescript-json-schema";
import { buildPackageSchema, type TypeReader } from "../provider/src/framework/schema";
import { hostingPackage } from "../provider/src/package";

const files = ["provider/src/package.ts"];
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

const pkg = require(resolve("package.json"));
// pluginDownloadURL comes from one place, package.json's `pulumi` field: a fork changes that line.
const schema = buildPackageSchema(hostingPackage, { version: pkg.version, readType, pluginDownloadURL: pkg.pulumi?.pluginDownloadURL });
writeFileSync(resolve(process.argv[2] ?? "schema.json"), JSON.stringify(schema, null, 2) + "\n");
