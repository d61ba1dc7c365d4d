// Check: validate new inputs against their declaration and fill in what the flags fill in.
// Runs at preview, before any API call; every failure names the property and says what
// would be right. Changes the API cannot make (grow-only, fixed after creation) are not judged
// here but in `refusedChange`, against the live outputs, which Check never sees.
import { managedItems } from "./diff";
import { blankQuoted } from "../redact";
import { within } from "./paths";
import { autoname, type NamingRequest } from "./autoname";
import {
  type CheckFailure,
  type Field,
  type ObjectSpec,
  type PropertyType,
  droppedItems,
  filledIn,
  inputFields,
  sameValue,
} from "./spec";
import {
  type PropertyMap,
  type PropertyValue,
  containsUnknown,
  deepEqual,
  isPlainObject,
  isUnknown,
  stringsIn,
} from "./values";

export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
  /** The inputs flagged `autoname` that the program left out, which Check named (or kept as they were). */
  autonamed: string[];
}

export interface CheckContext {
  /** The package's name, which prefixes configuration keys in messages (`hosting:token`). */
  packageName: string;
  /** Provider configuration values that stand in for inputs flagged `configDefault`. */
  config?: Record<string, PropertyValue | undefined>;
  /** The environment, for inputs flagged `env` (provider configuration). */
  env?: Record<string, string | undefined>;
  /** Paths ("env", "env.API_KEY") of values that arrived secret: a failure never repeats them. */
  secretPaths?: ReadonlySet<string>;
  /**
   * What a resource's Check can name it from, for inputs flagged `autoname`: the old inputs (an
   * update keeps the name it has), the name an earlier, stopped run made it under (`unrecorded`:
   * server/unrecorded.ts), and the engine's seed and autonaming options. Without it such an input is
   * required.
   */
  naming?: NamingContext;
}

type NamingContext = NamingRequest & { olds: PropertyMap; unrecorded?: string };

export function checkInputs(spec: ObjectSpec, news: PropertyMap, context: CheckContext): CheckResult {
  const failures: CheckFailure[] = [...unexpectedProperties(spec, news)];
  const inputs: PropertyMap = {};
  const autonamed: string[] = [];
  for (const field of inputFields(spec)) {
    const given = news[field.name];
    let value = given ?? filledIn(field, context);
    if ((value === undefined || value === null) && field.autoname && context.naming) {
      const named = nameOf(field, context.naming);
      if ("failure" in named) {
        failures.push({ property: field.name, reason: named.failure });
        continue;
      }
      value = named.name;
      autonamed.push(field.name);
    }
    if (value === undefined || value === null) {
      if (field.required || field.configDefault || field.autoname)
        failures.push({ property: field.name, reason: missingReason(field, context.packageName) });
      continue;
    }
    // A value from the environment is checked but not stored: Configure reads it again.
    const fromEnvironment = (given === undefined || given === null) && field.env !== undefined;
    if (!fromEnvironment) inputs[field.name] = value;
    if (containsUnknown(value)) continue; // known at apply time; Check runs again then
    const secret = field.secret || holdsSecret(field.name, context.secretPaths);
    const reason = typeMismatch(field.type, value, secret, field.name) ?? field.validate?.(value, field.name);
    const whole = field.secret || context.secretPaths?.has(field.name);
    if (reason)
      failures.push({ property: field.name, reason: secret ? withoutSecrets(reason, value, Boolean(whole)) : reason });
  }
  if (failures.length === 0) {
    for (const rule of spec.rules ?? []) {
      const failure = rule(inputs);
      if (failure) failures.push(failure);
    }
  }
  return { inputs, failures, autonamed };
}

/** The name a resource keeps (its old input: an update never renames it) or is given now. */
function nameOf(field: Field, naming: NamingContext) {
  const kept = naming.olds[field.name] ?? naming.unrecorded;
  if (typeof kept === "string" && kept !== "") return { name: kept };
  return autoname(field.name, field.autoname!, naming);
}

/**
 * The change an update asks for that the API cannot make (a grow-only value shrinking, a value
 * fixed at creation changing), judged against the live outputs: they are the truth, and they
 * hold what the service chose for a property the program only now sets (a database's memory).
 * And an update that would have to send a value the program ignores and the API never returns
 * (a registry's password, which may have been rotated elsewhere). Update calls it in its preview,
 * so it fails at preview; Diff, which a refresh also calls the other way round, never does (there
 * a shrink is drift to show).
 */
