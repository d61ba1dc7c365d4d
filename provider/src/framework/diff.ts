// Diff: compare new inputs with the resource's current state. It never fails: the engine
// also calls it after a refresh, the other way round (olds = what Read returned, news = the
// stored inputs), where a shrink or a resize is drift to show, not an error. Changes the API
// cannot make are refused by the update's preview (check.ts `refusedChange`).
//
// The detailed diff names the exact path that changed (`env.DATABASE_HOST`, `links[2]`), as the
// engine's own diff does: the engine applies `replaceOnChanges` to a detailed diff path that an
// option path contains (step_generator.go `applyReplaceOnChanges`), and `pulumi preview --json`
// and pull-request comments show these paths. `diffs` keeps the top-level names.
import { childPath, formatPropertyPath, type PathElement, parsePropertyPath, resetPath, writablePath } from "./paths";
import { type Field, type ObjectSpec, inputFields, sameValue } from "./spec";
import {
  type PropertyMap,
  type PropertyValue,
  containsUnknown,
  deepEqual,
  isPlainObject,
  isUnknown,
  ownValue,
  recordOf,
} from "./values";

export type DiffKind = "ADD" | "ADD_REPLACE" | "UPDATE" | "UPDATE_REPLACE" | "DELETE" | "DELETE_REPLACE";
type Change = "ADD" | "UPDATE" | "DELETE";

export interface PropertyChange {
  kind: DiffKind;
  /** Compared with the old input (not the live output): the display shows that input as the old value. */
  inputDiff: boolean;
}

export interface DiffResult {
  changed: boolean;
  diffs: string[];
  replaces: string[];
  detailedDiff: Record<string, PropertyChange>;
  deleteBeforeReplace: boolean;
}

export interface DiffOptions {
  /** `ignoreChanges` (the resource option): paths that read as unchanged whatever the two sides say. */
  ignoreChanges?: readonly string[];
  /** The inputs flagged `autoname` that this run's Check named: a replacement gives them a fresh name. */
  autonamed?: readonly string[];
  /**
   * Paths of values that arrived secret (as server/marshal.ts writes them: `env`, `env.PASSWORD`): a
   * change inside one is named at its path, never below it (the keys of a map secret as a whole are
   * secret too), while the paths of the values around it are named as ever.
   */
  secretPaths?: ReadonlySet<string>;
}

/**
 * The engine passes ignoreChanges to every Diff, a refresh's included, and leaves the result as the
 * provider gives it. `deleteBeforeReplace` is read by the engine only when it replaces the resource
 * (for this Diff's replaces, or a `replaceOnChanges` path it applies itself): a replacement that
 * keeps a name the program gave would meet the old one's name (409), so it deletes first; an
 * autonamed one gets a fresh name from the engine's second Check and creates first.
 */
export function diffInputs(
  spec: ObjectSpec,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap = {},
  { ignoreChanges = [], autonamed = [], secretPaths = new Set() }: DiffOptions = {},
): DiffResult {
  const compared = ignoredAsCurrent(spec, olds, news, oldInputs, ignoreChanges);
  // Kept by the replacement, as far as a preview knows: a value not known yet may be the same.
  const same = (name: string) => isUnknown(compared[name]) || deepEqual(compared[name], olds[name] ?? oldInputs[name]);
  const detailedDiff: Record<string, PropertyChange> = {};
  const diffs: string[] = [];
  for (const field of inputFields(spec)) {
    const changes = fieldChanges(field, olds, compared, oldInputs, secretPaths);
    if (changes.length > 0) diffs.push(field.name);
    for (const [path, change] of changes) detailedDiff[path] = change;
  }
  const replaces = diffs.filter((name) => inputFields(spec).find((f) => f.name === name)?.replaceOnChange);
  const keepsGivenName = inputFields(spec).some(
    (f) => f.autoname && !autonamed.includes(f.name) && same(f.name) && (!f.uniqueWithin || same(f.uniqueWithin)),
  );
  return {
    changed: diffs.length > 0,
    diffs,
    replaces,
    detailedDiff,
    deleteBeforeReplace: (Boolean(spec.deleteBeforeReplace) && replaces.length > 0) || keepsGivenName,
  };
}

