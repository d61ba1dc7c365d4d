// A resource is declared once: a TypeScript interface gives each property its type, its
// optionality and its documentation; a flags table gives its behaviour. Check, Diff and the
// schema are all derived from the pair, so no resource hand-writes any of them.
import { deepEqual, isUnknown, type PropertyValue } from "./values";

export type PropertyType =
  | { kind: "string" }
  | { kind: "integer" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "map"; values: PropertyType }
  | { kind: "object"; token: string; properties: Record<string, PropertyType> };

/** Returns what is wrong with a (known, well-typed) value and what would be right, or nothing. */
export type Validator = (value: PropertyValue) => string | undefined;

/** Per-property behaviour. Every flag is optional; a property with no flags updates in place. */
export interface FieldFlags {
  /** Filled in by Check when the user leaves the property out. */
  default?: PropertyValue;
  /** Environment variables that supply the value when configuration leaves it out (provider config). */
  env?: string[];
  /** Filled in by Check from this provider configuration key when the user leaves it out. */
  configDefault?: string;
  /** A change replaces the resource (delete and create). */
  replaceOnChange?: boolean;
  /** The value may only grow; a smaller value fails at preview instead of destroying data. */
  growOnly?: boolean;
  /** Kept secret in state and in the display. */
  secret?: boolean;
  /** Nested properties of an object output that are secret. */
  secretSubfields?: string[];
  /** Computed by the service; the user may not set it. */
  output?: boolean;
  /** An output that an update may move (a timestamp, a status): unknown in an update's preview. */
  movesOnUpdate?: boolean;
  /**
   * Taking it out of the program clears it on the service (a diff shows a deletion). Without
   * this flag the service keeps, or chooses, the value of a property the program leaves out.
   */
  clearedWhenRemoved?: boolean;
  /** The API never returns it, so state keeps the input and diffs compare against the old input. */
  notReturned?: boolean;
  /** The API cannot change it after creation: any change fails at preview with this explanation. */
  fixedAfterCreate?: string;
  /** Format check run by Check on known values. */
  validate?: Validator;
}

export interface Field extends FieldFlags {
  name: string;
  type: PropertyType;
  required: boolean;
  description: string;
}

export interface ResourceSpec {
  token: string;
  description: string;
  fields: Field[];
  /** Replacement deletes the old resource before creating the new one. */
  deleteBeforeReplace?: boolean;
}

/** The flags table of a resource: one entry per property of its interface, and no other. */
export type FlagsOf<T> = { [K in keyof Required<T>]: FieldFlags };

export const inputFields = (spec: ResourceSpec): Field[] => spec.fields.filter((f) => !f.output);
export const outputFields = (spec: ResourceSpec): Field[] => spec.fields.filter((f) => f.output);
export const fieldNamed = (spec: ResourceSpec, name: string): Field | undefined =>
  spec.fields.find((f) => f.name === name);

/**
 * A change the API cannot make (a grow-only value shrinking, a value fixed at creation
 * changing), said once for Check, which compares with the old input, and for Diff, which
 * compares with the live value.
 */
export function impossibleChange(field: Field, current: PropertyValue | undefined, next: PropertyValue, against: "input" | "live"): string | undefined {
  if (current === undefined || isUnknown(current) || deepEqual(current, next)) return undefined;
  if (field.growOnly && typeof next === "number" && typeof current === "number" && next < current) {
    const now = against === "live" ? `the live value is ${current}` : `it is ${current} now`;
    return `${field.name} can only grow: ${now}, and ${next} would shrink it, which the service refuses and a ` +
      `replacement would destroy the data. Use ${current} or more.`;
  }
  if (field.fixedAfterCreate) {
    return `${field.name} cannot change from ${JSON.stringify(current)} to ${JSON.stringify(next)}: ${field.fixedAfterCreate}`;
  }
  return undefined;
}
