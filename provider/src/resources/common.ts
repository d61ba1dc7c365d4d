// Flags and helpers that several resource declarations share.
import type { FieldFlags } from "../framework/spec";
import { resourceName, uuid } from "../framework/validators";
import { isNotFound } from "../api/errors";
import type { OperationContext, ResourceAddress } from "../framework/resource";

export const output: FieldFlags = { output: true };
/** An output that an update may move: unknown in an update's preview. */
export const movingOutput: FieldFlags = { output: true, movesOnUpdate: true };
export const name: FieldFlags = { replaceOnChange: true, validate: resourceName };
/** Project-scoped resources take the provider's project unless told otherwise; moving replaces. */
export const projectId: FieldFlags = { replaceOnChange: true, configDefault: "projectId", validate: uuid };

/** The project an operation acts in: the address's, else the provider's default. */
export function projectOf(ctx: OperationContext, address: Partial<ResourceAddress>, outputs?: { projectId?: string }): string {
  const project = address.projectId ?? outputs?.projectId ?? ctx.config.projectId;
  if (!project) {
    throw new Error("no project id: set `pulumi config set hosting:projectId <uuid>`, or import as <projectId>/<id>");
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

/** Drops undefined entries, so a body carries only what the user set. */
export function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Containers and managed databases share one list: a service of another kind is not this resource. */
export function ofType<T extends { id: string; type: string }>(service: T | undefined, type: string, token: string): T | undefined {
  if (service && service.type !== type) {
    throw new Error(`service ${service.id} is a ${service.type}, not a ${type}, so it cannot be read as ${token}; import it as the resource of its kind`);
  }
  return service;
}
