// Readers for request bodies. Each throws 400 VALIDATION_FAILED with a message naming the field.
import { validationFailed } from "./errors";

export type Fields = Record<string, unknown>;

export const NAME_PATTERN = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Parse a JSON object body. With `allowed`, any other field is rejected (it catches wire-name typos). */
export function parseObject(raw: string, allowed?: readonly string[]): Fields {
  let value: unknown;
  try {
    value = raw.trim() === "" ? undefined : JSON.parse(raw);
  } catch {
    throw validationFailed("body: not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw validationFailed("body: must be a JSON object");
  }
  const fields = value as Fields;
  if (allowed) {
    const unknown = Object.keys(fields).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) throw validationFailed(`${unknown[0]}: unknown field`);
  }
  return fields;
}

export const has = (fields: Fields, key: string): boolean => fields[key] !== undefined;

export function requiredString(fields: Fields, key: string): string {
  const value = fields[key];
  if (value === undefined) throw validationFailed(`${key}: required`);
  if (typeof value !== "string" || value.length === 0) throw validationFailed(`${key}: must be a non-empty string`);
  return value;
}

export function optionalString(fields: Fields, key: string): string | undefined {
  if (!has(fields, key)) return undefined;
  if (typeof fields[key] !== "string") throw validationFailed(`${key}: must be a string`);
  return fields[key] as string;
}

export function requiredName(fields: Fields, key = "name"): string {
  const value = requiredString(fields, key);
  if (!NAME_PATTERN.test(value)) {
    throw validationFailed(
      `${key}: must be 1-63 lowercase letters, digits or '-', start with a letter and not end with '-'`,
    );
  }
  return value;
}

export function requiredInt(fields: Fields, key: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!has(fields, key)) throw validationFailed(`${key}: required`);
  return intIn(fields[key], key, min, max);
}

/** `label` names the field in the message when it is nested (e.g. "resources.cpu_milli"). */
export function optionalInt(
  fields: Fields,
  key: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  label = key,
): number | undefined {
  return has(fields, key) ? intIn(fields[key], label, min, max) : undefined;
}

function intIn(value: unknown, key: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
    throw validationFailed(`${key}: must be an integer ${range}`);
  }
  return value;
}

export function optionalBool(fields: Fields, key: string): boolean | undefined {
  if (!has(fields, key)) return undefined;
  if (typeof fields[key] !== "boolean") throw validationFailed(`${key}: must be a boolean`);
  return fields[key] as boolean;
}

export function optionalStringMap(fields: Fields, key: string): Record<string, string> | undefined {
  if (!has(fields, key)) return undefined;
  const value = fields[key];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw validationFailed(`${key}: must be an object of strings`);
  }
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== "string") throw validationFailed(`${key}.${name}: must be a string`);
  }
  return { ...(value as Record<string, string>) };
}

export function optionalObject(fields: Fields, key: string, allowed: readonly string[]): Fields | undefined {
  if (!has(fields, key)) return undefined;
  const value = fields[key];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw validationFailed(`${key}: must be an object`);
  }
  const unknown = Object.keys(value).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw validationFailed(`${key}.${unknown[0]}: unknown field`);
  return value as Fields;
}
