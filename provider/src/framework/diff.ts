// Diff: compare new inputs with the resource's current state. It never fails: the engine
// also calls it after a refresh, the other way round (olds = what Read returned, news = the
// stored inputs), where a shrink or a resize is drift to show, not an error. Changes the API
// cannot make are refused by the update's preview (check.ts `refusedChange`).
import { parsePropertyPath, resetPath } from "./paths";
import { type Field, type ObjectSpec, inputFields, sameValue } from "./spec";
import { type PropertyMap, containsUnknown } from "./values";

export type DiffKind = "ADD" | "ADD_REPLACE" | "UPDATE" | "UPDATE_REPLACE" | "DELETE" | "DELETE_REPLACE";

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

/**
 * `ignoreChanges` (the resource option) holds paths that read as unchanged whatever the two
 * sides say: the engine passes them to every Diff, a refresh's included, and leaves the result as
 * the provider gives it.
 */
export function diffInputs(
  spec: ObjectSpec,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap = {},
  ignoreChanges: readonly string[] = [],
): DiffResult {
  const compared = withIgnoredAsCurrent(spec, olds, news, oldInputs, ignoreChanges);
  const detailedDiff: Record<string, PropertyChange> = {};
  for (const field of inputFields(spec)) {
    const change = fieldChange(field, olds, compared, oldInputs);
    if (change) detailedDiff[field.name] = change;
  }
  const diffs = Object.keys(detailedDiff);
  const replaces = diffs.filter((name) => detailedDiff[name].kind.endsWith("_REPLACE"));
  return {
    changed: diffs.length > 0,
    diffs,
    replaces,
    detailedDiff,
    deleteBeforeReplace: Boolean(spec.deleteBeforeReplace) && replaces.length > 0,
  };
}

function fieldChange(
  field: Field,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap,
): PropertyChange | undefined {
  const next = news[field.name];
  if (next === undefined) {
    // Left out: the service keeps (or chose) the value, unless taking it out clears it.
    if (!field.clearedWhenRemoved || oldInputs[field.name] === undefined) return undefined;
    return { kind: field.replaceOnChange ? "DELETE_REPLACE" : "DELETE", inputDiff: true };
  }
  // What the API returns is the truth, except for what it never returns: there the old input is
  // (or its default, for a state written before the property existed).
  const live = field.notReturned ? undefined : olds[field.name];
  const current = live ?? oldInputs[field.name] ?? (field.notReturned ? field.default : undefined);
  if (!containsUnknown(next) && sameValue(field, next, current)) return undefined;
  const base = current === undefined ? "ADD" : "UPDATE";
  return { kind: field.replaceOnChange ? `${base}_REPLACE` : base, inputDiff: live === undefined };
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
