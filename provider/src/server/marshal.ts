// Property values between the engine's protobuf Structs and the framework's plain values.
// Unknowns (preview) become the Unknown marker; secrets are unwrapped on the way in, with a
// note of which properties were secret, and wrapped again on the way out.
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Field } from "../framework/spec";
import { PropertyMap, PropertyValue, Unknown, isPlainObject, isUnknown } from "../framework/values";

/** Signatures of the engine's special values (sdk/go/common/resource/properties.go). */
export const UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const SPECIAL_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface Unmarshalled {
  values: PropertyMap;
  /** Top-level properties that arrived secret, whole or in part. */
  secrets: Set<string>;
}

function unwrap(value: unknown, onSecret: () => void): PropertyValue {
  if (value === UNKNOWN_SENTINEL) return Unknown;
  if (Array.isArray(value)) return value.map((item) => unwrap(item, onSecret));
  if (isPlainObject(value)) {
    if (value[SPECIAL_SIG_KEY] === SECRET_SIG) {
      onSecret();
      return unwrap(value.value, onSecret);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(v, onSecret)]));
  }
  return value as PropertyValue;
}

export function fromStruct(struct: Struct | undefined): Unmarshalled {
  const secrets = new Set<string>();
  const values: PropertyMap = {};
  for (const [key, raw] of Object.entries(struct?.toJavaScript() ?? {})) {
    values[key] = unwrap(raw, () => secrets.add(key));
  }
  return { values, secrets };
}

const secret = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });

function wire(value: PropertyValue | undefined): unknown {
  if (isUnknown(value)) return UNKNOWN_SENTINEL;
  if (Array.isArray(value)) return value.map(wire);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wire(v as PropertyValue)]));
  return value;
}

/**
 * Builds the Struct the engine stores. Properties declared secret, and those that arrived
 * secret, are wrapped; so are declared secret subfields of objects.
 */
export function toStruct(values: PropertyMap, fields: Field[], arrivedSecret: Set<string> = new Set()): Struct {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const field = byName.get(key);
    let marshalled = wire(value);
    if (field?.secretSubfields && isPlainObject(marshalled)) {
      marshalled = Object.fromEntries(
        Object.entries(marshalled).map(([k, v]) => [k, field.secretSubfields!.includes(k) && v !== UNKNOWN_SENTINEL ? secret(v) : v]),
      );
    }
    const isSecret = (field?.secret || arrivedSecret.has(key)) && !isUnknown(value);
    out[key] = isSecret ? secret(marshalled) : marshalled;
  }
  return Struct.fromJavaScript(out as any);
}
