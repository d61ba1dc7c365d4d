// The wire format: how a record is declared, read and written. The API speaks snake_case; a
// record is declared with camelCase names (in the resource that owns it) and read from, and
// written to, the snake_case the API uses, here and only here.
//
// Tolerance: fields a record may reasonably lack accept missing or null and come out as
// `undefined` (`optional`); maps come out as `{}`. Unknown extra fields are dropped. A field that
// is present with the wrong type is an error, a ResponseValidationError naming the field path
// as the API spells it. A list's records are checked one by one, when first read (`ListAnswer`).
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

/** How a list answer is read: a JSON array of records, or an object that holds it under `key` (`{"volumes": […]}`). */
export interface ListShape<T> {
  item: z.ZodType<T>;
  key?: string;
}

export const listOf = <T>(item: z.ZodType<T>, key?: string): ListShape<T> => ({ item, key });

/**
 * A list as the API answered it, each record checked against its schema (and frozen: readers
 * share it) when first read. A refresh's batch of Reads wants a few records of a list of
 * thousands; checking all of them cost more than the GET itself (profiled at P = 8: a third of
 * the plugin's CPU). A record with the wrong shape fails the reads of it, and of the whole list;
 * a record with no readable id fails every read that does not find its own id, since it may be
 * the one asked for (taking it as gone would drop the resource from the stack). Two records with
 * one id fail the reads of that id, and of the whole list: neither is picked silently (a Read
 * would record one, a write's lookup act on it).
 */
export class ListAnswer<T> {
  private readonly checked = new Map<number, T>();
  private positions?: { byId: Map<string, number>; withoutId: number[]; twice: Map<string, number[]> };
  private everything?: readonly T[];

  constructor(
    private readonly raw: readonly unknown[],
    private readonly shape: ListShape<T>,
    private readonly ctx: WireContext,
  ) {}

  get length(): number {
    return this.raw.length;
  }

  at(position: number): T {
    let record = this.checked.get(position);
    if (record === undefined) {
      record = deepFreeze(parseWire(this.shape.item, this.raw[position], this.ctx, this.pathOf(position)));
      this.checked.set(position, record);
    }
    return record;
  }

  /** Every record; a list with bad records, or with two records of one id, names each of them. */
  all(): readonly T[] {
    if (this.everything !== undefined) return this.everything;
    const problems = [...(this.positions ??= this.indexById()).twice].map(([id, at]) => this.twiceProblem(id, at));
    const records = this.raw.map((_, position) => {
      try {
        return this.at(position);
      } catch (e) {
        if (!(e instanceof ResponseValidationError)) throw e;
        problems.push(...e.problems);
        return undefined as T;
      }
    });
    if (problems.length > 0) throw new ResponseValidationError({ ...this.ctx, problems });
    return (this.everything = Object.freeze(records));
  }

  /** The record whose `id` is this, or undefined when the list has none. */
  withId(id: string): T | undefined {
    const { byId, withoutId, twice } = (this.positions ??= this.indexById());
    const positions = twice.get(id);
    if (positions) throw new ResponseValidationError({ ...this.ctx, problems: [this.twiceProblem(id, positions)] });
    const position = byId.get(id);
    if (position !== undefined) return this.at(position);
    for (const unreadable of withoutId) this.at(unreadable);
    return undefined;
  }

  /** Where each id is, in one pass: linear in the list's length, however many of its records share an id. */
  private indexById() {
    const byId = new Map<string, number>();
    const withoutId: number[] = [];
    const twice = new Map<string, number[]>();
    this.raw.forEach((item, position) => {
      const id = item !== null && typeof item === "object" ? (item as { id?: unknown }).id : undefined;
      if (typeof id !== "string") withoutId.push(position);
      else if (!byId.has(id)) byId.set(id, position);
      else {
        const positions = twice.get(id);
        if (positions) positions.push(position);
        else twice.set(id, [byId.get(id)!, position]);
      }
    });
    return { byId, withoutId, twice };
  }

