// Property values between the engine's Structs (as plain values: codec.ts) and the framework's.
// Unknowns (preview) become the Unknown marker; secrets are unwrapped on the way in, with a
// note of which properties were secret, and wrapped again on the way out. A resource reference
// (where a program passed a resource) becomes what it stands for, its id, on the way in: nothing
// past this file sees one, so none reaches state or an HTTP body.
import { childPath } from "../framework/paths";
import type { Field } from "../framework/spec";
import {
  type PropertyMap,
  type PropertyValue,
  Unknown,
  containsUnknown,
  isPlainObject,
  isUnknown,
  recordOf,
  stringsIn,
} from "../framework/values";
import type { StructObject } from "./codec";

/** Signatures of the engine's special values (sdk/go/common/resource/properties.go). */
export const UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const SPECIAL_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const RESOURCE_REFERENCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";

export interface Unmarshalled {
  values: PropertyMap;
  /** Paths ("env", "connection.instructions") of the values that arrived secret. */
  secrets: Set<string>;
  /** The strings inside the values that arrived secret (taken as they were unwrapped: a path can hold a dot). */
  secretTexts: string[];
  /** The keys of the maps inside each value that arrived secret, by its path (which are secret: `secretStrings`). */
  secretKeys: Array<{ path: string; keys: string[] }>;
}

interface Unwrapping {
  secrets: Set<string>;
  texts: string[];
  keys: Unmarshalled["secretKeys"];
}

/** The keys of every map in a value, at any depth. */
function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (isPlainObject(value)) return Object.entries(value).flatMap(([key, item]) => [key, ...keysIn(item)]);
  return [];
}

/** Maps come out without a prototype (values.ts `recordOf`): a key named `__proto__` or `constructor` is a key. */
function unwrap(value: unknown, path: string, found: Unwrapping): PropertyValue {
  if (value === UNKNOWN_SENTINEL) return Unknown;
  if (Array.isArray(value)) return value.map((item, i) => unwrap(item, childPath(path, i), found));
  if (isPlainObject(value)) {
    if (value[SPECIAL_SIG_KEY] === SECRET_SIG) {
      found.secrets.add(path);
      const unwrapped = unwrap(value.value, path, found);
      found.texts.push(...stringsIn(unwrapped));
      const keys = keysIn(unwrapped);
      if (keys.length > 0) found.keys.push({ path, keys });
      return unwrapped;
    }
    if (value[SPECIAL_SIG_KEY] === RESOURCE_REFERENCE_SIG) return referenced(value, path, found);
    return recordOf(Object.entries(value).map(([k, v]) => [k, unwrap(v, childPath(path, k), found)]));
  }
  return value as PropertyValue;
}

/**
 * What a resource reference stands for, as the engine itself sends it to a provider that does not accept references
 * (sdk/go/common/resource/plugin/rpc.go, `KeepResources` false): a custom resource's id, unknown while the engine does
 * not know it yet (then it sends the id ""); a component's URN, since it has no id (where an id is expected, Check
 * refuses it as one). `urn`, `name`, `type` and `packageVersion` say which resource it is, and are not kept.
 */
function referenced(reference: Record<string, unknown>, path: string, found: Unwrapping): PropertyValue {
  if (!("id" in reference)) return typeof reference.urn === "string" ? reference.urn : Unknown;
  const id = unwrap(reference.id, path, found);
  return id === "" ? Unknown : id;
}

export function fromStruct(struct: StructObject | undefined): Unmarshalled {
  const found: Unwrapping = { secrets: new Set(), texts: [], keys: [] };
  const values: PropertyMap = recordOf(
    Object.entries(struct ?? {}).map(([key, raw]) => [key, unwrap(raw, key, found)]),
  );
  return { values, secrets: found.secrets, secretTexts: found.texts, secretKeys: found.keys };
}

const secret = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });

/**
 * Every path declared secret by the fields: whole properties and secret subfields, where `[]`
 * stands for any item of a list (`services[].connection.instructions`).
 */
function declaredSecrets(fields: Field[]): Set<string> {
  const paths = new Set<string>();
  for (const field of fields) {
    if (field.secret) paths.add(field.name);
    for (const sub of field.secretSubfields ?? [])
      paths.add(sub.startsWith("[") ? `${field.name}${sub}` : `${field.name}.${sub}`);
  }
  return paths;
}

