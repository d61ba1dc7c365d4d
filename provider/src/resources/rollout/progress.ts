// What the platform has, as a rollout goes: one value, which each step carried out moves on (run.ts), and which a
// failed step is recorded from (failure.ts). Pure.
import type { LinkRecord } from "../links";
import type { ServiceRecord } from "../services";
import { lastSeen, withLinks, type App, type Program } from "./app";
import { owedBy, rollsOut, type ContainerSettings, type Step } from "./plan";

export interface Progress {
  /** The app as the platform last showed it (state's outputs, or a create's answer, then each answer and action). */
  known: App;
  /** The links this rollout made or adopted, once its link step is done: not yet in `known`. */
  links: readonly LinkRecord[];
  /** Ids of the services linked whose variables the app has not read yet: no rollout has carried them since. */
  owed: readonly string[];
  /** Whether the link step made a link (rather than adopting one), and whether the platform restarted the app. */
  made: boolean;
  platformRestarted: boolean;
  /** Whether anything has been written to the platform. */
  wrote: boolean;
  /** The last answer about the app while no action (stop, start, restart) moved it since: the await's first read. */
  answer?: ServiceRecord;
}

/** Before an update's steps: the app as state recorded it, the links the plan adds owed until a rollout. */
export const beforeUpdate = (olds: App, steps: readonly Step[]): Progress => ({
  known: olds,
  links: [],
  owed: owedBy(steps),
  made: false,
  platformRestarted: false,
  wrote: false,
});

/** After a create's POST: the app as its answer shows it, made (so every later failure is a partial one). */
export const afterCreate = (created: ServiceRecord, program: Program, steps: readonly Step[]): Progress => ({
  known: withLinks(created, [], program),
  links: [],
  owed: owedBy(steps),
  made: false,
  platformRestarted: false,
  wrote: true,
  answer: created,
});

/** The link step done: its links, and whether the platform restarted the app for them (then nothing is owed). */
export const linked = (
  progress: Progress,
  result: { links: readonly LinkRecord[]; made: boolean; platformRestarted: boolean },
): Progress => ({
  ...progress,
  links: result.links,
  made: result.made,
  platformRestarted: result.platformRestarted,
  wrote: progress.wrote || result.made,
  owed: result.platformRestarted ? [] : progress.owed,
});

/** The PATCH answered: the app as the answer shows it; a new release rolls out, which carries every link. */
export const patched = (
  progress: Progress,
  settings: ContainerSettings,
  answer: ServiceRecord,
  program: Program,
): Progress => ({
  ...progress,
  known: lastSeen(progress.known, answer, program, progress.links),
  answer,
  wrote: true,
  owed: rollsOut(settings) ? [] : progress.owed,
});

/**
 * A stop, start or restart sent (or, for links, made by the platform itself): the app stopped, or rolling out, which
 * carries every link; the last answer no longer says how it stands.
 */
export const acted = (progress: Progress, action: "stop" | "start" | "restart"): Progress => ({
  ...progress,
  known: {
    ...progress.known,
    ...(action === "restart" ? {} : { running: action === "start" }),
    status: action === "stop" ? "stopped" : "provisioning",
  },
  answer: undefined,
  wrote: true,
  owed: [],
});
