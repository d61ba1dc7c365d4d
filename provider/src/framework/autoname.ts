// Autonaming, Pulumi's convention: a resource whose program leaves its name out is named from its
// logical name (`new hosting.Postgres("db")`) plus a random suffix, or as the project's
// `pulumi:autonaming` configuration says (the engine sends its proposal with every Check). The
// suffix is drawn from the engine's `randomSeed`, so the same seed always gives the same name (the
// engine replays a saved plan's seed: `pulumi preview --save-plan` then `pulumi up --plan`).
import { createHash, randomBytes } from "node:crypto";
import type { NameRule } from "./spec";

/** What the engine asks (CheckRequest.autonaming), from `pulumi:autonaming` in the project's configuration. */
export interface AutonamingOptions {
  /** The name the configured pattern gives this resource (`${name}-${stack}` → `web-pr-12`). */
  proposedName: string;
  /** `propose`: use it, fitted to the API's rules; `enforce`: use it exactly or fail; `disable`: a name must be set. */
  mode: "propose" | "enforce" | "disable";
}

/** What a Check knows that a name can be made from. */
export interface NamingRequest {
  /** The resource's name in the program. */
  logicalName: string;
  /** CheckRequest.randomSeed: 32 bytes the engine draws per resource registration (empty from very old engines). */
  randomSeed: Uint8Array;
  autonaming?: AutonamingOptions;
}

export type Naming = { name: string } | { failure: string };

/** Hex characters after the logical name: 16^7 names for each, as Pulumi's own providers use (aws-native). */
export const SUFFIX_LENGTH = 7;

/** The suffix a seed gives: the first hex characters of its SHA-256 (any seed, the same suffix each time). */
export function suffixOf(randomSeed: Uint8Array): string {
  const seed = randomSeed.length > 0 ? randomSeed : randomBytes(32);
  return createHash("sha256").update(seed).digest("hex").slice(0, SUFFIX_LENGTH);
}

/** The name a resource gets when its program sets none, or why it cannot have one. */
export function autoname(property: string, rule: NameRule, request: NamingRequest): Naming {
  const { autonaming } = request;
  const pattern = "the project's pulumi:autonaming";
  switch (autonaming?.mode) {
    case "disable":
      return {
        failure: `${property} is required: ${pattern} configuration disables autonaming for this resource, so set ${property} in the program`,
      };
    case "enforce": {
      const broken = rule.validate(autonaming.proposedName, property);
      if (!broken) return { name: autonaming.proposedName };
      return {
        failure: `${pattern} configuration enforces the name "${autonaming.proposedName}", which breaks the API's name rule (${broken}); change the pattern, or set ${property} in the program`,
      };
    }
    case "propose": {
      const fitted = rule.fit(autonaming.proposedName, rule.maxLength);
      if (fitted) return { name: fitted };
      return {
        failure: `${pattern} configuration proposes the name "${autonaming.proposedName}", from which no valid name can be made (${rule.validate(autonaming.proposedName, property)}); change the pattern, or set ${property} in the program`,
      };
    }
    default: {
      const stem = rule.fit(request.logicalName, rule.maxLength - SUFFIX_LENGTH - 1);
      if (stem) return { name: `${stem}-${suffixOf(request.randomSeed)}` };
      return {
        failure: `${property} is required here: no valid name can be made from the resource's name "${request.logicalName}" (${rule.validate(request.logicalName, property)}); set ${property} in the program`,
      };
    }
  }
}
