import type { BillingState, Switches } from "./types";

const BILLING: readonly BillingState[] = ["ok", "insufficient_balance", "not_initialized", "suspended"];

type Check = (value: unknown) => boolean;

const isNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);

const CHECKS: Record<keyof Switches, { ok: Check; expected: string }> = {
  volumesEnabled: { ok: (v) => typeof v === "boolean", expected: "a boolean" },
  volumeProvisioningMs: { ok: isNumber, expected: "a number (negative = never)" },
  serviceStartMs: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0" },
  billing: { ok: (v) => BILLING.includes(v as BillingState), expected: `one of ${BILLING.join(", ")}` },
  capacityGb: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0" },
  errorShape: { ok: (v) => v === "code" || v === "error", expected: "code or error" },
  rateLimitPerSecond: { ok: (v) => isNumber(v) && (v as number) >= 0, expected: "a number >= 0 (0 = unlimited)" },
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
    if (!check.ok(value)) throw new Error(`switches.${key}: must be ${check.expected}`);
  }
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<Switches>;
}
