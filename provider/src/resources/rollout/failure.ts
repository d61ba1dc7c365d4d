// What a failed step of a rollout leaves in state: one pure function, `recordingOf`, from the step, the progress
// (what the platform had after the steps before it) and the error to what state records and whether the engine is to
// refresh the app before its next update. run.ts reads the app again and records it (`partialFailureAsItIs`).
//
// Rules:
//  - After a write, or a request that may have acted, the app exists as the platform has it: a partial failure that
//    records the app read again after the failure, never as the program asked, so that the next `pulumi up` diffs
//    against the truth and finishes the work. If that read fails too, what the platform last showed.
//  - A create's app always exists (its POST was answered): every failure after it is a partial failure.
//  - Nothing written and the failure certain (a read, a refused request): the error as it is, nothing recorded.
//  - Links made whose variables no rollout has carried into the app (`owed`) stay out of `links`, so that the next
//    `pulumi up` sees them missing and restarts the app. No refresh first then: a Read would find them made.
//  - A wait that ended early (a timeout, a Cancel) records the app as last seen; an app that failed to start, as read.
import { isApiError, outcomeUnknown } from "../../api/errors";
import { InputError, PartialFailure } from "../../framework/declare";
import type { ServiceRecord } from "../services";
import { withAdded, type App, type Program } from "./app";
import type { Step } from "./plan";
import type { Progress } from "./progress";

export type Recording =
  /** Nothing was written and the failure is certain: the error as it is, and no state. */
  | { record: "nothing"; error: unknown }
  /**
   * Read the app again and record it as it is (`owed` links left out), else as `known`; `refreshFirst`: the engine
   * refreshes it before the next update.
   */
  | { record: "as it is"; message: string; known: App; owed: readonly string[]; refreshFirst: boolean }
  /** The app failed to start: record it as read (`hint` says what the user may do), and refresh it first. */
  | { record: "failed to start"; app: ServiceRecord; hint: string }
  /** A partial failure that already records the app as it is (a roll back's): as it is. */
  | { record: "as recorded"; failure: PartialFailure };

/** The await found the app `failed`: what a planned roll back answers, and any other plan records. */
export class AppFailed extends Error {
  constructor(readonly app: ServiceRecord) {
    super(`container ${app.name} failed to start`);
  }
}

/** A roll back ended (whether the release it sent back runs or not): the update fails, saying so, with the app. */
export class RolledBack extends Error {
  constructor(
    message: string,
    readonly seen: App,
  ) {
    super(message);
  }
}

/** What state records after `step` failed with `err`, given the progress before it. */
export function recordingOf(
  operation: "create" | "update",
  step: Step,
  progress: Progress,
  err: unknown,
  program: Program,
): Recording {
  if (err instanceof AppFailed) return { record: "failed to start", app: err.app, hint: linksHint(program) };
  if (err instanceof RolledBack)
    return { record: "as it is", message: err.message, known: err.seen, owed: [], refreshFirst: true };
  if (step.step === "roll back" && err instanceof PartialFailure) return { record: "as recorded", failure: err };
  if (step.step === "await" || step.step === "roll back") {
    // The wait ended early (settled's partial failure, with the app as last seen); else the error as it is.
    if (!(err instanceof PartialFailure)) return { record: "nothing", error: err };
    return { record: "as it is", message: err.message, known: err.outputs as App, owed: [], refreshFirst: true };
  }
  const why = (explained(err, program.name) as Error).message;
  if (operation === "create") {
    const message = `container "${program.name}" was created, but setting it up failed: ${why}`;
    return {
      record: "as it is",
      message,
      known: withAdded(progress.known, progress.links),
      owed: [],
      refreshFirst: true,
    };
  }
  if (!progress.wrote && !outcomeUnknown(err)) return { record: "nothing", error: explained(err, program.name) };
  const owed = progress.owed;
  const awaiting = owed.filter((id) => progress.links.some((link) => link.providerServiceId === id));
  const known =
    owed.length === 0
      ? withAdded(progress.known, progress.links)
      : { ...progress.known, ...(awaiting.length > 0 ? { linksAwaitingRestart: awaiting } : {}) };
  const message = `container "${program.name}" was updated only in part: ${why}`;
  // A link left out (made, not yet carried into the app) is what a Read cannot tell: no refresh first.
  return { record: "as it is", message, known, owed, refreshFirst: owed.length === 0 };
}

/** AUTOSCALING_OWNS_REPLICAS said in terms of the program; other errors pass through. */
export function explained(err: unknown, appName: string | undefined): unknown {
  if (!isApiError(err, "AUTOSCALING_OWNS_REPLICAS")) return err;
  return new InputError(
    `replicas cannot be set on container "${appName}": autoscaling controls its instance count. Remove \`replicas\` from the program (or add it to the resource's ignoreChanges), or turn autoscaling off. (${(err as Error).message})`,
  );
}

/**
 * What a failed start adds when the app has no links: most apps that fail their first start lack a database's
 * variables.
 */
const linksHint = (program: Program) =>
  (program.links ?? []).length > 0
    ? ""
    : "If the app needs a database's variables to start (DATABASE_URL, …), list the database in `links` (`links: [db.id]`), and the next `pulumi up` links it and restarts the app.";
