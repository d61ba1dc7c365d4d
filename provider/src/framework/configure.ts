// The provider's configuration, resolved one way for CheckConfig and Configure: the provider's
// inputs (an explicit provider, or the default provider's stack config), then the engine's
// `<package>:config:<key>` variables, then the environment variables a key's flags name, then its
// default. Checked like any resource's inputs.
import { checkInputs, missingReason, type CheckResult } from "./check";
import { filledIn, fromEnvironment, type Field, type ObjectSpec } from "./spec";
import { containsUnknown, type PropertyMap, type PropertyValue } from "./values";

/** Provider inputs the engine itself adds; they pass through untouched. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

export type Environment = Record<string, string | undefined>;

/**
 * Stack config reaches a provider as strings, and the SDKs JSON-encode an explicit provider's
 * non-string inputs (`maxRetries: 3` arrives as "3"): decode those.
 */
export function decodeSettings(spec: ObjectSpec, raw: PropertyMap): PropertyMap {
  const settings: PropertyMap = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    const field = spec.fields.find((f) => f.name === key);
    settings[key] = field && typeof value === "string" ? fromEnvironment(field.type, value) : value;
  }
  return settings;
}

/**
 * CheckConfig: the provider's inputs checked, with the engine's own keys passed through. An
 * empty setting is checked as a value (an empty base URL is not a URL), and a required one
 * that nothing else is wrong with is missing, as Configure reads it.
 */
export function checkConfig(
  spec: ObjectSpec,
  packageName: string,
  news: PropertyMap,
  env: Environment,
  secretPaths?: ReadonlySet<string>,
): Pick<CheckResult, "inputs" | "failures"> {
  const engineKeys = Object.fromEntries(Object.entries(news).filter(([key]) => ENGINE_KEYS.has(key)));
  const settings = decodeSettings(spec, withoutEngineKeys(news));
  const { inputs, failures } = checkInputs(spec, settings, { packageName, env, secretPaths });
  for (const field of spec.fields) {
    const empty = field.required && settings[field.name] === "" && filledIn(field, { env }) === undefined;
    if (empty && !failures.some((f) => f.property === field.name))
      failures.push({ property: field.name, reason: missingReason(field, packageName) });
  }
  return { inputs: { ...inputs, ...engineKeys }, failures };
}

export interface ResolvedConfig {
  /** Every setting with a value, from wherever it came. */
  values: PropertyMap;
  /** Required keys with no value anywhere. */
  missing: Field[];
  /** Settings not known yet (a preview of a provider configured from another resource's outputs). */
  unknown: Field[];
  /** Other problems, each naming its key. */
  failures: CheckResult["failures"];
}

/** Configure: every setting from its sources, in order. */
export function resolveConfig(
  spec: ObjectSpec,
  packageName: string,
  args: PropertyMap,
  variables: Map<string, PropertyValue>,
  env: Environment,
): ResolvedConfig {
  const prefix = `${packageName}:config:`;
  const fromVariables: PropertyMap = {};
  for (const [key, value] of variables) if (key.startsWith(prefix)) fromVariables[key.slice(prefix.length)] = value;
  const given = withoutEmpty({
    ...decodeSettings(spec, fromVariables),
    ...decodeSettings(spec, withoutEngineKeys(args)),
  });
  const { inputs, failures } = checkInputs(spec, given, { packageName, env });
  const values: PropertyMap = { ...inputs };
  for (const field of spec.fields) values[field.name] ??= filledIn({ env: field.env, type: field.type }, { env });
  const missing = spec.fields.filter((f) => f.required && values[f.name] === undefined);
  const unknown = spec.fields.filter((f) => containsUnknown(values[f.name]));
  return { values, missing, unknown, failures: failures.filter((f) => !missing.some((m) => m.name === f.property)) };
}

const withoutEngineKeys = (args: PropertyMap) =>
  Object.fromEntries(Object.entries(args).filter(([key]) => !ENGINE_KEYS.has(key)));
/** An empty setting is no setting: the next source (the environment) answers for it. */
const withoutEmpty = (settings: PropertyMap) =>
  Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== ""));
