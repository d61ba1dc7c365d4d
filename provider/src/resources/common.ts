// Flags and helpers that several resource declarations share.
import type { HostingClient } from "../api/client";
import { isNotFound } from "../api/errors";
import { InputError, type OperationContext, type ResourceAddress, type ResourceDeclaration } from "../framework/declare";
import type { FieldFlags, FlagsOf } from "../framework/spec";
import { dnsLabel, uuid } from "../framework/validators";

/** What every lifecycle here receives: the hosting API client, the defaults, the display. */
export type Context = OperationContext<HostingClient>;
/** A resource of this package: its interface `T`, its flags `F`, a lifecycle on the hosting API. */
export type Declaration<T, F extends FlagsOf<T> = FlagsOf<T>> = ResourceDeclaration<T, HostingClient, F>;

export const output: FieldFlags = { output: true };
/** An output that any update may move (a status, a timestamp): unknown in an update's preview. */
export const movingOutput: FieldFlags = { output: true, movesOnUpdate: true };
export const name = { replaceOnChange: true, validate: dnsLabel() } satisfies FieldFlags;
/** Project-scoped resources take the provider's project unless told otherwise; moving replaces. */
export const projectId = { replaceOnChange: true, configDefault: "projectId", validate: uuid() } satisfies FieldFlags;

/** The project an operation acts in: the address's, else the state's, else the provider's default. */
export function projectOf(ctx: Context, address: Partial<ResourceAddress>, state?: { projectId?: string }): string {
  const project = address.projectId ?? state?.projectId ?? ctx.projectId;
  if (!project) {
    throw new InputError("no project id: set `pulumi config set hosting:projectId <uuid>`, or import as <projectId>/<id>");
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

/** Drops undefined entries, so a body or a state carries only what is there. */
export function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Containers and managed databases share one list: a service of another kind is not this resource. */
export function ofKind<T extends { id: string; type: string }>(service: T | undefined, kind: string, typeName: string): T | undefined {
  if (service && service.type !== kind) {
    throw new InputError(
      `service ${service.id} is a ${service.type}, not a ${kind}, so it cannot be read as ${typeName}; use the resource (or lookup) of its kind`,
    );
  }
  return service;
}
