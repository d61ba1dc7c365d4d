// What the resource declarations share: their context, their common flags, and the few rules
// every lifecycle follows (404 means gone; a wait that ends early still records the resource).
import type { Collection, HostingClient } from "../api/client";
import { isNotFound } from "../api/errors";
import {
  InputError,
  PartialFailure,
  type OperationContext,
  type ResourceAddress,
  type ResourceDeclaration,
} from "../framework/declare";
import { WaitCancelled, WaitTimeout } from "../framework/polling";
import type { FieldFlags, FlagsOf } from "../framework/spec";
import type { PropertyMap } from "../framework/values";
import { DNS_LABEL_NAMES, uuid } from "../framework/validators";

/** What every lifecycle here receives: the hosting API client, the provider's settings, the display. */
export type Context = OperationContext<HostingClient>;
/** A resource of this package: its interface `T`, its flags `F`, a lifecycle on the hosting API. */
export type Declaration<T, F extends FlagsOf<T> = FlagsOf<T>> = ResourceDeclaration<T, HostingClient, F>;

export const output: FieldFlags = { output: true };
/** An output that any update may move (a status, a timestamp): unknown in an update's preview. */
export const movingOutput: FieldFlags = { output: true, movesOnUpdate: true };
/** A name: replaces when it changes, and Check names the resource when the program leaves it out (autonaming). */
export const name = {
  replaceOnChange: true,
  validate: DNS_LABEL_NAMES.validate,
  autoname: DNS_LABEL_NAMES,
} satisfies FieldFlags;
/** The name of a project resource: unique within its project (API document 2.1). */
export const projectName = { ...name, uniqueWithin: "projectId" } satisfies FieldFlags;
/** Project resources take the provider's project unless told otherwise; moving replaces. */
export const projectId = { replaceOnChange: true, configDefault: "projectId", validate: uuid() } satisfies FieldFlags;

/** The project an operation acts in: the address's, else the state's, else the provider's. */
export function projectOf(ctx: Context, address: Partial<ResourceAddress>, state?: { projectId?: string }): string {
  const project = address.projectId ?? state?.projectId ?? (ctx.config.projectId as string | undefined);
  if (!project) {
    throw new InputError(
      "no project id: set `pulumi config set hosting:projectId <uuid>`, or import as <projectId>/<id>",
    );
  }
  return project;
}

/** Reads that find nothing (404) mean the resource is gone. */
export async function orGone<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Deletes that find nothing (404) mean it was already gone. */
export async function ignoringNotFound(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * A delete is done when the resource is gone, not when the API accepts it: awaited (with progress)
 * within the delete's customTimeouts. One that stays fails plainly, and so stays in the stack.
 */
export async function awaitGone<W extends { id: string }>(
  ctx: Context,
  source: WaitSource<W>,
  id: string,
  subject: string,
): Promise<void> {
  try {
    await ctx.sharedPoll(source.key, source.fetch).wait({
      what: `${subject} to be gone`,
      select: (answer) => answer.withId(id),
      done: (record) => record === undefined,
      timeoutMs: ctx.operationTimeoutMs,
      signal: ctx.signal,
      progress: (message) => ctx.progress(message),
    });
  } catch (err) {
    throw new Error(
      `the API accepted the delete of ${subject}, but it is still there (${(err as Error).message}), so it stays in the stack. Run the delete again (\`pulumi destroy\` or \`pulumi up\`), raise customTimeouts.delete, or ask the platform's support.`,
    );
  }
}

/** Drops undefined entries, so a body or a state carries only what is there. */
export function defined<T extends object>(value: T): Partial<T> {
  // A loop, not entries → filter → fromEntries: every Read's outputs pass here (a refresh, 1,000 at once).
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

/** What waits read: a collection's list in one project, shared by every wait on it (one poll loop). */
export interface WaitSource<W extends { id: string }> {
  key: string;
  fetch: (signal: AbortSignal) => Promise<{ withId(id: string): W | undefined }>;
}

/** The waits' source for a collection's records in a project (or the user's). */
export const listedIn = <W extends { id: string }>(
  ctx: Context,
  collection: Collection<unknown, W>,
  project?: string,
): WaitSource<W> => ({
  key: `${collection.path}:${project ?? ""}`,
  fetch: (signal) => ctx.client.of(collection).listed(project, { signal }),
});

export interface SettleWait<W extends { id: string }> {
  /** The source the wait reads (a project's list), shared by every wait on it. */
  source: WaitSource<W>;
  id: string;
  /** The resource state records if the wait ends early, when not the one waited on (a link awaiting its app). */
  recordAs?: string;
  /** What it is, as the display says it: "container web". */
  subject: string;
  /** What it waits for: "start" ("waiting for container web to start"). */
  until: string;
  /** How it stands when the wait ends early: "is still provisioning". */
  unfinished: string;
  done: (record: W) => boolean;
  /** What the caller already knows (a create's answer): it stands for the first read. */
  initial?: W;
  /** The outputs state keeps if the wait ends early, from the last record seen (if any). */
  outputsOf: (last: W | undefined) => PropertyMap;
}

/**
 * Waits until the resource is done (an app out of `provisioning`, a volume `running`). The
 * resource exists: if the wait ends early (a timeout, a Cancel, a read that fails), it ends in a
 * PartialFailure that records it as last seen, and the next `pulumi up` waits for it again.
 */
export async function settled<W extends { id: string }>(ctx: Context, wait: SettleWait<W>): Promise<W> {
  let last = wait.initial;
  let found: W | undefined;
  try {
    found = await ctx.sharedPoll(wait.source.key, wait.source.fetch).wait({
      what: `${wait.subject} to ${wait.until}`,
      select: (answer) => answer.withId(wait.id),
      done: (record) => record === undefined || wait.done(record),
      ...(wait.initial ? { initial: wait.initial } : {}),
      seen: (record) => (last = record ?? last),
      timeoutMs: ctx.operationTimeoutMs,
      signal: ctx.signal,
      progress: (message) => ctx.progress(message),
    });
  } catch (err) {
    const why =
      err instanceof WaitTimeout
        ? `${err.message}; the next \`pulumi up\` waits for it again (raise customTimeouts to wait longer), or \`pulumi refresh\` picks it up`
        : err instanceof WaitCancelled
          ? `${err.message}; the next \`pulumi up\` waits for it again`
          : `reading its status failed (${(err as Error).message})`;
    const recorded =
      wait.recordAs === undefined ? "it is recorded in state as it is" : "the resource is recorded in state";
    throw new PartialFailure(
      `${wait.subject} ${wait.unfinished}: ${why}; ${recorded}`,
      wait.recordAs ?? wait.id,
      wait.outputsOf(last),
    );
  }
  if (!found) throw new Error(`${wait.subject} disappeared while we waited for it`);
  return found;
}
