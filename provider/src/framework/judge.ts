// The rules that refuse an operation before any write: a planned replacement that would destroy
// data (a lifecycle's `dataAtStake`), then the rules that need the live world (its `judge`). They
// are judged at a preview's Create or Update, again just before the real one (where the preview
// had unknowns), and before the delete that starts a delete-before-replace.
import type { Lifecycle, OperationContext, Proposal } from "./declare";
import type { PlannedReplacement } from "./plan";

export interface Judging {
  /** The resource's URN: the one deliberate way through a data-loss refusal names it. */
  urn: string;
  /** The replacement this run's Diff planned, when the proposal is its create (or its delete). */
  replacing?: PlannedReplacement;
  /** Runs a call against the API, or nothing when the API cannot be reached yet (a setting not known). */
  live?: <T>(call: (ctx: OperationContext<any>) => Promise<T>) => Promise<T>;
}

/** Why the proposal is refused, or nothing. */
export async function judge(
  lifecycle: Lifecycle<any, any>,
  proposal: Proposal<any, any>,
  { urn, replacing, live }: Judging,
): Promise<string | undefined> {
  if (replacing && lifecycle.dataAtStake) return dataLoss(lifecycle.dataAtStake(replacing.olds), replacing, urn);
  const rule = lifecycle.judge;
  if (!rule || !live) return undefined;
  return live((ctx) => rule(ctx, proposal));
}

/** Why a replacement that would destroy data was refused, and the one deliberate way through. */
export function dataLoss(what: string, replacing: PlannedReplacement, urn: string): string {
  const changes = replacing.replaces
    .map((key) => `${key} from ${JSON.stringify(replacing.olds[key])} to ${JSON.stringify(replacing.news[key])}`)
    .join(", ");
  return `changing ${changes} replaces ${what}: the replacement would delete it, so nothing was sent. To keep it, set ${replacing.replaces.join(" and ")} back. To replace it deliberately, run \`pulumi up --replace ${urn}\` (with the resource option deleteBeforeReplace: true if the new one keeps the name); \`pulumi destroy\`, or deleting the resource from the program, deletes it as before.`;
}
