// Every resource of the package, bound to the generated schema for its types and docs.
import { PackageSchema, ResourceDefinition, bindResource } from "../framework/resource";
import { container } from "./container";
import { mysql } from "./mysql";
import { postgres } from "./postgres";
import { redis } from "./redis";
import { registry } from "./registry";
import { serviceLink } from "./serviceLink";
import { volume } from "./volume";
import { volumeAttachment } from "./volumeAttachment";

export const declarations = [container, postgres, mysql, redis, serviceLink, registry, volume, volumeAttachment];

let schema: PackageSchema | undefined;
/** schema.json is generated from the declarations (`make schema`) and bundled with the plugin. */
export function packageSchema(): PackageSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schema ??= require("../../../schema.json") as PackageSchema);
}

export const resources: Map<string, ResourceDefinition> = new Map(
  declarations.map((declaration) => [declaration.token, bindResource(declaration as any, packageSchema)]),
);