export function refusedChange(
  spec: ObjectSpec,
  olds: PropertyMap,
  news: PropertyMap,
  ignoreChanges: readonly string[] = [],
  oldInputs: PropertyMap = olds,
): CheckFailure | undefined {
  const stale = inputFields(spec).find(
    (f) => f.resentOnUpdate && f.notReturned && ignoreChanges.some((path) => within(path, f.name)),
  );
  if (stale) return { property: stale.name, reason: staleResend(spec, stale, olds, news) };
  // Neither the state nor the program holds it (an imported resource): the update would send none, clearing it.
  const unknowable = inputFields(spec).find(
    (f) => f.resentOnUpdate && f.notReturned && absent(olds[f.name]) && absent(news[f.name]),
  );
  if (unknowable) return { property: unknowable.name, reason: unrecordedResend(spec, unknowable, olds, news) };
  for (const field of inputFields(spec)) {
    const next = news[field.name];
    const current = managedItems(field, olds[field.name], oldInputs[field.name], next);
    if (next === undefined || next === null || containsUnknown(next)) continue;
    if (
      current === undefined ||
      current === null ||
      containsUnknown(current) ||
      sameValue(field, current as PropertyValue, next as PropertyValue)
    )
      continue;
    if (field.growOnly && typeof next === "number" && typeof current === "number" && next < current) {
      const reason = `${field.name} can only grow: it is ${current} now, and ${next} would shrink it, which the service refuses and a replacement would destroy the data. Use ${current} or more.`;
      return { property: field.name, reason };
    }
    const dropped =
      field.appendOnly && Array.isArray(current) && Array.isArray(next) ? droppedItems(current, next) : [];
    if (dropped.length > 0) {
      return {
        property: field.name,
        reason: `${field.name} cannot drop ${dropped.map((item) => JSON.stringify(item)).join(", ")}: ${field.appendOnly}`,
      };
    }
    if (field.fixedAfterCreate) {
      return {
        property: field.name,
        reason: `${field.name} cannot change from ${JSON.stringify(current)} to ${JSON.stringify(next)}: ${field.fixedAfterCreate}`,
      };
    }
  }
  return undefined;
}

/** The other inputs an update changes (the API returns them, so they are compared with the live values). */
const changedBesides = (spec: ObjectSpec, field: Field, olds: PropertyMap, news: PropertyMap): string[] =>
  inputFields(spec)
    .filter(
      (f) => f !== field && !f.notReturned && news[f.name] !== undefined && !deepEqual(news[f.name], olds[f.name]),
    )
    .map((f) => f.name);

const thisUpdate = (names: string[]) => (names.length > 0 ? `this update (of ${names.join(", ")})` : "this update");

function staleResend(spec: ObjectSpec, field: Field, olds: PropertyMap, news: PropertyMap): string {
  const what = thisUpdate(changedBesides(spec, field, olds, news));
  return `${field.name} is in ignoreChanges, but ${what} must send it: the API replaces the whole ${spec.token.split(":").pop()} and never returns its ${field.name}, so the provider could only send the ${field.name} it last set (which may have been changed outside Pulumi since) or none (which clears it). Either take ${field.name} out of ignoreChanges and set its current value in the program for this update, or make the change outside Pulumi and run \`pulumi refresh\`.`;
}

const absent = (value: PropertyValue | undefined) => value === undefined || value === null;

function unrecordedResend(spec: ObjectSpec, field: Field, olds: PropertyMap, news: PropertyMap): string {
  const kind = spec.token.split(":").pop();
  const names = changedBesides(spec, field, olds, news);
  const what = thisUpdate(names);
  const ignored = JSON.stringify(names.length > 0 ? names : ["<the changed properties>"]).replace(/,/g, ", ");
  const key = `${kind![0].toLowerCase()}${kind!.slice(1)}${field.name[0].toUpperCase()}${field.name.slice(1)}`;
  return `${field.name} is neither in the stack's state nor in the program (the API never returns it, so an imported ${kind} has none), and ${what} must send the whole ${kind}: sending no ${field.name} would clear the one the platform holds, so nothing was sent. Set it in the program from a secret (\`pulumi config set --secret ${key} <value>\`, then ${field.name}: config.requireSecret("${key}")), or, to leave the ${kind} as it is, ignore the change deliberately with ignoreChanges: ${ignored}; ${field.name}: "" sends an empty one on purpose.`;
}

