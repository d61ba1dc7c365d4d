// An app's rollouts, whoever starts them: a Container's create or update, a ServiceLink to an app
// that runs, a volume attached or detached. Each is awaited until the app leaves `provisioning`;
// an app that ends `failed` fails the operation with the last lines of its logs. A link restarts
// its consumer where the platform does not, so that the app reads the variables it injects.
import { PartialFailure } from "../../framework/declare";
import type { PropertyMap } from "../../framework/values";
import { listedIn, settled, type Context } from "../common";
import { CONTAINER_LINK_TYPE, linkServices, type LinkRecord } from "../links";
import { services, type ServiceRecord } from "../services";

/** How many lines of an app's logs a failed rollout quotes, and at most how many bytes. */
const LOG_TAIL_LINES = 20;
const LOG_TAIL_BYTES = 4096;

/** The last lines of the app's logs, bounded and scrubbed of every secret the provider knows. */
export async function logTail(ctx: Context, project: string, id: string): Promise<string> {
  try {
    const lines = (await ctx.client.of(services).text(project, id, "logs", { signal: ctx.signal }))
      .trimEnd()
      .split("\n")
      .slice(-LOG_TAIL_LINES);
    let tail = lines.join("\n");
    if (tail.length > LOG_TAIL_BYTES) tail = `…${tail.slice(-LOG_TAIL_BYTES)}`;
    return ctx.redact(
      tail
        .split("\n")
        .map((line) => `    ${line}`)
        .join("\n"),
    );
  } catch (err) {
    return `    (its logs could not be read: ${(err as Error).message})`;
  }
}

export interface RolloutWait {
  project: string;
  app: { id: string; name: string };
  /** What the wait waits for, as the display says it: "start", "restart after the link to db". */
  until: string;
  /** The resource state records if the wait ends early (a timeout, a Cancel): the app, or the link or attachment. */
  recordAs: { id: string; outputs: (last: ServiceRecord | undefined) => PropertyMap };
  /** What the caller already knows (a PATCH's answer): it stands for the first read. */
  initial?: ServiceRecord;
}

/** Waits while the app is `provisioning`, and returns it as it settled (`failed` included: see `failedRollout`). */
export function awaitRollout(ctx: Context, wait: RolloutWait): Promise<ServiceRecord> {
  return settled(ctx, {
    source: listedIn(ctx, services, wait.project),
    id: wait.app.id,
    recordAs: wait.recordAs.id,
    subject: `container ${wait.app.name}`,
    until: wait.until,
    unfinished: "is still provisioning",
    done: (s) => s.status !== "provisioning",
    initial: wait.initial,
    outputsOf: wait.recordAs.outputs,
  });
}

/** Why a rollout failed, in full: what failed, what the user may do (`hint`), and the app's log tail. */
export async function failedRollout(
  ctx: Context,
  project: string,
  app: ServiceRecord,
  what: string,
  hint = "",
): Promise<string> {
  return `container ${app.name} ${what}: its status is "failed" (image ${app.image}). ${hint ? `${hint} ` : ""}The last lines of its logs:\n${await logTail(ctx, project, app.id)}`;
}

/**
 * Awaits a restart of the app that another resource's operation caused (a link, an attach, a
 * detach). If the app fails it, the operation fails with the log tail, `recordAs` kept in state.
 */
export async function awaitRestart(ctx: Context, wait: RolloutWait & { failure: string; hint: string }): Promise<void> {
  const app = await awaitRollout(ctx, wait);
  if (app.status === "failed") {
    throw new PartialFailure(
      await failedRollout(ctx, wait.project, app, wait.failure, wait.hint),
      wait.recordAs.id,
      wait.recordAs.outputs(app),
    );
  }
}

/** One service as it is now (a fresh list), or undefined when it is gone. */
export const currentService = (ctx: Context, project: string, id: string) =>
  ctx.client.of(services).find(project, id, { signal: ctx.signal });

/**
 * Links the app to each provider service, in order, adopting an identical link already there.
 * When a link was made and `before` (the app as it stood before) was settled, says whether the
 * platform restarted the app for it: a rollout under way now can only be the link's.
 */
export async function linkApp(
  ctx: Context,
  project: string,
  before: Pick<ServiceRecord, "id" | "status">,
  providerIds: readonly string[],
  linkType = CONTAINER_LINK_TYPE,
  /** Each link as soon as it exists (a ServiceLink's create records it from then on). */
  linked?: (link: LinkRecord) => void,
): Promise<{ links: LinkRecord[]; made: boolean; platformRestarted: boolean }> {
  const links: LinkRecord[] = [];
  let made = false;
  for (const providerServiceId of providerIds) {
    const answer = await linkServices(ctx, project, { consumerServiceId: before.id, providerServiceId, linkType });
    linked?.(answer.link);
    links.push(answer.link);
    made ||= answer.made;
  }
  if (!made || before.status === "provisioning" || before.status === "stopped")
    return { links, made, platformRestarted: false };
  return { links, made, platformRestarted: (await currentService(ctx, project, before.id))?.status === "provisioning" };
}

/** Restarts the app so that it reads what a link injects, unless the platform already did. */
export async function restartForLinks(
  ctx: Context,
  project: string,
  appId: string,
  platformRestarted: boolean,
): Promise<void> {
  if (platformRestarted) {
    ctx.progress("the platform restarted the app for the new link");
    return;
  }
  ctx.progress("restarting the app so that it reads the variables the new link injects");
  await ctx.client.of(services).act(project, appId, "restart", {}, { signal: ctx.signal });
}
