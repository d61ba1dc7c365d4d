// Property paths as the engine writes them in `ignoreChanges` (`env`, `env.LOG_LEVEL`,
// `env["my.key"]`, `items[0].name`, `tags[*]`), parsed and applied the engine's way
// (sdk/go/common/resource/properties_path.go: ParsePropertyPath, PropertyPath.Reset).
import { isPlainObject, type PropertyMap, type PropertyValue } from "./values";

export type PathElement = string | number;

/** The elements of a path, or undefined when it is not one (the engine skips those too). */
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
        if (inside === "*") elements.push("*");
        else if (/^\d+$/.test(inside)) elements.push(Number(inside));
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
 * `news` with the value at `path` put back to what it is in `olds` (removed where `olds` has
 * none): what `ignoreChanges` means. `*` stands for every key or index. A copy; neither map changes.
 */
export function resetPath(olds: PropertyMap, news: PropertyMap, path: PathElement[]): PropertyMap {
  return reset(olds as PropertyValue, news as PropertyValue, path) as PropertyMap;
}

function reset(
  old: PropertyValue | undefined,
  next: PropertyValue | undefined,
  path: PathElement[],
): PropertyValue | undefined {
  if (path.length === 0) return old;
  const [key, ...rest] = path;
  if (Array.isArray(next)) {
    if (!Array.isArray(old)) return next;
    const indexes =
      key === "*"
        ? next.map((_, i) => i)
        : typeof key === "number" && key < next.length && key < old.length
          ? [key]
          : [];
    const copy = [...next];
    for (const i of indexes) copy[i] = reset(old[i], next[i], rest) ?? null;
    return copy;
  }
  if (isPlainObject(next) || (next === undefined && isPlainObject(old) && rest.length === 0)) {
    const copy: Record<string, PropertyValue> = { ...((next as Record<string, PropertyValue>) ?? {}) };
    const oldObject = isPlainObject(old) ? (old as Record<string, PropertyValue>) : {};
    const keys = key === "*" ? [...new Set([...Object.keys(copy), ...Object.keys(oldObject)])] : [String(key)];
    for (const k of keys) {
      const value = reset(oldObject[k], copy[k], rest);
      if (value === undefined) delete copy[k];
      else copy[k] = value;
    }
    return copy;
  }
  return next;
}

/**
 * A path as the engine writes it (properties_path.go `PropertyPath.String`): `env.LOG_LEVEL`,
 * `env["my.key"]`, `links[0]`.
 */
export function formatPropertyPath(path: readonly PathElement[]): string {
  return path
    .map((element, i) => {
      if (typeof element === "number") return `[${element}]`;
      if (/^[A-Za-z0-9_]*$/.test(element)) return i === 0 ? element : `.${element}`;
      return `["${element.replace(/"/g, '\\"')}"]`;
    })
    .join("");
}

/** Whether a path (`env`, `env.KEY`, `links[0]`) is the property `name` or lies within it. */
export const within = (path: string, name: string): boolean =>
  path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`);
