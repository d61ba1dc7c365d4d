// The wire format: how a record is declared, read and written. The API speaks snake_case; a
// record is declared with camelCase names (in the resource that owns it) and read from, and
// written to, the snake_case the API uses, here and only here.
//
// Tolerance: fields a record may reasonably lack accept missing or null and come out as
// `undefined` (`optional`); maps come out as `{}`. Unknown extra fields are dropped. A field that
// is present with the wrong type is an error, a ResponseValidationError naming the field path
// as the API spells it.
import { z } from "zod";
import { ResponseValidationError } from "./errors";

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A record the API returns, declared with camelCase names: `record({ projectId: z.string() })`
 * reads `{"project_id": "…"}`. Values are untouched: a map such as `env` keeps its keys, and
 * nested records are records of their own.
 */
export function record<Shape extends z.ZodRawShape>(shape: Shape): z.ZodType<z.output<z.ZodObject<Shape>>> {
  // The names are worked out once per record: a list of 1,000 records is renamed on every read.
  const names = Object.keys(shape).map((name) => [snake(name), name] as const);
  const onTheWire = Object.fromEntries(names.map(([wire, name]) => [wire, shape[name]]));
  return z.object(onTheWire).transform((wire) => {
    const renamed: Record<string, unknown> = {};
    for (const [key, name] of names) if (key in wire) renamed[name] = (wire as Record<string, unknown>)[key];
    return renamed as z.output<z.ZodObject<Shape>>;
  }) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>>;
}

/** A list answer: a JSON array of records, or an object that holds the array under `key` (`{"volumes": […]}`). */
export function listOf<T>(item: z.ZodType<T>, key?: string): z.ZodType<T[]> {
  if (key === undefined) return z.array(item);
  return z.object({ [key]: z.array(item) }).transform((answer) => answer[key] as T[]) as unknown as z.ZodType<T[]>;
}

/** A request body's top-level names as the API spells them; undefined entries left out. */
export function toWire(body: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([key, value]) => [snake(key), value]));
}

/** Optional on the wire: accepts missing or null, yields `T | undefined`. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v ?? undefined) as z.output<T> | undefined);
}

export const text = () => z.string();
export const integer = () => z.number().int();
export const flag = () => z.boolean();
/** A map of strings; missing or null is `{}`. */
export const stringMap = () =>
  z
    .record(z.string(), z.string())
    .nullish()
    .transform((v) => v ?? {});
/** A string the API documents as a string but that a server might send as a number or a boolean. */
export const textual = () => z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v));

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