export function missingReason(field: Field, packageName: string): string {
  if (field.env) {
    const set = `pulumi config set ${packageName}:${field.name}${field.secret ? " --secret" : ""} <value>`;
    return `missing required configuration key "${packageName}:${field.name}": set it with \`${set}\`, or set ${field.env.join(" or ")}`;
  }
  if (field.configDefault) {
    return `${field.name} is required: set it on the resource, or set the provider's default with \`pulumi config set ${packageName}:${field.configDefault} <value>\``;
  }
  return `${field.name} is required: ${field.description}`;
}

/** The names of a spec's inputs: once per spec, not per Check. */
const inputNames = new WeakMap<ObjectSpec, Set<string>>();
function inputNamesOf(spec: ObjectSpec): Set<string> {
  let names = inputNames.get(spec);
  if (!names) {
    names = new Set(inputFields(spec).map((f) => f.name));
    inputNames.set(spec, names);
  }
  return names;
}

function unexpectedProperties(spec: ObjectSpec, news: PropertyMap): CheckFailure[] {
  const inputs = inputNamesOf(spec);
  const unexpected = Object.keys(news).filter((key) => !inputs.has(key) && news[key] !== undefined);
  if (unexpected.length === 0) return [];
  const outputs = new Set(spec.fields.filter((f) => f.output).map((f) => f.name));
  return unexpected.map((key) => ({
    property: key,
    reason: outputs.has(key)
      ? `${key} is an output computed by the service and cannot be set`
      : `${key} is not a property of ${spec.token}; valid properties are ${[...inputs].join(", ")}`,
  }));
}

const article = (kind: string) => (/^[aeiou]/.test(kind) ? "an" : "a");

function describeType(type: PropertyType): string {
  switch (type.kind) {
    case "map":
      return `map of ${describeType(type.values)}s`;
    case "array":
      return `list of ${describeType(type.items)}s`;
    case "object":
      return "object";
    default:
      return type.kind;
  }
}

const holdsSecret = (name: string, secretPaths: ReadonlySet<string> = new Set()) =>
  [...secretPaths].some((path) => within(path, name));

/**
 * The reason with every string the (secret) value holds blanked out, as validators may quote it:
 * this value, at any length, since the failure says whose it is anyway (redact.ts `blankQuoted`).
 * Every failure then goes through the server's redaction of every secret it knows as well.
 */
function withoutSecrets(reason: string, value: PropertyValue, whole: boolean): string {
  // The keys of a map that arrived secret whole are the secret's too (a validator quotes a key it refuses).
  const keys = (v: PropertyValue): string[] =>
    isPlainObject(v) ? Object.entries(v).flatMap(([key, item]) => [key, ...keys(item as PropertyValue)]) : [];
  return blankQuoted(reason, [...stringsIn(value), ...(whole ? keys(value) : [])]);
}

/** Describes the value without echoing it when it is secret. */
function shown(value: PropertyValue, secret: boolean): string {
  const kind = Array.isArray(value) ? "a list" : value === null ? "null" : `${article(typeof value)} ${typeof value}`;
  return secret ? kind : `${kind} (${JSON.stringify(value)})`;
}

function typeMismatch(type: PropertyType, value: PropertyValue, secret: boolean, path: string): string | undefined {
  if (isUnknown(value)) return undefined;
  // Written only when it is the answer: most values match, and Check runs for every resource of a preview.
  const expected = () =>
    `${path} must be ${article(describeType(type))} ${describeType(type)}, not ${shown(value, secret)}`;
  switch (type.kind) {
    case "string":
      return typeof value === "string" ? undefined : expected();
    case "boolean":
      return typeof value === "boolean" ? undefined : expected();
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : expected();
    case "integer":
      if (typeof value !== "number") return expected();
      return Number.isInteger(value)
        ? undefined
        : `${path} must be a whole number, not ${secret ? "a fraction" : value}`;
    case "map":
      if (!isPlainObject(value)) return expected();
      return firstProblem(Object.entries(value), ([key, item]) =>
        typeMismatch(type.values, item as PropertyValue, secret, `${path}.${key}`),
      );
    case "array":
      if (!Array.isArray(value)) return expected();
      return firstProblem(value.entries(), ([i, item]) => typeMismatch(type.items, item, secret, `${path}[${i}]`));
    case "object":
      if (!isPlainObject(value)) return expected();
      return firstProblem(Object.entries(value), ([key, item]) => {
        const itemType = type.properties[key];
        if (!itemType) return `${path}.${key} is not a property of ${type.token}`;
        return typeMismatch(itemType, item as PropertyValue, secret, `${path}.${key}`);
      });
  }
}

function firstProblem<T>(items: Iterable<T>, problem: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const found = problem(item);
    if (found) return found;
  }
  return undefined;
}
