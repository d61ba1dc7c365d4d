// An app's rollout, carried out: the steps plan.ts gives, one at a time, each moving the progress on (progress.ts)
// with what the platform then has. A step that fails is recorded as failure.ts says: the app read again after the
// failure (`partialFailureAsItIs`), never as the program asked.
import { PartialFailure } from "../../framework/declare";
import type { PropertyMap } from "../../framework/values";
import type { Context } from "../common";
import { awaitRollout, failedRollout, linkApp, restartForLinks } from "./rollouts";
import { services, type ServiceRecord } from "../services";
import {
  apps,
  lastSeen,
  outputsOf,
  withAdded,
  withLinkedVariables,
  type App,
  type KeepIgnored,
  type Program,
} from "./app";
import { AppFailed, RolledBack, recordingOf, type Recording } from "./failure";
import { containerSettings, type Step } from "./plan";
import { acted, linked, patched, type Progress } from "./progress";

/** The app a rollout acts on, and what its program asks. */
export interface Target {
  operation: "create" | "update";
  project: string;
  id: string;
  program: Program;
  /** An update's env under `ignoreChanges`: the ignored keys as the platform has them. */
  keepIgnored?: KeepIgnored;
}

/**
 * Carries out `steps` from `progress`: the app's outputs once it has settled, or the partial failure (or the plain
 * error) that the step that failed comes to.
 */
export async function rollOut(ctx: Context, target: Target, steps: readonly Step[], start: Progress): Promise<App> {
  let progress = start;
  let settled: ServiceRecord | undefined;
  for (const [i, step] of steps.entries()) {
    try {
      if (step.step === "await") {
        settled = await awaitStart(ctx, target, withAdded(progress.known, progress.links), progress.answer);
        if (settled.status === "failed" && steps[i + 1]?.step !== "roll back") throw new AppFailed(settled);
      } else if (step.step === "roll back") {
        if (settled?.status === "failed")
          await rolledBack(ctx, target, settled, step.release, withAdded(progress.known, progress.links));
      } else progress = await carriedOut(ctx, target, step, progress);
    } catch (err) {
      throw await recorded(ctx, target, recordingOf(target.operation, step, progress, err, target.program));
    }
  }
  if (!settled) throw new Error("a rollout's plan ends with an await");
  return outputsOf(ctx, target.project, settled, target.program);
}

/** One step other than the await and the roll back: sent, and the progress it makes. */
async function carriedOut(ctx: Context, target: Target, step: Step, progress: Progress): Promise<Progress> {
  const { project, id, program } = target;
  const endpoints = ctx.client.of(services);
  switch (step.step) {
    case "link": {
      // A create links the app it has just stopped; an update, the app as it stands, which tells whether the platform
      // restarts it for the link.
      const before = target.operation === "create" ? { id, status: "stopped" } : await apps.read(ctx, project, id);
      if (!before)
        throw new Error(`container ${id} is gone: run \`pulumi refresh\`, then \`pulumi up\` creates it again`);
      const n = step.services.length;
      ctx.progress(
        target.operation === "create"
          ? `linking container ${program.name} to ${n === 1 ? "its service" : `${n} services`}`
          : `linking the app to ${n === 1 ? "a new service" : `${n} new services`}`,
      );
      return linked(progress, await linkApp(ctx, project, before, step.services));
    }
    case "patch": {
      const settings = { ...step.settings };
      if (step.keepLinked && settings.env)
        settings.env = await withLinkedVariables(ctx, project, id, settings.env, target.keepIgnored);
      return patched(
        progress,
        settings,
        await endpoints.update(project, id, settings, { signal: ctx.signal }),
        program,
      );
    }
    case "stop":
    case "start":
      await endpoints.act(project, id, step.step, {}, { signal: ctx.signal });
      return acted(progress, step.step);
    case "restart":
      if (step.for === "restartTrigger") await endpoints.act(project, id, "restart", {}, { signal: ctx.signal });
      else if (step.unlessAdopted && !progress.made) return progress;
      else await restartForLinks(ctx, project, id, progress.platformRestarted);
      return acted(progress, "restart");
    default:
      throw new Error(`${step.step} is not a step carriedOut sends`);
  }
}

/** Waits while the app is `provisioning` (a rollout under way), and returns it as it settled (`failed` included). */
function awaitStart(ctx: Context, target: Target, known: App, answer?: ServiceRecord): Promise<ServiceRecord> {
  const { project, id, program } = target;
  return awaitRollout(ctx, {
    project,
    app: { id, name: program.name ?? id },
    until: "start",
    recordAs: { id, outputs: (last) => lastSeen(known, last, program) as PropertyMap },
    initial: answer,
  });
}

