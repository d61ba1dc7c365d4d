// A resource, a function and the provider's configuration are declared the same way: a
// TypeScript interface gives each property its type, its optionality and its documentation;
// a flags table gives its behaviour. Check, Diff, previews, reads and the schema are all
// derived from the pair, so nothing declared here is re-implemented anywhere else.
import { deepEqual, type PropertyMap, type PropertyValue } from "./values";

export type PropertyType =
  | { kind: "string" }
  | { kind: "integer" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "map"; values: PropertyType }
  | { kind: "array"; items: PropertyType }
  | { kind: "object"; token: string; properties: Record<string, PropertyType> };

/**
 * What is wrong with a (known, well-typed) value and what would be right, or nothing. `path`
 * names the property (`httpPort`, `env.LOG_LEVEL`); the message starts with it.
 */
export type Validator = (value: PropertyValue, path: string) => string | undefined;

/** The API's rule for a name, and how any text is made to follow it. */
export interface NameRule {
  /** What is wrong with a name (starting with the property's path), or nothing. */
  validate: Validator;
  /**
   * The text made a valid name of at most `maxLength` (lowercased, other characters dashed, the middle of a text too
   * long shortened so that its start and its tail stay), or nothing when none can be made.
   */
  fit(text: string, maxLength: number): string | undefined;
  maxLength: number;
}

/** Per-property behaviour. Every flag is optional; a property with no flags updates in place. */
export interface FieldFlags {
  /** Filled in by Check when the program leaves the property out. */
  default?: PropertyValue;
  /** Environment variables that supply the value when the configuration leaves it out. */
  env?: string[];
  /** Filled in by Check from this provider configuration key when the program leaves it out. */
  configDefault?: string;
  /** A change replaces the resource (delete and create). */
  replaceOnChange?: boolean;
  /** The value may only grow: an update to a smaller value fails at preview, instead of destroying data. */
  growOnly?: boolean;
  /** Kept secret in state and in the display. */
  secret?: boolean;
  /** Nested properties of an object (or of the items of a list) that are secret. */
  secretSubfields?: string[];
  /** Computed by the service; the program may not set it. */
  output?: boolean;
  /**
   * An output that an update may move: unknown in an update's preview. `true`: any update;
   * a list of inputs: an update that changes one of them (internalHost moves with httpPort).
   */
  movesOnUpdate?: true | string[];
  /**
   * Taking it out of the program clears it on the service (a diff shows a deletion, and the
   * update receives the type's empty value: `{}` for a map, nothing for the rest). Without this
   * flag the service keeps, or chooses, the value of a property the program leaves out.
   */
  clearedWhenRemoved?: boolean;
  /** The API never returns it, so reads keep the input and diffs compare against the old input. */
  notReturned?: boolean;
  /**
   * Every update sends it again (the API replaces the whole record). With `notReturned`, the only
   * value there is to send is the last one set, so an update while it is in `ignoreChanges` (it
   * may have been changed elsewhere) fails at preview rather than send a stale value.
   */
  resentOnUpdate?: boolean;
  /** The API cannot change it after creation: an update that changes it fails at preview with this explanation. */
  fixedAfterCreate?: string;
  /** A list whose order means nothing: diffs compare it as a set, so reordering it is no change. */
  unordered?: boolean;
  /**
   * A list the API can add items to but never remove them from: an update that drops an item
   * fails at preview with this explanation (why, and what the user can do instead). An item on the
   * platform that the program never listed (made in the portal, or by another resource) is read back
   * as an output and warned of as drift, but is not the program's: it never diffs, nor blocks an
   * update, since the program could not remove it (managedItems).
   */
  appendOnly?: string;
  /** Format check run by Check on known values. */
  validate?: Validator;
  /**
   * Check names the resource when the program leaves this out (autoname.ts): the name it has
   * (an update), the engine's autonaming proposal, or the logical name plus a random suffix, each
   * fitted to this rule.
   */
  autoname?: NameRule;
  /**
   * Names are unique among the resources with the same value of this input (`projectId`): a
   * replacement into another one does not meet the original's name.
   */
  uniqueWithin?: string;
}

export interface Field extends FieldFlags {
  name: string;
  type: PropertyType;
  required: boolean;
  description: string;
}

