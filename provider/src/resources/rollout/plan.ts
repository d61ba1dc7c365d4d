// An app's rollout, planned: from what state recorded (olds) and what the program asks (news), or from a create's
// answer, the ordered steps that take the app there. Pure, like api/retry.ts `nextStep`: run.ts carries the steps
// out one at a time, and failure.ts says what a failed one leaves in state.
//
// Rules:
//  - Links first, so that whatever rollout follows (a PATCH's, a start, a restart) carries their variables. A create
//    stops the app before it links it, then starts it: its first start with the links' variables is the one awaited.
//  - A PATCH of image, env or httpPort rolls the app out (a release); of anything else, it does not.
//  - `running` changed: a stop or a start. Else, a changed restartTrigger on an app that runs: a restart.
//  - Links added to an app that runs and no rollout above: a restart, so that it reads their variables. A state from
//    before `links` existed adopts the links it finds made without one (a ServiceLink made them, and restarted it).
//  - Then the app is awaited until it leaves `provisioning`; with rollbackOnFailure, a new release that fails to start
//    is rolled back to the one that ran.
import { droppedItems } from "../../framework/spec";
import { deepEqual } from "../../framework/values";
import type { App, Program } from "./app";

const SETTINGS = [
  "image",
  "env",
  "replicas",
  "cpuMilli",
  "memoryMb",
  "storageGb",
  "public",
  "displayName",
  "httpPort",
] as const;

/**
 * PATCH /containers/{id} (DESIGN decision: any subset of these): each the record's own field but
 * the port, which the request calls http_port. Every field is absolute, never a delta, so a PATCH
 * sent twice leaves what it left once.
 */
export type ContainerSettings = Partial<Pick<App, (typeof SETTINGS)[number]>>;

/**
 * A change to any of these rolls the app out again: together they are a release, which rollbackOnFailure sends back.
 */
const ROLLS_OUT = ["image", "env", "httpPort"] as const satisfies ReadonlyArray<keyof ContainerSettings>;

/** The settings that move `from` to `to`: only what the program set and what differs. */
export function containerSettings(from: App, to: App): ContainerSettings {
  const changed = SETTINGS.filter((key) => to[key] !== undefined && !deepEqual(to[key], from[key]));
  return Object.fromEntries(changed.map((key) => [key, to[key]])) as ContainerSettings;
}

/** Whether these settings make a new release, which the app rolls out. */
export const rollsOut = (settings: ContainerSettings) => ROLLS_OUT.some((key) => key in settings);

/** The release an app runs (image, env, port): what rollbackOnFailure sends back. */
export const releaseOf = (app: App): App => Object.fromEntries(ROLLS_OUT.map((key) => [key, app[key]]));

export type Step =
  /** Link the app to each service, adopting an identical link already there. */
  | { step: "link"; services: readonly string[] }
  /** PATCH what changed; `keepLinked`: env keeps the variables links put there (an app that may have links). */
  | { step: "patch"; settings: ContainerSettings; keepLinked: boolean }
  | { step: "stop" }
  | { step: "start" }
  | { step: "restart"; for: "restartTrigger" }
  /**
   * Restart so that the app reads the variables of the links just added, unless the platform restarted it for them.
   * `unlessAdopted`: and none if every link was found made already (a state from before `links`).
   */
  | { step: "restart"; for: "links"; unlessAdopted: boolean }
  /** Wait while the app is `provisioning`; the last answer stands for the first read while no action moved it since. */
  | { step: "await" }
  /** Only when the await finds the new release failed: send `release` back, and await it (once, never again). */
  | { step: "roll back"; release: App };

/**
 * A create, from its answer (the app made with its name, image and port): the rest of the settings, and with links a
 * stop, the links and a start, so that the app starts once, with their variables (an app that needs DATABASE_URL
 * fails any other start).
 */
export function createSteps(program: Program & { running: boolean }, created: App): Step[] {
  const settings = containerSettings(created, program);
  const links = program.links ?? [];
  return [
    ...(Object.keys(settings).length > 0 ? [{ step: "patch" as const, settings, keepLinked: false }] : []),
    ...(links.length > 0 || !program.running ? [{ step: "stop" as const }] : []),
    ...(links.length > 0 ? [{ step: "link" as const, services: links }] : []),
    ...(links.length > 0 && program.running ? [{ step: "start" as const }] : []),
    { step: "await" },
  ];
}

/** An update, from the state's outputs (`olds`) and old inputs to the program's checked inputs (`news`). */
export function updateSteps(olds: App, news: Program, oldInputs: { restartTrigger?: string }): Step[] {
  const added = droppedItems(news.links ?? [], olds.links ?? []) as string[];
  const settings = containerSettings(olds, news);
  const newRelease = rollsOut(settings);
  const steps: Step[] = [];
  if (added.length > 0) steps.push({ step: "link", services: added });
  if (Object.keys(settings).length > 0) steps.push({ step: "patch", settings, keepLinked: true });
  let rollout = newRelease;
  if (news.running !== olds.running) {
    steps.push({ step: news.running ? "start" : "stop" });
    rollout ||= news.running === true;
  } else if (news.running && news.restartTrigger !== oldInputs.restartTrigger && news.restartTrigger !== undefined) {
    steps.push({ step: "restart", for: "restartTrigger" });
    rollout = true;
  }
  if (added.length > 0 && news.running && !rollout)
    steps.push({ step: "restart", for: "links", unlessAdopted: olds.links === undefined });
  steps.push({ step: "await" });
  if (news.rollbackOnFailure && newRelease && olds.status === "running")
    steps.push({ step: "roll back", release: releaseOf(olds) });
  return steps;
}

/** Ids the plan links whose variables the app will not have read until a rollout carries them (an update's). */
export const owedBy = (steps: readonly Step[]): readonly string[] => {
  const link = steps.findIndex((s) => s.step === "link");
  return link >= 0 && !steps.slice(0, link).some((s) => s.step === "stop")
    ? (steps[link] as { services: readonly string[] }).services
    : [];
};
