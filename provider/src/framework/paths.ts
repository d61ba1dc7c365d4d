// Property paths as the engine writes them in `ignoreChanges` and `replaceOnChanges` (`env`,
// `env.LOG_LEVEL`, `env["my.key"]`, `items[0].name`, `tags[*]`), parsed, written and applied the
// engine's way (sdk/go/common/resource/properties_path.go: ParsePropertyPath, PropertyPath.String,
// PropertyPath.Reset), so that a path means here what it means to the engine.
import { isPlainObject, ownValue, type PropertyMap, type PropertyValue, recordOf } from "./values";

export type PathElement = string | number;

/**
 * The elements of a path, or undefined when the engine's ParsePropertyPath refuses it (the engine
 * skips those in ignoreChanges). The empty string is the empty path, which names no property.
 */
export function parsePropertyPath(path: string): PathElement[] | undefined {
  const elements: PathElement[] = [];
  let rest = path;
  if (rest.startsWith(".")) return undefined;
  while (rest.length > 0) {
    if (rest[0] === ".") {
      rest = rest.slice(1);
      if (rest.length === 0) return undefined;
    } else if (rest[0] === "[") {
      if (rest[1] === '"') {
        let key = "";
        let i = 2;
        for (; i < rest.length && rest[i] !== '"'; i++) {
          if (rest[i] === "\\" && rest[i + 1] === '"') i++;
          key += rest[i];
        }
        if (rest[i] !== '"' || rest[i + 1] !== "]") return undefined;
        elements.push(key);
        rest = rest.slice(i + 2);
      } else {
        const close = rest.indexOf("]");
        if (close < 0) return undefined;
        const inside = rest.slice(1, close);
        // strconv.ParseInt(inside, 10, 0): an optional sign, then decimal digits.
        if (inside === "*") elements.push("*");
        else if (/^[+-]?\d+$/.test(inside) && Number.isSafeInteger(Number(inside))) elements.push(Number(inside));
        else return undefined;
        rest = rest.slice(close + 1);
      }
    } else {
      const end = rest.search(/[.[]/);
      elements.push(end < 0 ? rest : rest.slice(0, end));
      rest = end < 0 ? "" : rest.slice(end);
    }
  }
  return elements;
}

/**
 * A path as the engine writes it (properties_path.go `PropertyPath.String`): `env.LOG_LEVEL`,
 * `env["my.key"]`, `links[0]`, a key quoted unless it is all ASCII letters, digits and `_`, a `"`
 * in it escaped. Two keys the engine's String writes as a path its own parser refuses are written
 * so that it reads them back (the engine fails a preview on a detailed diff path it cannot parse):
 * the empty key, quoted (`env[""]`, not `env.`), and a key ending in `\` (the parser takes `\"` for a
 * quote), bare (`env.a\`), as a bare name runs to the next `.` or `[`. A path holding a key that no
 * path can spell (one ending in `\` that also holds a `.` or a `[`) is undefined: say its parent.
 */
export function formatPropertyPath(path: readonly PathElement[]): string | undefined {
  let out = "";
  for (const [i, element] of path.entries()) {
    if (typeof element === "number") out += `[${element}]`;
    else if (/^[A-Za-z0-9_]+$/.test(element)) out += i === 0 ? element : `.${element}`;
    else if (!element.endsWith("\\")) out += `["${element.replace(/"/g, '\\"')}"]`;
    else if (!/[.[]/.test(element)) out += i === 0 ? element : `.${element}`;
    else return undefined;
  }
  return out;
}

/**
 * The longest start of `path` that a path can spell, as the engine writes it: where a change is
 * reported when its own path cannot be written.
 */
export function writablePath(path: readonly PathElement[]): string {
  for (let length = path.length; length > 1; length--) {
    const written = formatPropertyPath(path.slice(0, length));
    if (written !== undefined) return written;
  }
  return String(path[0]);
}

/**
 * How the path of a value is written in the secret paths that unmarshalling notes (server/marshal.ts)
 * and the framework compares: `env.KEY`, `links[0]`, a key appended as it is.
 */
export const childPath = (path: string, element: PathElement): string =>
  typeof element === "number" ? `${path}[${element}]` : `${path}.${element}`;

/** Whether a path (`env`, `env.KEY`, `links[0]`) is the property `name` or lies within it. */
export const within = (path: string, name: string): boolean =>
  path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`);

/** How secret values are wrapped, where a map holds them wrapped (the engine's Structs, in a test's engine). */
export interface SecretWrapping {
  isSecret(value: unknown): boolean;
  inner(value: unknown): unknown;
  wrap(value: unknown): unknown;
}

const NO_SECRETS: SecretWrapping = { isSecret: () => false, inner: (v) => v, wrap: (v) => v };

/**
 * `news` with the value at `path` put back to what it is in `olds`, as the engine's
 * `PropertyPath.Reset` does it for `ignoreChanges`: the value removed where `olds` has none, `*` for
 * every key or index, no list item added or removed, and nothing for the empty path. A copy; neither
 * map changes. `secrets`: how the maps wrap secrets, when they do (a value put back from a secret
 * becomes a secret).
 */
export function resetPath(
  olds: PropertyMap,
  news: PropertyMap,
  path: readonly PathElement[],
  secrets: SecretWrapping = NO_SECRETS,
): PropertyMap {
  const copy = copied(news as PropertyValue, secrets) as PropertyMap;
  reset(path, olds as PropertyValue, copy as PropertyValue, false, false, secrets);
  return copy;
}

/** A deep copy, its maps without a prototype. */
function copied(value: unknown, secrets: SecretWrapping): unknown {
  if (Array.isArray(value)) return value.map((item) => copied(item, secrets));
  if (isPlainObject(value)) return recordOf(Object.entries(value).map(([k, v]) => [k, copied(v, secrets)]));
  return value;
}

type Value = unknown;
const isObject = (v: Value): v is Record<string, unknown> => isPlainObject(v);

/** properties_path.go `reset`, on `next` in place; false where the engine reports a path error. */
function reset(
  path: readonly PathElement[],
  oldValue: Value,
  nextValue: Value,
  oldWasSecret: boolean,
  nextWasSecret: boolean,
  secrets: SecretWrapping,
): boolean {
  if (path.length === 0) return false;
  let [old, next, oldSecret, nextSecret] = [oldValue, nextValue, oldWasSecret, nextWasSecret];
  while (secrets.isSecret(old)) [old, oldSecret] = [secrets.inner(old), true];
  while (secrets.isSecret(next)) [next, nextSecret] = [secrets.inner(next), true];
  const restored = (v: Value) => copied(oldSecret && !nextSecret ? secrets.wrap(v) : v, secrets);
  const [key, ...rest] = path;
  const deeper = (o: Value, n: Value) => reset(rest, o, n, oldSecret, nextSecret, secrets);

  if (typeof key === "number") {
    if (key < 0) return false;
    const [olds, news] = [old, next];
    if (!Array.isArray(olds) || !Array.isArray(news)) return !Array.isArray(olds) && !Array.isArray(news);
    if (rest.length === 0 && key >= olds.length && key >= news.length) return true;
    if (key >= olds.length || key >= news.length) return false;
    if (rest.length > 0) return deeper(olds[key], news[key]);
    news[key] = restored(olds[key]);
    return true;
  }

  if (key === "*") {
    if (rest.length === 0) {
      if (isObject(next)) {
        if (!isObject(old)) return true;
        for (const k of Object.keys(next)) if (!Object.hasOwn(old, k)) delete next[k];
        for (const [k, v] of Object.entries(old)) next[k] = restored(v);
        return true;
      }
      if (Array.isArray(next)) {
        if (!Array.isArray(old)) return true;
        for (let i = 0; i < old.length && i < next.length; i++) next[i] = restored(old[i]);
        return old.length === next.length;
      }
      return false;
    }
    if (isObject(old) && isObject(next))
      return Object.keys(old).every((k) => Object.hasOwn(next, k) && deeper(old[k], next[k]));
    if (Array.isArray(old) && Array.isArray(next)) {
      for (let i = 0; i < old.length && i < next.length; i++) if (!deeper(old[i], next[i])) return false;
      return old.length === next.length;
    }
    return false;
  }

  if (rest.length === 0) {
    if (isObject(old) && Object.hasOwn(old, key)) {
      if (!isObject(next)) return false;
      next[key] = restored(old[key]);
    } else if (isObject(next)) delete next[key];
    return true;
  }
  if (!isObject(old) || !isObject(next)) return !isObject(old) && !isObject(next);
  const [hasOld, hasNext] = [Object.hasOwn(old, key), Object.hasOwn(next, key)];
  if (hasOld && !hasNext) return false;
  if (!hasOld && !hasNext) return true;
  return deeper(ownValue(old, key), next[key]);
}
