// Diff: compare the new (checked) inputs with the live outputs. The old inputs say what the
// user set, so server-side values the user never set do not count as changes.
import { Field, ResourceSpec, impossibleChange, inputFields } from "./spec";
import { PropertyMap, containsUnknown, deepEqual } from "./values";

export type DiffKind = "ADD" | "ADD_REPLACE" | "UPDATE" | "UPDATE_REPLACE" | "DELETE" | "DELETE_REPLACE";

export interface DiffResult {
  changed: boolean;
  diffs: string[];
  replaces: string[];
  detailedDiff: Record<string, DiffKind>;
  deleteBeforeReplace: boolean;
}

export function diffInputs(
  spec: ResourceSpec,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap = {},
): DiffResult {
  const detailedDiff: Record<string, DiffKind> = {};
  for (const field of inputFields(spec)) {
    const kind = fieldChange(field, olds, news, oldInputs);
    if (kind) detailedDiff[field.name] = kind;
  }
  const diffs = Object.keys(detailedDiff);
  const replaces = diffs.filter((name) => detailedDiff[name].endsWith("_REPLACE"));
  return {
    changed: diffs.length > 0,
    diffs,
    replaces,
    detailedDiff,
    deleteBeforeReplace: Boolean(spec.deleteBeforeReplace) && replaces.length > 0,
  };
}

function fieldChange(field: Field, olds: PropertyMap, news: PropertyMap, oldInputs: PropertyMap): DiffKind | undefined {
  const next = news[field.name];
  if (next === undefined) {
    // Left out: the service keeps (or chose) the value, unless taking it out clears it.
    const removed = field.clearedWhenRemoved && oldInputs[field.name] !== undefined;
    if (!removed) return undefined;
    return field.replaceOnChange ? "DELETE_REPLACE" : "DELETE";
  }
  // What the API returns is the truth, except for what it never returns: there the old input is.
  const current = field.notReturned ? oldInputs[field.name] ?? olds[field.name] : olds[field.name] ?? oldInputs[field.name];
  if (!containsUnknown(next) && deepEqual(next, current)) return undefined;
  const impossible = containsUnknown(next) ? undefined : impossibleChange(field, current, next, "live");
  if (impossible) throw new InvalidChangeError(field.name, impossible);
  const base = current === undefined ? "ADD" : "UPDATE";
  return field.replaceOnChange ? `${base}_REPLACE` : base;
}

/** A change that no update or replacement may carry out; reported as a failed preview. */
export class InvalidChangeError extends Error {
  constructor(readonly property: string, reason: string) {
    super(reason);
    this.name = "InvalidChangeError";
  }
}
