// The run's memory of what it planned for each resource, by URN. The engine calls Check, then
// Diff, then the operation that Diff planned (step_generator.go); a Diff with no Check before it
// is a refresh's, and plans nothing. A replacement is the engine's only after a Diff said so: a
// targeted one (`pulumi up --replace`) never asks Diff.
import type { PropertyMap } from "./values";

/** A replacement this run's Diff planned: the resource as it is, what replaces it, and which inputs force it. */
export interface PlannedReplacement {
  olds: PropertyMap;
  news: PropertyMap;
  replaces: string[];
}

/** What a Check found out that the Diff after it needs. */
interface Checked {
  /** The inputs Check named (the program left them out): a replacement gives them fresh names. */
  autonamed: readonly string[];
}

export class RunPlan {
  private readonly checks = new Map<string, Checked>();
  private readonly replacements = new Map<string, PlannedReplacement>();

  checked(urn: string, checked: Checked): void {
    this.checks.set(urn, checked);
  }

  /** A Diff: what the Check before it found, or nothing for a Diff that plans nothing (a refresh's). */
  diffed(urn: string): Checked | undefined {
    const checked = this.checks.get(urn);
    this.checks.delete(urn);
    return checked;
  }

  /** What a planning Diff decided: a replacement, or none (which forgets an earlier one). */
  planned(urn: string, replacement: PlannedReplacement | undefined): void {
    if (replacement) this.replacements.set(urn, replacement);
    else this.replacements.delete(urn);
  }

  replacementOf(urn: string): PlannedReplacement | undefined {
    return this.replacements.get(urn);
  }

  /** The operation a Check planned has begun (a Create, an Update): a Diff after it (a refresh's) plans nothing. */
  begun(urn: string): void {
    this.checks.delete(urn);
  }

  /** The replacement is made: the old one's delete (create before delete) is no longer part of a plan to judge. */
  created(urn: string): void {
    this.replacements.delete(urn);
  }
}
