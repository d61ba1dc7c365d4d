// Wire format of the Container Hosting Service API (snake_case), validated with zod at
// the boundary only. Nothing outside provider/src/api/ sees these names except a
// resource's mapper.
//
// Tolerance: fields the document lists but that a record may reasonably lack (managed
// databases share the service record; marketplace_app, connection) accept missing or
// null and come out as `undefined`; maps come out as `{}`. Unknown extra fields are
// dropped. A field that is present with the wrong type is an error, reported as a
// ResponseValidationError naming the field path.

import { z } from "zod";
import { ResponseValidationError } from "./errors";

/** Optional on the wire: accepts missing or null, yields `T | undefined`. */
function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v ?? undefined) as z.output<T> | undefined);
}

const int = () => z.number().int();
const stringMap = () =>
  z
    .record(z.string(), z.string())
    .nullish()
    .transform((v) => v ?? {});
/** A string the API documents as a string but that a server might send as a number/boolean. */
const textual = () => z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v));

// 2.2 Connection object
export const WireConnectionSchema = z.object({
  host: z.string(),
  port: textual(),
  env_var: z.string(),
  instructions: opt(z.string()),
  requires_auth: opt(textual()),
});
export type WireConnection = z.output<typeof WireConnectionSchema>;

// 2.1 Service record (containers and managed databases)
export const WireServiceSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  display_name: opt(z.string()),
  type: z.string(),
  runtime: opt(z.string()),
  image: opt(z.string()),
  port: opt(int()),
  replicas: opt(int()),
  status: z.string(),
  internal_host: opt(z.string()),
  public_url: opt(z.string()),
  public: opt(z.boolean()),
  cpu_milli: opt(int()),
  memory_mb: opt(int()),
  storage_gb: opt(int()),
  env: stringMap(),
  connection: opt(WireConnectionSchema),
  created_at: opt(z.string()),
  updated_at: opt(z.string()),
  marketplace_app: opt(z.string()),
});
export type WireService = z.output<typeof WireServiceSchema>;
export const WireServiceListSchema = z.array(WireServiceSchema);

// 2.5 Managed database create response
export const WireDatabaseCreateResponseSchema = z.object({
  service: WireServiceSchema,
  connection: WireConnectionSchema,
});
export type WireDatabaseCreateResponse = z.output<typeof WireDatabaseCreateResponseSchema>;
export type DatabaseKind = "postgres" | "mysql" | "redis";
export const DATABASE_KINDS: readonly DatabaseKind[] = ["postgres", "mysql", "redis"];

// 2.6 Service link
export const WireServiceLinkSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  consumer_service_id: z.string(),
  provider_service_id: z.string(),
  link_type: z.string(),
  injected_env: stringMap(),
});
export type WireServiceLink = z.output<typeof WireServiceLinkSchema>;
export const WireServiceLinkListSchema = z.object({ links: z.array(WireServiceLinkSchema) });

// 2.7 Registry (the password is never returned; an unexpected one is dropped)
export const WireRegistrySchema = z.object({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  username: opt(z.string()),
});
export type WireRegistry = z.output<typeof WireRegistrySchema>;
export const WireRegistryListSchema = z.array(WireRegistrySchema);

// 2.8 Volume
const volumeFields = {
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  display_name: opt(z.string()),
  size_gb: int(),
  storage_class: opt(z.string()),
  access_mode: opt(z.string()),
  status: z.string(),
  status_reason: opt(z.string()),
  created_at: opt(z.string()),
  updated_at: opt(z.string()),
};
export const WireVolumeAttachmentInfoSchema = z.object({
  container_id: z.string(),
  mount_path: z.string(),
  read_only: opt(z.boolean()).transform((v) => v ?? false),
});
export type WireVolumeAttachmentInfo = z.output<typeof WireVolumeAttachmentInfoSchema>;

/** A volume in the list response: carries `attached`. */
export const WireVolumeListItemSchema = z.object({ ...volumeFields, attached: z.boolean() });
export type WireVolumeListItem = z.output<typeof WireVolumeListItemSchema>;
export const WireVolumeListSchema = z.object({ volumes: z.array(WireVolumeListItemSchema) });

/** A single volume (GET one, create, update): carries `attachment` (null when detached). */
export const WireVolumeSchema = z.object({
  ...volumeFields,
  attachment: WireVolumeAttachmentInfoSchema.nullish().transform((v) => v ?? null),
  attached: opt(z.boolean()),
});
export type WireVolume = z.output<typeof WireVolumeSchema>;

// 2.9 Volume attachment record
export const WireVolumeAttachmentSchema = z.object({
  id: z.string(),
  volume_id: z.string(),
  container_id: z.string(),
  mount_path: z.string(),
  read_only: opt(z.boolean()).transform((v) => v ?? false),
  created_at: opt(z.string()),
});
export type WireVolumeAttachment = z.output<typeof WireVolumeAttachmentSchema>;

// ---------------------------------------------------------------------------------------
// Request bodies (typed only; the server is the judge of values)

/** PATCH /containers/{id}: any subset (DESIGN.md section 3). Every field is absolute, never a delta. */
export interface ContainerPatch {
  image?: string;
  env?: Record<string, string>;
  replicas?: number;
  cpu_milli?: number;
  memory_mb?: number;
  storage_gb?: number;
  public?: boolean;
  display_name?: string;
  http_port?: number;
}

/** POST /containers: name, image, http_port required (2.3); the PATCH fields may ride along. */
export interface ContainerCreate extends Omit<ContainerPatch, "image" | "http_port"> {
  name: string;
  image: string;
  http_port: number;
}

export interface DatabaseResources {
  cpu_milli?: number;
  memory_mb?: number;
  storage_gb?: number;
}

export interface DatabaseCreate {
  name: string;
  resources?: DatabaseResources;
}

export interface ServiceLinkCreate {
  consumer_service_id: string;
  provider_service_id: string;
  link_type: string;
}

/** POST and PUT /registries. `password` is write-only. */
export interface RegistryBody {
  name: string;
  host: string;
  username?: string;
  password?: string;
}

export interface VolumeCreate {
  name: string;
  size_gb: number;
}

export interface VolumeUpdate {
  size_gb: number;
}

export interface VolumeAttach {
  container_id: string;
  mount_path: string;
  read_only?: boolean;
}

export interface VolumeDetach {
  container_id: string;
}

// ---------------------------------------------------------------------------------------
// Validation at the boundary

/** `[3].replicas`, `env.FOO`, `["odd-key"]`, or `(root)`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const s = String(seg);
      out += /^[A-Za-z_$][\w$]*$/.test(s) ? (out === "" ? s : `.${s}`) : `[${JSON.stringify(s)}]`;
    }
  }
  return out;
}

export interface WireContext {
  method: string;
  path: string;
  status: number;
  requestId?: string;
}

/** Parse `data` with `schema`, or throw a ResponseValidationError naming each bad field path. */
export function parseWire<S extends z.ZodType>(schema: S, data: unknown, ctx: WireContext): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const problems = r.error.issues.map(
    (i) => `${formatIssuePath(i.path)}: ${i.message.replace(/^Invalid input: /, "")}`,
  );
  throw new ResponseValidationError({ ...ctx, problems });
}