/** A problem Check reports, naming the property. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** A rule over several properties of one object (exactly one of `id` and `name`). */
export type ObjectRule = (values: PropertyMap) => CheckFailure | undefined;

/** A declaration bound to its schema: what Check, Diff, previews and reads work from. */
export interface ObjectSpec {
  token: string;
  fields: Field[];
  rules?: ObjectRule[];
  /** Replacement deletes the old resource before creating the new one. */
  deleteBeforeReplace?: boolean;
}

/** The flags table of a declaration: one entry per property of its interface, and no other. */
export type FlagsOf<T> = { [K in keyof Required<T>]: FieldFlags };

/** The properties Check always fills (a default, or a provider setting), so lifecycles always get them. */
type FilledKeys<F> = {
  [K in keyof F]: F[K] extends { default: PropertyValue } | { configDefault: string } | { autoname: NameRule }
    ? K
    : never;
}[keyof F];

/** A declaration's inputs as its lifecycle receives them: checked, with every default filled in. */
export type Checked<T, F> = Omit<T, FilledKeys<F> & keyof T> & Required<Pick<T, FilledKeys<F> & keyof T>>;

// Once per declaration: Check and Diff ask for them several times for every resource of a preview.
const inputsOf = new WeakMap<ObjectSpec, readonly Field[]>();
const outputsOf = new WeakMap<ObjectSpec, readonly Field[]>();
const fieldsOf = (memo: WeakMap<ObjectSpec, readonly Field[]>, spec: ObjectSpec, output: boolean) => {
  let fields = memo.get(spec);
  if (!fields) memo.set(spec, (fields = Object.freeze(spec.fields.filter((f) => Boolean(f.output) === output))));
  return fields;
};
export const inputFields = (spec: ObjectSpec): readonly Field[] => fieldsOf(inputsOf, spec, false);
export const outputFields = (spec: ObjectSpec): readonly Field[] => fieldsOf(outputsOf, spec, true);

/** Whether two values of a property are the same: a list flagged `unordered` compares as a set. */
export function sameValue(field: FieldFlags, a: PropertyValue | undefined, b: PropertyValue | undefined): boolean {
  if (!field.unordered || !Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  return (
    a.length === b.length &&
    a.every((item) => b.some((other) => deepEqual(item, other))) &&
    b.every((item) => a.some((other) => deepEqual(item, other)))
  );
}

/** The items of list `from` that list `to` lacks (what an update from one to the other would drop). */
export function droppedItems(from: readonly PropertyValue[], to: readonly PropertyValue[]): PropertyValue[] {
  return from.filter((item) => !to.some((other) => deepEqual(item, other)));
}

/** The value a property has once the program took it out, for a property cleared by removal. */
export const clearedValue = (field: Field): PropertyValue | undefined => (field.type.kind === "map" ? {} : undefined);

/** Whether Check fills the property whenever the program leaves it out (so it is always there after Check). */
export const alwaysFilled = (flags: FieldFlags): boolean =>
  flags.default !== undefined || flags.configDefault !== undefined || flags.autoname !== undefined;

/** Where a left-out property's value may come from: the provider's settings, the environment. */
export interface FillSources {
  config?: Record<string, PropertyValue | undefined>;
  env?: Record<string, string | undefined>;
}

/**
 * The one rule for a property the program left out: an environment variable, else a provider setting, else its
 * default.
 */
export function filledIn(
  field: FieldFlags & { type?: PropertyType },
  { config = {}, env = {} }: FillSources,
): PropertyValue | undefined {
  for (const name of field.env ?? []) if (env[name]) return fromEnvironment(field.type, env[name]);
  if (field.configDefault) return config[field.configDefault];
  return field.default;
}

/**
 * An environment variable's text as its property's type reads it (`true`, `3`), as stack config is
 * read (configure.ts `decodeSettings`); text that is not JSON stays text, for Check to refuse.
 */
export function fromEnvironment(type: PropertyType | undefined, text: string): PropertyValue {
  if (type === undefined || type.kind === "string") return text;
  try {
    return JSON.parse(text) as PropertyValue;
  } catch {
    return text;
  }
}