/** The declared secret paths of a resource's fields and the paths above them: once per fields, not per answer. */
const fieldSecrets = new WeakMap<Field[], { declared: Set<string>; above: Set<string> }>();
function secretsOf(fields: Field[]): { declared: Set<string>; above: Set<string> } {
  let known = fieldSecrets.get(fields);
  if (!known) {
    const declared = declaredSecrets(fields);
    known = { declared, above: new Set([...declared].flatMap(prefixes)) };
    fieldSecrets.set(fields, known);
  }
  return known;
}

interface Marshalling {
  declared: Set<string>;
  arrived: Set<string>;
  /** The shapes and paths above a secret (`services`, `services[]` above `services[].env`): where a walk must go on. */
  above: Set<string>;
  /** Told the strings of every value it wraps secret. */
  learn?: (secrets: string[]) => void;
}

/** Every proper prefix of `path` that ends before a `.` or a `[`. */
const prefixes = (path: string) => [...path.matchAll(/[.[]/g)].map((match) => path.slice(0, match.index));

/**
 * `path` is where the value is (`services[3].env`); `shape` the same with list indexes left out
 * (`services[].env`). A value with no secret and no unknown anywhere inside it is the Struct value
 * itself, not a copy: a list function's answer of thousands of records is walked, not rebuilt.
 */
function marshalValue(
  value: PropertyValue | undefined,
  path: string,
  shape: string,
  marshalling: Marshalling,
): unknown {
  if (isUnknown(value)) return UNKNOWN_SENTINEL; // an unknown is not a value yet, secret or not
  let out: unknown = value;
  const deeper = marshalling.above.has(shape) || marshalling.above.has(path) || containsUnknown(value);
  if (deeper && Array.isArray(value))
    out = value.map((item, i) => marshalValue(item, childPath(path, i), `${shape}[]`, marshalling));
  else if (deeper && isPlainObject(value)) {
    out = recordOf(
      Object.entries(value).map(([k, v]) => [
        k,
        marshalValue(v as PropertyValue, childPath(path, k), `${shape}.${k}`, marshalling),
      ]),
    );
  }
  const declared = marshalling.declared.has(shape);
  if (!declared && !marshalling.arrived.has(path)) return out;
  // A value the program made secret keeps its keys secret, as it was unwrapped (`secretStrings`).
  marshalling.learn?.(declared ? stringsIn(value) : [...stringsIn(value), ...keysIn(value)]);
  return secret(out);
}

/**
 * The Struct the engine stores, as plain values. Values declared secret, and those that arrived
 * secret, are wrapped, at the depth where they are secret (and their strings told to `learn`).
 */
export function toStruct(
  values: PropertyMap,
  fields: Field[],
  arrivedSecret: Set<string> = new Set(),
  learn?: (secrets: string[]) => void,
): StructObject {
  const { declared, above: aboveDeclared } = secretsOf(fields);
  const above =
    arrivedSecret.size === 0 ? aboveDeclared : new Set([...aboveDeclared, ...[...arrivedSecret].flatMap(prefixes)]);
  const marshalling: Marshalling = { declared, arrived: arrivedSecret, above, learn };
  const out: Record<string, unknown> = recordOf([]);
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key] = marshalValue(value, key, key, marshalling);
  }
  return out as StructObject;
}

/**
 * The strings inside the values that arrived secret, so that no message can repeat them, and the keys
 * of a map that arrived secret as a whole: a program that makes its env secret keeps its variable names
 * secret too. Not the keys of a property the resource declares secret (`fields`), which come back
 * secret from the engine because the provider made them so: `injectedEnv`'s DATABASE_URL is a name
 * every app has, and blanking it wherever it appears would say nothing and hide the message.
 */
export function secretStrings({ secretTexts, secretKeys }: Unmarshalled, fields: readonly Field[] = []): string[] {
  const declared = new Set(fields.filter((field) => field.secret).map((field) => field.name));
  return [...secretTexts, ...secretKeys.filter(({ path }) => !declared.has(path)).flatMap(({ keys }) => keys)];
}
