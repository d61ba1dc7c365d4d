// hosting:index:Volume — a block volume (persistent disk), ReadWriteOnce. Sizes only grow.
import { isApiError } from "../api/errors";
import { byId } from "../api/loader";
import type { VolumeRecord, VolumeListRecord } from "../api/wire";
import { InputError, PartialFailure } from "../framework/declare";
import { WaitCancelled, WaitTimeout } from "../framework/polling";
import type { FlagsOf } from "../framework/spec";
import { atLeast } from "../framework/validators";
import { defined, ignoringNotFound, movingOutput, name, orGone, output, projectId, projectOf, type Context, type Declaration } from "./common";

/**
 * A block volume: a persistent disk that attaches to one app at a time (ReadWriteOnce). It is
 * ready when the platform reports it `running`: creation (and an update of a volume that is
 * not ready yet) waits for that, honouring `customTimeouts` (default 10 minutes), and if it
 * gives up the volume is still recorded in state.
 */
export interface Volume {
  /** Name of the volume, unique within its project. */
  name: string;
  /** Project to create the volume in. */
  projectId?: string;
  /**
   * Size in gigabytes.
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

const flags = {
  name,
  projectId,
  sizeGb: { growOnly: true, validate: atLeast(1) },
  displayName: output,
  storageClass: output,
  accessMode: output,
  status: movingOutput,
  statusReason: movingOutput,
  attached: output,
  createdAt: output,
  updatedAt: movingOutput,
} satisfies FlagsOf<Volume>;

export function volumeFromWire(volume: VolumeRecord | VolumeListRecord): Partial<Volume> {
  const attached = "attachment" in volume ? volume.attachment !== null : volume.attached;
  return defined({
    name: volume.name,
    projectId: volume.projectId,
    sizeGb: volume.sizeGb,
    displayName: volume.displayName,
    storageClass: volume.storageClass,
    accessMode: volume.accessMode,
    status: volume.status,
    statusReason: volume.statusReason ?? "",
    attached: attached ?? false,
    createdAt: volume.createdAt,
    updatedAt: volume.updatedAt,
  });
}

/** The API's refusals, said in the program's terms; other errors pass through. */
function explained(err: unknown, sizeGb?: number): unknown {
  const apiMessage = (err as Error).message;
  if (isApiError(err, "BLOCK_VOLUME_DISABLED")) {
    return new InputError(
      `Block volumes are turned off on this platform: the volume API is a prepared feature that has not been ` +
        `enabled yet, so no volume can be created. Remove the Volume from the program until it is. (${apiMessage})`,
    );
  }
  if (isApiError(err, "VOLUME_ATTACHED")) {
    return new InputError(
      `the volume is still attached to an app, and an attached volume cannot be deleted: delete its ` +
        `VolumeAttachment first (Pulumi does this when the attachment depends on the volume). (${apiMessage})`,
    );
  }
  if (isApiError(err, "SHRINK_NOT_SUPPORTED")) {
    return new InputError(
      `sizeGb can only grow: the volume is larger than ${sizeGb} GB now (grown outside Pulumi?). Run \`pulumi refresh\` ` +
        `to see its size, and use that size or more. (${apiMessage})`,
    );
  }
  return err;
}

/** Waits until the volume is `running`; if it gives up, the volume still goes into state as it is. */
async function ready(ctx: Context, project: string, id: string, volumeName: string, initial?: VolumeRecord): Promise<Partial<Volume>> {
  let last: Partial<Volume> | undefined = initial && volumeFromWire(initial);
  const poll = ctx.sharedPoll(`volumes:${project}`, () => ctx.client.volumes.list(project));
  try {
    const volume = await poll.wait({
      what: `volume ${volumeName} to be running`,
      select: (list): Partial<Volume> | undefined => {
        const found = byId(list).get(id);
        return found && volumeFromWire(found);
      },
      done: (v) => v === undefined || v.status === "running",
      ...(last ? { initial: last } : {}),
      seen: (v) => (last = v ?? last),
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      progress: (message) => ctx.progress(message),
    });
    if (!volume) throw new Error(`volume ${volumeName} disappeared while provisioning`);
    return volume;
  } catch (err) {
    // The volume exists and is billed: it must stay in state whatever happened.
    const why =
      err instanceof WaitTimeout
        ? `${err.message}; it is recorded in state, and the next \`pulumi up\` waits for it again (raise customTimeouts to wait longer), or \`pulumi refresh\` picks it up`
        : err instanceof WaitCancelled
          ? `${err.message}; it is recorded in state`
          : `reading its status failed (${(err as Error).message}); it is recorded in state`;
    throw new PartialFailure(`volume ${volumeName} is not running yet: ${why}`, id, (last ?? {}) as Record<string, any>);
  }
}

export const volume: Declaration<Volume, typeof flags> = {
  typeName: "Volume", flags, projectScoped: true,
  lifecycle: {
    async create(ctx, inputs) {
      let created: VolumeRecord;
      try {
        created = await ctx.client.volumes.create(inputs.projectId, { name: inputs.name, sizeGb: inputs.sizeGb }, { signal: ctx.signal });
      } catch (err) {
        throw explained(err);
      }
      return { id: created.id, outputs: await ready(ctx, inputs.projectId, created.id, inputs.name, created) };
    },
    async read(ctx, address, { outputs }) {
      const list = await orGone(() => ctx.client.volumes.list(projectOf(ctx, address, outputs), { signal: ctx.signal }));
      const found = list && byId(list).get(address.id);
      return found && volumeFromWire(found);
    },
    async update(ctx, address, { olds, news }) {
      const project = projectOf(ctx, address, olds);
      let resized: VolumeRecord | undefined;
      if (news.sizeGb !== olds.sizeGb) {
        try {
          resized = await ctx.client.volumes.resize(project, address.id, news.sizeGb, { signal: ctx.signal });
        } catch (err) {
          throw explained(err, news.sizeGb);
        }
      }
      // A volume a timed-out create left provisioning is retried as an update: wait for it again.
      return ready(ctx, project, address.id, news.name, resized);
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