/**
 * rollbackOnFailure: the new release failed, so the last one that ran goes back (one PATCH, retried as any PATCH,
 * awaited, never again). The update still fails, with the new release's log tail and what the roll back did; state
 * records what the platform then has, so the next preview shows the change again.
 */
async function rolledBack(
  ctx: Context,
  target: Target,
  failed: ServiceRecord,
  release: App,
  known: App,
): Promise<never> {
  const { project, id, program } = target;
  const failure = await failedRollout(ctx, project, failed, "failed to start", "");
  let seen = lastSeen(known, failed, program);
  let outcome: string;
  const back: Target = { ...target, program: { ...program, ...release } };
  try {
    const settings = containerSettings(program, release);
    if (settings.env) settings.env = await withLinkedVariables(ctx, project, id, settings.env);
    ctx.progress(`rolling container ${failed.name} back to image ${release.image}`);
    seen = lastSeen(seen, await ctx.client.of(services).update(project, id, settings, { signal: ctx.signal }), program);
    let settledBack: ServiceRecord;
    try {
      settledBack = await awaitStart(ctx, back, seen);
    } catch (err) {
      throw await recorded(ctx, back, recordingOf("update", { step: "await" }, IDLE, err, back.program));
    }
    outcome =
      settledBack.status === "failed"
        ? `Rolling it back to image ${release.image} (rollbackOnFailure) failed too: ${await failedRollout(ctx, project, settledBack, "failed to start the release it was rolled back to")}`
        : `It was rolled back to image ${release.image} (rollbackOnFailure), which runs again; state records it, so the next preview shows the change again.`;
  } catch (err) {
    if (err instanceof PartialFailure)
      throw new PartialFailure(
        `${failure}\nRolling it back to image ${release.image} did not finish: ${err.message}`,
        id,
        err.outputs,
      );
    outcome = `Rolling it back to image ${release.image} (rollbackOnFailure) failed: ${(err as Error).message}`;
  }
  throw new RolledBack(`${failure}\n${outcome}`, seen);
}

/** The progress an await's failure is recorded from: the await itself records the app as it last saw it. */
const IDLE: Progress = { known: {}, links: [], owed: [], made: false, platformRestarted: false, wrote: true };

/** What a failed step comes to, as `recording` says: an error to throw, the partial failure most of all. */
async function recorded(ctx: Context, target: Target, recording: Recording): Promise<unknown> {
  const { project, id, program } = target;
  switch (recording.record) {
    case "nothing":
      return recording.error;
    case "as recorded":
      return recording.failure;
    case "failed to start": {
      const outputs = await outputsOf(ctx, project, recording.app, program);
      const message = await failedRollout(ctx, project, recording.app, "failed to start", recording.hint);
      return new PartialFailure(message, id, outputs as PropertyMap);
    }
    case "as it is":
      return partialFailureAsItIs(ctx, target, recording);
  }
}

/**
 * The PartialFailure that records the app as the platform has it, read after the failure, so that the next
 * `pulumi up` diffs against the truth and finishes the work (a `running` or `links` that differs). If even that read
 * fails, or the operation was cancelled, `known`: what the platform last showed, and the message says so. The `owed`
 * links stay out of `links` (a stopped app carries every link into its next start).
 */
async function partialFailureAsItIs(
  ctx: Context,
  { project, id, program }: Target,
  { message, known, owed, refreshFirst }: Extract<Recording, { record: "as it is" }>,
): Promise<PartialFailure> {
  let outputs: App | undefined;
  let note = "";
  if (ctx.signal.aborted) {
    note = "\nThe operation ended before the app could be read again: state records it as the platform last showed it.";
  } else {
    try {
      const live = await apps.read(ctx, project, id);
      if (live) outputs = await outputsOf(ctx, project, live, program, live.status === "stopped" ? [] : owed);
      else
        note = `\nThe app no longer reads in project ${project}: state records it as the platform last showed it, and \`pulumi refresh\` removes it.`;
    } catch (err) {
      note = `\nReading the app after the failure failed too (${(err as Error).message}): state records it as the platform last showed it.`;
    }
  }
  return new PartialFailure(`${message}${note}`, id, (outputs ?? known) as PropertyMap, refreshFirst);
}
