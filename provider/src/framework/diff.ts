// Diff: compare new inputs with the resource's current state. It never fails: the engine
// also calls it after a refresh, the other way round (olds = what Read returned, news = the
// stored inputs), where a shrink or a resize is drift to show, not an error. Changes the API
// cannot make are refused by the update's preview (check.ts `refusedChange`).
//
// The detailed diff names the exact path that changed (`env.DATABASE_HOST`, `links[2]`), as the
// engine's own diff does: the engine applies `replaceOnChanges` to a detailed diff path that an
// option path contains (step_generator.go `applyReplaceOnChanges`), and `pulumi preview --json`
// and pull-request comments show these paths. `diffs` keeps the top-level names.
import { formatPropertyPath, type PathElement, parsePropertyPath, resetPath, within } from "./paths";
import { type Field, type ObjectSpec, inputFields, sameValue } from "./spec";
import { type PropertyMap, type PropertyValue, containsUnknown, deepEqual, isPlainObject, isUnknown } from "./values";

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
  /** Paths of values that arrived secret: their keys are not named in the detailed diff, only the property. */
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
  const compared = withIgnoredAsCurrent(spec, olds, news, oldInputs, ignoreChanges);
  // Kept by the replacement, as far as a preview knows: a value not known yet may be the same.
  const same = (name: string) => isUnknown(compared[name]) || deepEqual(compared[name], olds[name] ?? oldInputs[name]);
  const detailedDiff: Record<string, PropertyChange> = {};
  const diffs: string[] = [];
  for (const field of inputFields(spec)) {
    const changes = fieldChanges(field, olds, compared, oldInputs, holdsSecret(field.name, secretPaths));
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

const holdsSecret = (name: string, secretPaths: ReadonlySet<string>) =>
  [...secretPaths].some((path) => within(path, name));

/** The changes of one input, each at the deepest path that tells it (a secret's only at the property). */
function fieldChanges(
  field: Field,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap,
  secret: boolean,
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
  const current = live ?? oldInputs[field.name] ?? (field.notReturned ? field.default : undefined);
  if (!containsUnknown(next) && sameValue(field, next, current)) return [];
  const inputDiff = live === undefined;
  const changes: Array<[PathElement[], Change]> =
    current === undefined
      ? [[[field.name], "ADD"]]
      : secret || field.secret
        ? [[[field.name], "UPDATE"]]
        : field.unordered && Array.isArray(current) && Array.isArray(next)
          ? membershipChanges(field.name, current, next)
          : valueChanges([field.name], current, next);
  return changes.map(([path, change]) => [formatPropertyPath(path), { kind: kind(change), inputDiff }]);
}

/** The paths at which two values of a property differ, as the engine writes them (`env.LOG_LEVEL`, `links[2]`). */
export function changedPaths(name: string, before: PropertyValue, after: PropertyValue): string[] {
  return valueChanges([name], before, after).map(([path]) => formatPropertyPath(path));
}

/** Where two values differ: a key or an item added, deleted or updated, or the value itself. */
function valueChanges(
  path: PathElement[],
  current: PropertyValue,
  next: PropertyValue,
): Array<[PathElement[], Change]> {
  if (isUnknown(next) || isUnknown(current)) return [[path, "UPDATE"]];
  if (isPlainObject(current) && isPlainObject(next)) {
    const keys = [...new Set([...Object.keys(current), ...Object.keys(next)])].sort();
    return keys.flatMap((key): Array<[PathElement[], Change]> => {
      const [before, after] = [current[key] as PropertyValue | undefined, next[key] as PropertyValue | undefined];
      if (after === undefined) return before === undefined ? [] : [[[...path, key], "DELETE"]];
      if (before === undefined) return [[[...path, key], "ADD"]];
      return deepEqual(before, after) && !containsUnknown(after) ? [] : valueChanges([...path, key], before, after);
    });
  }
  if (Array.isArray(current) && Array.isArray(next)) {
    const length = Math.max(current.length, next.length);
    const changes: Array<[PathElement[], Change]> = [];
    for (let i = 0; i < length; i++) {
      if (i >= current.length) changes.push([[...path, i], "ADD"]);
      else if (i >= next.length) changes.push([[...path, i], "DELETE"]);
      else if (!deepEqual(current[i], next[i]) || containsUnknown(next[i]))
        changes.push(...valueChanges([...path, i], current[i], next[i]));
    }
    return changes;
  }
  return [[path, "UPDATE"]];
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

/** The new inputs with every ignored path holding its current value, so that it compares as unchanged. */
function withIgnoredAsCurrent(
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
