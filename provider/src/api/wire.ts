// The wire format of the Container Hosting Service API (snake_case), and the only place that
// knows it: responses are validated with zod and come out with camelCase keys; request bodies
// go in with camelCase keys and leave as snake_case.
//
// Tolerance: fields the document lists but that a record may reasonably lack (managed
// databases share the service record; marketplace_app, connection) accept missing or null
// and come out as `undefined`; maps come out as `{}`. Unknown extra fields are dropped. A
// field that is present with the wrong type is an error, a ResponseValidationError naming
// the field path.
import { z } from "zod";
import { ResponseValidationError } from "./errors";

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type CamelKeys<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A record's top-level keys renamed to camelCase. Values are untouched: a map such as `env`
 * keeps its keys, and nested records are schemas of their own.
 */
function record<Shape extends z.ZodRawShape>(shape: Shape) {
  // The names are worked out once per schema: a list of 1,000 records is renamed on every read.
  const names = Object.keys(shape).map((key) => [key, camel(key)] as const);
  return z.object(shape).transform((wire) => {
    const renamed: Record<string, unknown> = {};
    for (const [key, name] of names) if (key in wire) renamed[name] = (wire as Record<string, unknown>)[key];
    return renamed as CamelKeys<z.output<z.ZodObject<Shape>>>;
  });
}

/** A request body's top-level keys as the API spells them; undefined entries left out. */
export function toWire(body: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([key, value]) => [snake(key), value]));
}

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
export const ConnectionRecordSchema = record({
  host: z.string(),
  port: textual(),
  env_var: z.string(),
  instructions: opt(z.string()),
  requires_auth: opt(textual()),
});
export type ConnectionRecord = z.output<typeof ConnectionRecordSchema>;

// 2.1 Service record (containers and managed databases)
export const ServiceRecordSchema = record({
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
  connection: opt(ConnectionRecordSchema),
  created_at: opt(z.string()),
  updated_at: opt(z.string()),
  marketplace_app: opt(z.string()),
});
export type ServiceRecord = z.output<typeof ServiceRecordSchema>;
export const ServiceRecordListSchema = z.array(ServiceRecordSchema);

// 2.5 Managed database create response
export const DatabaseCreatedSchema = z.object({ service: ServiceRecordSchema, connection: ConnectionRecordSchema });
export type DatabaseCreated = z.output<typeof DatabaseCreatedSchema>;
export type DatabaseKind = "postgres" | "mysql" | "redis";
export const DATABASE_KINDS: readonly DatabaseKind[] = ["postgres", "mysql", "redis"];

// 2.6 Service link
export const LinkRecordSchema = record({
  id: z.string(),
  project_id: z.string(),
  consumer_service_id: z.string(),
  provider_service_id: z.string(),
  link_type: z.string(),
  injected_env: stringMap(),
});
export type LinkRecord = z.output<typeof LinkRecordSchema>;
export const LinkRecordListSchema = z.object({ links: z.array(LinkRecordSchema) }).transform((r) => r.links);

// 2.7 Registry (the password is never returned; an unexpected one is dropped)
export const RegistryRecordSchema = record({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  username: opt(z.string()),
});
export type RegistryRecord = z.output<typeof RegistryRecordSchema>;
export const RegistryRecordListSchema = z.array(RegistryRecordSchema);

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
const AttachmentInfoSchema = record({
  container_id: z.string(),
  mount_path: z.string(),
  read_only: opt(z.boolean()).transform((v) => v ?? false),
});

/** A volume in the list response: carries `attached`. */
export const VolumeListRecordSchema = record({ ...volumeFields, attached: z.boolean() });
export type VolumeListRecord = z.output<typeof VolumeListRecordSchema>;
export const VolumeRecordListSchema = z.object({ volumes: z.array(VolumeListRecordSchema) }).transform((r) => r.volumes);

/** A single volume (GET one, create, update): carries `attachment` (null when detached). */
export const VolumeRecordSchema = record({
  ...volumeFields,
  attachment: AttachmentInfoSchema.nullish().transform((v) => v ?? null),
  attached: opt(z.boolean()),
});
export type VolumeRecord = z.output<typeof VolumeRecordSchema>;

// 2.9 Volume attachment record
export const AttachmentRecordSchema = record({
  id: z.string(),
  volume_id: z.string(),
  container_id: z.string(),
  mount_path: z.string(),
  read_only: opt(z.boolean()).transform((v) => v ?? false),
  created_at: opt(z.string()),
});
export type AttachmentRecord = z.output<typeof AttachmentRecordSchema>;

// ---------------------------------------------------------------------------------------
// Request bodies (typed only; the server is the judge of values)

/**
 * PATCH /containers/{id}: any subset (DESIGN.md section 3), each the record's own field but
 * the port, which the request calls http_port. Every field is absolute, never a delta.
 */
export type ContainerSettings = Partial<Pick<ServiceRecord, "image" | "env" | "replicas" | "cpuMilli" | "memoryMb" | "storageGb" | "public" | "displayName">> & {
  httpPort?: number;
};

/** POST /containers: name, image, http_port (2.3); the PATCH settings may ride along. */
export interface ContainerCreate extends ContainerSettings {
  name: string;
  image: string;
  httpPort: number;
}

export interface DatabaseCreate {
  name: string;
  resources?: { cpuMilli?: number; memoryMb?: number; storageGb?: number };
}

export interface ServiceLinkCreate {
  consumerServiceId: string;
  providerServiceId: string;
  linkType: string;
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
  sizeGb: number;
}

export interface VolumeAttach {
  containerId: string;
  mountPath: string;
  readOnly?: boolean;
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
  const problems = r.error.issues.map((i) => `${formatIssuePath(i.path)}: ${i.message.replace(/^Invalid input: /, "")}`);
  throw new ResponseValidationError({ ...ctx, problems });
}
