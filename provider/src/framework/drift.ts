// Drift, said where the user looks: a Read that finds a resource changed outside Pulumi warns,
// naming the property paths that changed and, from the platform's own `updatedAt`, when: "changed
// outside Pulumi at 2026-11-27 03:12 UTC (replicas); last deployed 2026-11-25 03:10 UTC, 2 days
// before". The engine's refresh diff says what differs, never when, and a drift job's summary
// quotes this line. Drift is what Diff would show after the refresh: an input the program set whose
// live value differs from the recorded one, compared as Diff compares them (an unordered list as a
// set, strings in NFC); a value the API never returns cannot drift.
import { changedPaths } from "./diff";
import { type ObjectSpec, inputFields, sameValue } from "./spec";
import { type PropertyMap, type PropertyValue, containsUnknown } from "./values";

/** The output in which a declaration records when the platform last changed the resource (its `updated_at`). */
export const UPDATED_AT = "updatedAt";

/**
 * The paths (`replicas`, `env.LOG_LEVEL`, `ports[1]`) whose live value differs from the recorded
 * one, among the inputs the program set (`oldInputs`). A secret property, and a list compared as a
 * set, are named whole: neither the keys inside a secret nor a set's positions mean anything to show.
 */
export function driftedPaths(
  spec: ObjectSpec,
  recorded: PropertyMap,
  live: PropertyMap,
  oldInputs: PropertyMap,
  secretPaths: ReadonlySet<string> = new Set(),
): string[] {
  return inputFields(spec).flatMap((field) => {
    const before = recorded[field.name];
    const now = live[field.name];
    if (field.notReturned || oldInputs[field.name] === undefined || before === undefined || before === null) return [];
    if (containsUnknown(before) || containsUnknown(now)) return [];
    if (sameValue(field, before, now)) return [];
    const whole = field.secret || field.unordered || secretPaths.has(field.name);
    return whole ? [field.name] : changedPaths(field.name, before, now as PropertyValue, secretPaths);
  });
}

/** The warning a Read gives when it finds drift, or nothing when it finds none. */
export function driftWarning(
  spec: ObjectSpec,
  recorded: PropertyMap,
  live: PropertyMap,
  oldInputs: PropertyMap,
  secretPaths?: ReadonlySet<string>,
): string | undefined {
  const paths = driftedPaths(spec, recorded, live, oldInputs, secretPaths);
  if (paths.length === 0) return undefined;
  const [deployed, changed] = [instant(recorded[UPDATED_AT]), instant(live[UPDATED_AT])];
  if (changed === undefined || (deployed !== undefined && changed <= deployed))
    return `changed outside Pulumi (${paths.join(", ")}); the platform does not say when`;
  const last = deployed === undefined ? "" : `; last deployed ${utc(deployed)}, ${interval(changed - deployed)} before`;
  return `changed outside Pulumi at ${utc(changed)} (${paths.join(", ")})${last}`;
}

function instant(value: PropertyValue | undefined): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `2026-11-27 03:12 UTC`. */
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** `2 days`, `5 hours`, `1 minute`, `less than a minute`: the largest whole unit. */
function interval(ms: number): string {
  for (const [unit, size] of [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
  ] as const) {
    const count = Math.floor(ms / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? "" : "s"}`;
  }
  return "less than a minute";
}
