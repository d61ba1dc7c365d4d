import type { BillingState, Switches } from "./types";

const BILLING: readonly BillingState[] = ["ok", "insufficient_balance", "not_initialized", "suspended"];

type Check = (value: unknown) => boolean;

const isNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);

/** What a tag may hold (Docker's rule): it cannot carry the ':' or '/' that would make it part of a name. */
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

const isTag = (value: unknown): boolean => typeof value === "string" && TAG_PATTERN.test(value);

const VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isTagList: Check = (value) => Array.isArray(value) && value.every(isTag);

/** A whole image reference is the likely slip here; naming the entry shows it. */
function badTag(value: unknown): string {
  const bad = Array.isArray(value) ? value.find((tag) => !isTag(tag)) : undefined;
  return bad === undefined ? "" : `; not a tag: ${JSON.stringify(bad)}`;
}

const CHECKS: Record<keyof Switches, { ok: Check; expected: string; detail?: (value: unknown) => string }> = {
  volumesEnabled: { ok: (v) => typeof v === "boolean", expected: "a boolean" },
  volumeProvisioningMs: { ok: isNumber, expected: "a number (negative = never)" },
  serviceStartMs: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0" },
  crashingImageTags: {
    ok: isTagList,
    detail: badTag,
    expected: `a list of image tags such as ["2.0.0-bad"] (the text after the image's last ':'; letters, digits, '_', '.', '-')`,
  },
  linkEnvInConsumer: { ok: (v) => typeof v === "boolean", expected: "a boolean" },
  appsRequireEnv: {
    ok: (v) => Array.isArray(v) && v.every((name) => typeof name === "string" && VARIABLE_PATTERN.test(name)),
    expected: 'a list of environment variable names such as ["DATABASE_URL"]',
  },
  linkRestartsConsumer: { ok: (v) => typeof v === "boolean", expected: "a boolean" },
  normalizesUnicode: { ok: (v) => typeof v === "boolean", expected: "a boolean" },
  billing: { ok: (v) => BILLING.includes(v as BillingState), expected: `one of ${BILLING.join(", ")}` },
  capacityGb: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0" },
  errorShape: { ok: (v) => v === "code" || v === "error", expected: "code or error" },
  rateLimitPerSecond: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0 (0 = unlimited)" },
  maxRequestBodyBytes: {
    ok: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
    expected: "an integer >= 1 (bytes)",
  },
};

/** Check a partial set of switches (from options, flags or the admin API); throws naming the bad key. */
export function checkSwitches(patch: unknown): Partial<Switches> {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw new Error("switches: must be an object");
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const check = CHECKS[key as keyof Switches];
    if (!check) throw new Error(`switches.${key}: unknown switch`);
    if (!check.ok(value)) throw new Error(`switches.${key}: must be ${check.expected}${check.detail?.(value) ?? ""}`);
  }
  // A copy, so that a caller who later changes its list does not change the switches.
  return structuredClone(
    Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
  ) as Partial<Switches>;
}
