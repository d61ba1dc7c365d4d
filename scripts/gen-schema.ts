// `make schema`: writes schema.json from the provider's own declarations. Each resource's
// TypeScript interface gives types, optionality and docs (read with typescript-json-schema);
// its flags table gives secret, replaceOnChanges, defaults and defaultInfo.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as TJS from "typescript-json-schema";
import { buildPackageSchema, type TypeReader } from "../provider/src/framework/schema";
import { declarations } from "../provider/src/resources";
import { getContainerLogs } from "../provider/src/functions/getContainerLogs";
import { configFlags } from "../provider/src/config";

const files = ["provider/src/resources/index.ts", "provider/src/functions/getContainerLogs.ts", "provider/src/config.ts"];
const program = TJS.getProgramFromFiles(files.map((f) => resolve(f)), {
  strict: true,
  target: 5 /* ES2018 */,
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  types: ["node"],
});
const readType: TypeReader = (typeName) => {
  const schema = TJS.generateSchema(program, typeName, { required: true, ref: true, noExtraProps: true, ignoreErrors: true });
  if (!schema) throw new Error(`typescript-json-schema found no type ${typeName}`);
  return schema as any;
};

const pkg = require(resolve("package.json"));
const schema = buildPackageSchema({
  version: pkg.version,
  pluginDownloadURL: pkg.pulumi?.pluginDownloadURL,
  readType,
  resources: declarations,
  functions: [getContainerLogs],
  provider: { typeName: "HostingProviderConfig", flags: configFlags },
});
writeFileSync(resolve(process.argv[2] ?? "schema.json"), JSON.stringify(schema, null, 2) + "\n");
