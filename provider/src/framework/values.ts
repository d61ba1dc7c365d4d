// Property values as the framework sees them: plain JSON, plus one marker for values that
// are not known yet (a preview, where another resource's output is still to be computed).

export const Unknown: unique symbol = Symbol("unknown");
export type UnknownValue = typeof Unknown;

export type PropertyValue =
  | string
  | number
  | boolean
  | null
  | UnknownValue
  | PropertyValue[]
  | { [key: string]: PropertyValue };

export type PropertyMap = Record<string, PropertyValue | undefined>;

export function isUnknown(value: unknown): value is UnknownValue {
  return value === Unknown;
}

/** True when the value is, or contains, an unknown. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A map from its entries, without a prototype: a key named like an `Object.prototype` member
 * (`__proto__`, `constructor`, `toString`) is a key like any other, never the prototype's (an
 * assignment of `__proto__` on a plain object sets its prototype, and `{}.constructor` is a function).
 */
export function recordOf<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const map: Record<string, V> = Object.create(null);
  for (const [key, value] of entries) map[key] = value;
  return map;
}

/** The map's own value at `key`, never one inherited from its prototype. */
export const ownValue = <V>(map: Record<string, V>, key: string): V | undefined =>
  Object.hasOwn(map, key) ? map[key] : undefined;

/**
 * Structural equality of JSON values; key order does not matter, and strings compare in Unicode's
 * NFC form: an API that normalizes what it stores (NFD in, NFC back) must not read as drift.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "string" && typeof b === "string") return a.normalize("NFC") === b.normalize("NFC");
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    const otherKeys = Object.keys(b).filter((k) => b[k] !== undefined);
    if (keys.length !== otherKeys.length) return false;
    if (keys.every((k) => deepEqual(a[k], ownValue(b, k)))) return true;
    // Keys in another normal form (a name normalized by the API) are the same keys.
    const nfc = (map: Record<string, unknown>) => new Map(Object.entries(map).map(([k, v]) => [k.normalize("NFC"), v]));
    const [left, right] = [nfc(a), nfc(b)];
    return left.size === right.size && [...left].every(([k, v]) => right.has(k) && deepEqual(v, right.get(k)));
  }
  return false;
}

/** Every string inside a value, at any depth. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(stringsIn);
}
