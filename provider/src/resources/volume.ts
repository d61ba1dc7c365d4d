// hosting:index:Volume — a block volume (persistent disk), ReadWriteOnce. Sizes only grow.
import type { WireVolume } from "../api/wire";
import { isApiError } from "../api/errors";
import type { FlagsOf } from "../framework/spec";
import { PartialFailure, type OperationContext, type ResourceDeclaration } from "../framework/resource";
import { WaitCancelled, WaitTimeout, waitUntil } from "../framework/polling";
import { positive } from "../framework/validators";
import { defined, ignoringNotFound, movingOutput, name, orGone, output, projectId, projectOf } from "./common";

/**
 * A block volume: a persistent disk that attaches to one app at a time (ReadWriteOnce).
 * Creation waits until the platform reports it `running`, honouring `customTimeouts`
 * (default 10 minutes). `sizeGb` only grows, in place; a smaller value fails at preview.
 * Changing `name` replaces the volume.
 */
export interface Volume {
  /** Name of the volume, unique within its project. Changing it replaces the volume (and its data). */
  name: string;
  /** Project to create the volume in. Defaults to the provider's `projectId`; changing it replaces the volume. */
  projectId?: string;
  /**
   * Size in gigabytes. It can only grow; a smaller value fails at preview.
   * @TJS-type integer
   */
  sizeGb: number;
  /** Display name reported by the platform. */
  displayName: string;
  /** Storage class (`block-durable`). */
  storageClass: string;
  /** Access mode (`ReadWriteOnce`). */
  accessMode: string;
  /** `provisioning` or `running`. */
  status: string;
  /** Free-text explanation of the status. */
  statusReason: string;
  /** Whether an app has the volume attached. */
  attached: boolean;
  /** When the volume was created (ISO 8601). */
  createdAt: string;
  /** When the volume last changed (ISO 8601). */
  updatedAt: string;
}

const flags: FlagsOf<Volume> = {
  name,
  projectId,
  sizeGb: { growOnly: true, validate: positive },
  displayName: output,
  storageClass: output,
  accessMode: output,
  status: movingOutput,
  statusReason: movingOutput,
  attached: output,
  createdAt: output,
  updatedAt: movingOutput,
};

export function volumeFromWire(volume: WireVolume): Partial<Volume> {
  const attached = "attachment" in volume ? volume.attachment != null : (volume as { attached?: boolean }).attached;
  return defined({
    name: volume.name,
    projectId: volume.project_id,
    sizeGb: volume.size_gb,
    displayName: volume.display_name,
    storageClass: volume.storage_class,
    accessMode: volume.access_mode,
    status: volume.status,
    statusReason: volume.status_reason ?? "",
    attached: attached ?? false,
    createdAt: volume.created_at,
    updatedAt: volume.updated_at,
  });
}

/** BLOCK_VOLUME_DISABLED as a plain sentence; other errors pass through. */
function explained(err: unknown): unknown {
  if (isApiError(err, "BLOCK_VOLUME_DISABLED")) {
    return new Error(
      `Block volumes are turned off on this platform: the volume API is a prepared feature that has not been ` +
        `enabled yet, so no volume can be created. Remove the Volume from the program until it is. ` +
        `(${(err as Error).message})`,
    );
  }
  if (isApiError(err, "VOLUME_ATTACHED")) {
    return new Error(
      `the volume is still attached to an app, and an attached volume cannot be deleted: delete its ` +
        `VolumeAttachment first (Pulumi does this when the attachment depends on the volume). (${(err as Error).message})`,
    );
  }
  return err;
}

async function readVolume(ctx: OperationContext, project: string, id: string) {
  const volume = await orGone(() => ctx.client.volumes.get(project, id, { signal: ctx.signal }));
  return volume && volumeFromWire(volume);
}

export const volume: ResourceDeclaration<Volume> = {
  token: "hosting:index:Volume",
  typeName: "Volume",
  flags,
  projectScoped: true,
  lifecycle: {
    async create(ctx, inputs) {
      const project = projectOf(ctx, {}, inputs);
      let created: WireVolume;
      try {
        created = await ctx.client.volumes.create(project, { name: inputs.name, size_gb: inputs.sizeGb }, { signal: ctx.signal });
      } catch (err) {
        throw explained(err);
      }
      let last = volumeFromWire(created);
      try {
        const ready = await waitUntil({
          what: `volume ${inputs.name} to be running`,
          initial: last,
          poll: async () => (last = (await readVolume(ctx, project, created.id)) ?? last),
          done: (v) => v.status === "running",
          timeoutMs: ctx.timeoutMs,
          signal: ctx.signal,
          progress: (message) => ctx.progress(message),
        });
        return { id: created.id, outputs: ready };
      } catch (err) {
        // The volume exists and is billed: it must stay in state whatever happened.
        const why =
          err instanceof WaitTimeout
            ? `${err.message}; it is recorded in state, and the next \`pulumi up\` or \`pulumi refresh\` picks it up (raise customTimeouts.create to wait longer)`
            : err instanceof WaitCancelled
              ? `${err.message}; it is recorded in state`
              : `reading its status failed (${(err as Error).message}); it is recorded in state`;
        throw new PartialFailure(`volume ${inputs.name} was created but is not running yet: ${why}`, created.id, last as Record<string, any>);
      }
    },
    async read(ctx, address, { outputs }) {
      return readVolume(ctx, projectOf(ctx, address, outputs), address.id);
    },
    async update(ctx, address, olds, news) {
      const project = projectOf(ctx, address, olds);
      if (news.sizeGb === olds.sizeGb) return olds;
      const updated = await ctx.client.volumes.update(project, address.id, { size_gb: news.sizeGb }, { signal: ctx.signal });
      return (await readVolume(ctx, project, address.id)) ?? volumeFromWire(updated);
    },
    async delete(ctx, address, outputs) {
      try {
        await ignoringNotFound(() => ctx.client.volumes.delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
      } catch (err) {
        throw explained(err);
      }
    },
  },
};