/** The changes of one input, each at the deepest path that tells it and no deeper than a secret. */
function fieldChanges(
  field: Field,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap,
  secretPaths: ReadonlySet<string>,
): Array<[string, PropertyChange]> {
  const kind = (change: Change): DiffKind => (field.replaceOnChange ? `${change}_REPLACE` : change);
  const next = news[field.name];
  if (next === undefined) {
    // Left out: the service keeps (or chose) the value, unless taking it out clears it.
    if (!field.clearedWhenRemoved || oldInputs[field.name] === undefined) return [];
    return [[field.name, { kind: kind("DELETE"), inputDiff: true }]];
  }
  // What the API returns is the truth, except for what it never returns: there the old input is
  // (or its default, for a state written before the property existed).
  const live = field.notReturned ? undefined : olds[field.name];
  const current = managedItems(
    field,
    live ?? oldInputs[field.name] ?? (field.notReturned ? field.default : undefined),
    oldInputs[field.name],
    next,
  );
  if (!containsUnknown(next) && sameValue(field, next, current)) return [];
  const inputDiff = live === undefined;
  const changes: Array<[PathElement[], Change]> =
    current === undefined
      ? [[[field.name], "ADD"]]
      : field.secret || secretPaths.has(field.name)
        ? [[[field.name], "UPDATE"]]
        : field.unordered && Array.isArray(current) && Array.isArray(next)
          ? membershipChanges(field.name, current, next)
          : valueChanges({ elements: [field.name], written: field.name }, current, next, secretPaths);
  return written(changes).map(([path, change]) => [path, { kind: kind(change), inputDiff }]);
}

/**
 * Of an append-only list on the platform, the items the program manages: those it listed before or
 * lists now. Another item was made outside it (the portal, a ServiceLink), which the program could
 * not remove: it reads back in the outputs and warns as drift, but is never a change to make.
 */
export function managedItems(
  field: Field,
  live: PropertyValue | undefined,
  before: PropertyValue | undefined,
  next: PropertyValue | undefined,
): PropertyValue | undefined {
  if (!field.appendOnly || !Array.isArray(live)) return live;
  const listed = [before, next].flatMap((list) => (Array.isArray(list) ? list : []));
  return live.filter((item) => listed.some((mine) => deepEqual(mine, item)));
}

/**
 * The changes as the engine writes their paths. A change at a path no path can spell is named at its
 * parent (writablePath), where it may meet another: a parent named twice is one UPDATE.
 */
function written(changes: Array<[PathElement[], Change]>): Array<[string, Change]> {
  const byPath = new Map<string, Change>();
  for (const [path, change] of changes) {
    const exact = formatPropertyPath(path);
    const at = exact ?? writablePath(path);
    byPath.set(at, byPath.has(at) || exact === undefined ? "UPDATE" : change);
  }
  return [...byPath];
}

/**
 * The paths at which two values of a property differ, as the engine writes them (`env.LOG_LEVEL`,
 * `links[2]`), none deeper than a value that arrived secret.
 */
export function changedPaths(
  name: string,
  before: PropertyValue,
  after: PropertyValue,
  secretPaths: ReadonlySet<string> = new Set(),
): string[] {
  return written(valueChanges({ elements: [name], written: name }, before, after, secretPaths)).map(([path]) => path);
}

/** Where a value is: its path's elements, and the path as the secret paths write it (paths.ts `childPath`). */
interface Place {
  elements: PathElement[];
  written: string;
}

const child = (place: Place, element: PathElement): Place => ({
  elements: [...place.elements, element],
  written: childPath(place.written, element),
});

/**
 * Where two values differ: a key or an item added, deleted or updated, or the value itself; a value
 * that arrived secret (`secretPaths`) as a whole, whatever differs inside it.
 */