  /** `[4].id: "…" is also the id of [1]: …`, naming the id and where each record is (the first few of many). */
  private twiceProblem(id: string, positions: number[]): string {
    const [first, ...others] = positions.slice(0, TWICE_NAMED + 1).map((p) => formatIssuePath(this.pathOf(p)));
    const more = positions.length - 1 - others.length;
    const where = more > 0 ? `${others.join(", ")} and ${more.toLocaleString("en")} more` : others.join(", ");
    return `${where}.id: ${JSON.stringify(id)} is also the id of ${first}: the answer holds ${positions.length.toLocaleString("en")} records with one id, so none of them is read (the API's list is inconsistent; try again, and ask the platform's support if it stays)`;
  }

  private pathOf(position: number): PropertyKey[] {
    return this.shape.key === undefined ? [position] : [this.shape.key, position];
  }
}

/** How many records with the same id as an earlier one a problem names before it counts the rest. */
const TWICE_NAMED = 5;

/** A list answer's records, unchecked until read (`ListAnswer`); the array itself must be there. */
export function parseList<T>(shape: ListShape<T>, data: unknown, ctx: WireContext): ListAnswer<T> {
  const problem = shape.key === undefined ? arrayProblem("(root)", data) : keyedArrayProblem(shape.key, data);
  if (problem !== undefined) throw new ResponseValidationError({ ...ctx, problems: [problem] });
  const items = shape.key === undefined ? data : (data as Record<string, unknown>)[shape.key];
  return new ListAnswer(items as unknown[], shape, ctx);
}

const typeName = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

const arrayProblem = (path: string, value: unknown) =>
  Array.isArray(value) ? undefined : `${path}: expected array, received ${typeName(value)}`;

const keyedArrayProblem = (key: string, data: unknown) =>
  typeName(data) === "object"
    ? arrayProblem(key, (data as Record<string, unknown>)[key])
    : `(root): expected an object holding "${key}", received ${typeName(data)}`;

/** Readers share one answer: freezing it keeps any of them from changing another's. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A request body's top-level names as the API spells them; undefined entries left out. */
export function toWire(body: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, v]) => v !== undefined)
      .map(([key, value]) => [snake(key), value]),
  );
}

/** Optional on the wire: accepts missing or null, yields `T | undefined`. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v ?? undefined) as z.output<T> | undefined);
}

export const text = () => z.string();
export const integer = () => z.number().int();
export const flag = () => z.boolean();
const STRING_MAP = z.record(z.string(), z.string()).nullish();

/**
 * A map of strings; missing or null is `{}`. Checked as zod checks a record, and read from the
 * answer itself into a map without a prototype: zod's record drops a `__proto__` key, which an env
 * may hold (the platform stores it), and every Read would then miss it.
 */
export const stringMap = () =>
  z
    .unknown()
    .optional()
    .transform((raw, ctx): Record<string, string> => {
      const checked = STRING_MAP.safeParse(raw);
      if (!checked.success) {
        for (const issue of checked.error.issues) ctx.addIssue({ ...issue } as never);
        return z.NEVER;
      }
      const map: Record<string, string> = Object.create(null);
      for (const [key, value] of Object.entries((raw ?? {}) as Record<string, string>)) map[key] = value;
      return map;
    });
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

/**
 * Parse `data` (found `at` this path of the answer) with `schema`, or throw a ResponseValidationError naming each bad
 * field path.
 */
export function parseWire<S extends z.ZodType>(
  schema: S,
  data: unknown,
  ctx: WireContext,
  at: readonly PropertyKey[] = [],
): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const problems = r.error.issues.map(
    (i) => `${formatIssuePath([...at, ...i.path])}: ${i.message.replace(/^Invalid input: /, "")}`,
  );
  throw new ResponseValidationError({ ...ctx, problems });
}
