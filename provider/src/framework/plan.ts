// The run's memory of what it planned for each resource, by URN. The engine calls Check, then
// Diff, then the operation that Diff planned (step_generator.go); a Diff with no Check before it
// is a refresh's, and plans nothing. The engine also replaces without asking Diff: a
// `replacementTrigger`, `replaceWith` and `deletedWith` send a Check with the old inputs, a second
// Check without them, then the Create; a targeted replacement (`pulumi up --replace`, `pulumi state
// taint`) sends one Check without old inputs, so nothing tells its Create from a new resource's.
import { deepEqual, type PropertyMap } from "./values";

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
  /** The old inputs the engine sent with the Check (a resource in its state). */
  olds?: PropertyMap;
}

/** A resource of a URN as this run last knew it live: what its planning Diff was given, or what a Create made. */
export interface Known {
  id: string;
  outputs: PropertyMap;
}

export class RunPlan {
  private readonly checks = new Map<string, Checked>();
  private readonly replacements = new Map<string, PlannedReplacement>();
  private readonly known = new Map<string, Known>();

  checked(urn: string, checked: Checked): void {
    // The second Check of a replacement the engine made without a Diff sends no old inputs: the first one's stay.
    const olds = checked.olds ?? this.checks.get(urn)?.olds;
    this.checks.set(urn, olds ? { ...checked, olds } : checked);
  }

  /** A Diff: what the Check before it found, or nothing for a Diff that plans nothing (a refresh's). */
  diffed(urn: string): Checked | undefined {
    const checked = this.checks.get(urn);
    this.checks.delete(urn);
    return checked;
  }

  /**
   * What a planning Diff decided about the resource `live` (its id and outputs): a replacement, or none (which
   * forgets an earlier one).
   */
  planned(urn: string, replacement: PlannedReplacement | undefined, live?: { id: string; outputs: PropertyMap }): void {
    if (replacement) this.replacements.set(urn, replacement);
    else this.replacements.delete(urn);
    if (live) this.known.set(urn, live);
  }

  replacementOf(urn: string): PlannedReplacement | undefined {
    return this.replacements.get(urn);
  }

  /**
   * The old inputs of the resource a Create replaces when the engine replaced it without asking Diff
   * (`replacementTrigger`, `replaceWith`, `deletedWith`): a Check with them came, and no Diff after it.
   */
  replacedUnasked(urn: string): PropertyMap | undefined {
    return this.checks.get(urn)?.olds;
  }

  /** The operation a Check planned has begun (a Create, an Update): a Diff after it (a refresh's) plans nothing. */
  begun(urn: string): void {
    this.checks.delete(urn);
  }

  /**
   * A Create made the resource (or left it as a partial failure, which the engine records): the old one's delete
   * (create before delete) is no longer part of a plan to judge, and is the delete of what this one replaced.
   */
  created(urn: string, made: { id: string; outputs: PropertyMap }): void {
    this.replacements.delete(urn);
    this.known.set(urn, { id: made.id, outputs: made.outputs });
  }

  /**
   * The resource of this URN that outlives a Delete of `outputs`: the one this run last knew, when it is another.
   * That is the delete of the resource a Create of this run replaced (the engine deletes the old one after it creates
   * its replacement), or of an old one whose delete an earlier run left pending beside the one this run's Diff was
   * given. Undefined when the Delete is of the one this run knows, or of one it knows nothing of.
   */
  successorOf(urn: string, outputs: PropertyMap): Known | undefined {
    const known = this.known.get(urn);
    return known && !deepEqual(known.outputs, outputs) ? known : undefined;
  }
}