function valueChanges(
  place: Place,
  current: PropertyValue,
  next: PropertyValue,
  secretPaths: ReadonlySet<string> = new Set(),
): Array<[PathElement[], Change]> {
  if (isUnknown(next) || isUnknown(current) || secretPaths.has(place.written)) return [[place.elements, "UPDATE"]];
  if (isPlainObject(current) && isPlainObject(next)) {
    const keys = [...new Set([...Object.keys(current), ...Object.keys(next)])].sort();
    return keys.flatMap((key): Array<[PathElement[], Change]> => {
      const [before, after] = [ownValue(current, key), ownValue(next, key)] as Array<PropertyValue | undefined>;
      const at = child(place, key);
      if (after === undefined) return before === undefined ? [] : [[at.elements, "DELETE"]];
      if (before === undefined) return [[at.elements, "ADD"]];
      return deepEqual(before, after) && !containsUnknown(after) ? [] : valueChanges(at, before, after, secretPaths);
    });
  }
  if (Array.isArray(current) && Array.isArray(next)) {
    const length = Math.max(current.length, next.length);
    const changes: Array<[PathElement[], Change]> = [];
    for (let i = 0; i < length; i++) {
      const at = child(place, i);
      if (i >= current.length) changes.push([at.elements, "ADD"]);
      else if (i >= next.length) changes.push([at.elements, "DELETE"]);
      else if (!deepEqual(current[i], next[i]) || containsUnknown(next[i]))
        changes.push(...valueChanges(at, current[i], next[i], secretPaths));
    }
    return changes;
  }
  return [[place.elements, "UPDATE"]];
}

/** A list whose order means nothing: an item new to it is added at its index, one gone is deleted at its old one. */
function membershipChanges(
  name: string,
  current: PropertyValue[],
  next: PropertyValue[],
): Array<[PathElement[], Change]> {
  const absent = (item: PropertyValue, list: PropertyValue[]) =>
    isUnknown(item) || !list.some((other) => deepEqual(item, other));
  return [
    ...next.flatMap((item, i): Array<[PathElement[], Change]> => (absent(item, current) ? [[[name, i], "ADD"]] : [])),
    ...current.flatMap(
      (item, i): Array<[PathElement[], Change]> => (absent(item, next) ? [[[name, i], "DELETE"]] : []),
    ),
  ];
}

/** What each input is now, as a diff compares it: the live value, or the old input where the API never returns it. */
function current(spec: ObjectSpec, olds: PropertyMap, oldInputs: PropertyMap): PropertyMap {
  return Object.fromEntries(
    inputFields(spec).map((f) => [f.name, f.notReturned ? oldInputs[f.name] : (olds[f.name] ?? oldInputs[f.name])]),
  );
}

/**
 * `sent`, a value of the property `name`, with every ignored path inside it holding its value in `live`
 * (what the platform has now): what an update that sends the whole value keeps of what is ignored.
 */
export function keptIgnored<V extends PropertyValue>(
  name: string,
  live: V,
  sent: V,
  ignoreChanges: readonly string[],
): V {
  return ignoreChanges.reduce((value, ignored) => {
    const path = parsePropertyPath(ignored);
    if (path?.[0] !== name) return value;
    return resetPath(recordOf([[name, live]]), recordOf([[name, value]]), path)[name] as V;
  }, sent);
}

/**
 * The new inputs with every ignored path holding its current value (the live one, or the old input
 * where the API never returns it), reset the engine's way (paths.ts `resetPath`: an empty path
 * ignores nothing). What Diff compares, and what Update sends: the engine puts the old input at an
 * ignored path (processIgnoreChanges), and sending it would undo a change made outside Pulumi that
 * the diff, comparing with the live value, does not show. Ignoring a path keeps what the platform has.
 */
export function ignoredAsCurrent(
  spec: ObjectSpec,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap,
  ignoreChanges: readonly string[],
): PropertyMap {
  if (ignoreChanges.length === 0) return news;
  const now = current(spec, olds, oldInputs);
  return ignoreChanges.reduce((compared, ignored) => {
    const path = parsePropertyPath(ignored);
    return path ? resetPath(now, compared, path) : compared;
  }, news);
}
