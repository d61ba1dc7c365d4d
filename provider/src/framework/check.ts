// Check: validate a resource's new inputs against its declaration and fill in defaults.
// Runs at preview, before any API call; every failure names the property and says what
// would be right.
import { Field, PropertyType, ResourceSpec, impossibleChange, inputFields } from "./spec";
import { PropertyMap, PropertyValue, containsUnknown, isPlainObject, isUnknown } from "./values";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

/** Provider configuration values that may stand in for a missing input (e.g. projectId). */
export type ConfigDefaults = Record<string, string | undefined>;

/**
 * `secretPaths` are the paths ("env", "env.API_KEY") of values that arrived secret: a failure
 * about them never repeats the value, as for properties declared secret.
 */
export function checkInputs(
  spec: ResourceSpec,
  news: PropertyMap,
  olds: PropertyMap | undefined,
  config: ConfigDefaults = {},
  secretPaths: ReadonlySet<string> = new Set(),
): CheckResult {
  const failures: CheckFailure[] = [...unexpectedProperties(spec, news)];
  const inputs: PropertyMap = {};
  for (const field of inputFields(spec)) {
    const value = withDefault(field, news[field.name], config);
    if (value === undefined) {
      if (field.required || field.configDefault) failures.push({ property: field.name, reason: missingReason(field) });
      continue;
    }
    inputs[field.name] = value;
    if (containsUnknown(value)) continue; // known at apply time; Check runs again then
    const secret = field.secret || holdsSecret(field.name, secretPaths);
    const reason =
      typeMismatch(field, field.type, value, secret) ??
      namingTheField(field, field.validate?.(value)) ??
      impossibleChange(field, olds?.[field.name], value, "input");
    if (reason) failures.push({ property: field.name, reason: secret ? withoutSecrets(reason, value) : reason });
  }
  return { inputs, failures };
}

/** Validators speak of the value; make sure the reason also names the property. */
function namingTheField(field: Field, reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  return new RegExp(`\\b${field.name}\\b`, "i").test(reason) ? reason : `${field.name}: ${reason}`;
}

function withDefault(field: Field, value: PropertyValue | undefined, config: ConfigDefaults) {
  if (value !== undefined && value !== null) return value;
  if (field.default !== undefined) return field.default;
  if (field.configDefault) return config[field.configDefault];
  return undefined;
}

function missingReason(field: Field): string {
  if (field.configDefault) {
    return `${field.name} is required: set it on the resource, or set the provider's default with ` +
      `\`pulumi config set hosting:${field.configDefault} <value>\``;
  }
  return `${field.name} is required: ${field.description}`;
}

function unexpectedProperties(spec: ResourceSpec, news: PropertyMap): CheckFailure[] {
  const inputs = new Set(inputFields(spec).map((f) => f.name));
  const outputs = new Set(spec.fields.filter((f) => f.output).map((f) => f.name));
  return Object.keys(news)
    .filter((key) => !inputs.has(key) && !key.startsWith("__") && news[key] !== undefined)
    .map((key) => ({
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
    case "object":
      return "object";
    default:
      return type.kind;
  }
}

const holdsSecret = (name: string, secretPaths: ReadonlySet<string>) =>
  [...secretPaths].some((path) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));

/** The reason with every string the (secret) value holds blanked out, as validators may quote it. */
function withoutSecrets(reason: string, value: PropertyValue): string {
  const strings: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === "string" && v !== "") strings.push(v);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  collect(value);
  return strings.sort((a, b) => b.length - a.length).reduce((text, secret) => text.split(secret).join("[secret]"), reason);
}

/** Describes the value without echoing it when it is secret. */
function shown(value: PropertyValue, secret: boolean): string {
  const kind = Array.isArray(value) ? "a list" : value === null ? "null" : `${article(typeof value)} ${typeof value}`;
  return secret ? kind : `${kind} (${JSON.stringify(value)})`;
}

function typeMismatch(field: Field, type: PropertyType, value: PropertyValue, secret: boolean, path = field.name): string | undefined {
  if (isUnknown(value)) return undefined;
  const expected = `${path} must be ${article(describeType(type))} ${describeType(type)}, not ${shown(value, secret)}`;
  switch (type.kind) {
    case "string":
      return typeof value === "string" ? undefined : expected;
    case "boolean":
      return typeof value === "boolean" ? undefined : expected;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : expected;
    case "integer":
      if (typeof value !== "number") return expected;
      return Number.isInteger(value) ? undefined : `${path} must be a whole number, not ${secret ? "a fraction" : value}`;
    case "map":
      if (!isPlainObject(value)) return expected;
      for (const [key, item] of Object.entries(value)) {
        const problem = typeMismatch(field, type.values, item as PropertyValue, secret, `${path}.${key}`);
        if (problem) return problem;
      }
      return undefined;
    case "object":
      if (!isPlainObject(value)) return expected;
      for (const [key, item] of Object.entries(value)) {
        const itemType = type.properties[key];
        if (!itemType) return `${path}.${key} is not a property of ${type.token}`;
        const problem = typeMismatch(field, itemType, item as PropertyValue, secret, `${path}.${key}`);
        if (problem) return problem;
      }
      return undefined;
  }
}
