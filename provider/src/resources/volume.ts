// hosting:index:Volume — a block volume (persistent disk), ReadWriteOnce. Sizes only grow.
import type { z } from "zod";
import type { Collection } from "../api/client";
import { isApiError } from "../api/errors";
import { flag, integer, listOf, optional, record, text } from "../api/wire";
import { InputError } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import type { PropertyMap } from "../framework/values";
import { atLeast } from "../framework/validators";
import {
  awaitGone,
  defined,
  ignoringNotFound,
  listedIn,
  movingOutput,
  projectName,
  orGone,
  output,
  projectId,
  projectOf,
  settled,
  type Context,
  type Declaration,
} from "./common";

/**
 * A block volume: a persistent disk that attaches to one app at a time (ReadWriteOnce). It is
 * ready when the platform reports it `running`: creation (and an update of a volume that is
 * not ready yet) waits for that, honouring `customTimeouts` (default 10 minutes), and if it
 * gives up the volume is still recorded in state.
 */
export interface Volume {
  /** Name of the volume, unique within its project. */
  name?: string;
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
  name: projectName,
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

/** A volume (API document 2.8), as every answer has it. */
const volumeFields = {
  id: text(),
  projectId: text(),
  name: text(),
  displayName: optional(text()),
  sizeGb: integer(),
  storageClass: optional(text()),
  accessMode: optional(text()),
  status: text(),
  statusReason: optional(text()),
  createdAt: optional(text()),
  updatedAt: optional(text()),
};
/** Where a volume is attached, as a single volume's GET shows it. */
const AttachmentInfo = record({
  containerId: text(),
  mountPath: text(),
  readOnly: optional(flag()).transform((v) => v ?? false),
});

/** A volume in the list: it says only whether it is `attached`. */
export const VolumeListRecord = record({ ...volumeFields, attached: flag() });
export type VolumeListRecord = z.output<typeof VolumeListRecord>;
/** A single volume (GET one, create, update): it carries its `attachment` (null when detached). */
export const VolumeRecord = record({
  ...volumeFields,
  attachment: AttachmentInfo.nullish().transform((v) => v ?? null),
  attached: optional(flag()),
});
export type VolumeRecord = z.output<typeof VolumeRecord>;

export const volumes: Collection<VolumeRecord, VolumeListRecord> = {
  path: "volumes",
  scope: "project",
  record: VolumeRecord,
  list: listOf(VolumeListRecord, "volumes"),
  readById: true,
  update: "PATCH",
  // The list says less than a create's answer: the answer is the volume read by its id.
  created: {
    match: (v: VolumeListRecord, body) => v.name === body.name && v.sizeGb === body.sizeGb,
    proof: "createdAt",
    createdAt: (v: VolumeListRecord) => v.createdAt,
    answer: (v, found, opts) => found.get(v.id, opts),
  },
  // Document 4.5: an attach is done when the volume reads attached to that app, at that path, so; a detach when it
  // reads attached to no app, or another (or is gone).
  actions: {
    attach: {
      done: (now, body) => {
        const held = now?.attachment;
        return (
          !!held &&
          held.containerId === body.containerId &&
          held.mountPath === body.mountPath &&
          held.readOnly === (body.readOnly ?? false)
        );
      },
    },
    detach: { done: (now, body) => now?.attachment?.containerId !== body.containerId },
  },
};

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
      `Block volumes are turned off on this platform: the volume API is a prepared feature that has not been enabled yet, so no volume can be created. Remove the Volume from the program until it is. (${apiMessage})`,
    );
  }
  if (isApiError(err, "VOLUME_ATTACHED")) {
    return new InputError(
      `the volume is still attached to an app, and an attached volume cannot be deleted: delete its VolumeAttachment first (Pulumi does this when the attachment depends on the volume). (${apiMessage})`,
    );
  }
  if (isApiError(err, "SHRINK_NOT_SUPPORTED")) {
    return new InputError(
      `sizeGb can only grow: the volume is larger than ${sizeGb} GB now (grown outside Pulumi?). Run \`pulumi refresh\` to see its size, and use that size or more. (${apiMessage})`,
    );
  }
  return err;
}

/** Waits until the volume is `running`; if it gives up, the volume still goes into state as it is. */
async function ready(
  ctx: Context,
  project: string,
  id: string,
  volumeName: string,
  initial?: VolumeRecord,
): Promise<Partial<Volume>> {
  const volume = await settled<VolumeRecord | VolumeListRecord>(ctx, {
    source: listedIn(ctx, volumes, project),
    id,
    subject: `volume ${volumeName}`,
    until: "be running",
    unfinished: "is not running yet",
    done: (v) => v.status === "running",
    initial,
    outputsOf: (last) => (last ? volumeFromWire(last) : {}) as PropertyMap,
  });
  return volumeFromWire(volume);
}

/**
 * Where each volume of the project is attached, read from each attached volume (the list says only whether): a volume
 * whose GET answers 404 is looked for again, as a Read looks, before it counts as gone (and so as holding nothing).
 */
export async function attachmentsIn(
  ctx: Context,
  project: string,
): Promise<Array<{ volume: VolumeRecord; containerId: string; mountPath: string; readOnly: boolean }>> {
  const endpoints = ctx.client.of(volumes);
  const attached = (await endpoints.list(project, { signal: ctx.signal })).filter((v) => v.attached);
  const read = await Promise.all(attached.map((v) => endpoints.findRecord(project, v.id, { signal: ctx.signal })));
  return read.flatMap((v) => (v?.attachment ? [{ volume: v, ...v.attachment }] : []));
}

export const volume: Declaration<Volume, typeof flags> = {
  typeName: "Volume",
  flags,
  scope: "project",
  // One that ran and reads provisioning again is growing (a resize): reported as it is, not unfinished.
  unfinished: (live, recorded) =>
    live.status !== undefined && live.status !== "running" && recorded.status !== "running"
      ? `volume ${live.name} is not running yet: its status is "${live.status}"; the next \`pulumi up\` waits for it again`
      : undefined,
  list: async (ctx, projectId) =>
    (await ctx.client.of(volumes).list(projectOf(ctx, { projectId }), { signal: ctx.signal })).map((v) => ({
      ...volumeFromWire(v),
      id: v.id,
    })),
  lookups: {
    byIdOrName: { noun: "volume", show: "sizeGb" },
    list: { name: "getVolumes", key: "volumes", description: "Lists the volumes of a project." },
  },
  export: { word: "volume" },
  examples: [
    {
      title: "A 20 GB volume, waited for up to 20 minutes",
      name: "data",
      inputs: { sizeGb: 20 },
      update: { sizeGb: 30 },
      options: { customTimeouts: { create: "20m" } },
    },
  ],
  lifecycle: {
    dataAtStake: (olds) => `volume ${olds.name} and all the data on it (${olds.sizeGb} GB)`,
    async create(ctx, inputs) {
      let created: VolumeRecord;
      try {
        created = await ctx.client
          .of(volumes)
          .create(inputs.projectId, { name: inputs.name, sizeGb: inputs.sizeGb }, ctx.creating);
      } catch (err) {
        throw explained(err);
      }
      ctx.made(created.id, volumeFromWire(created) as PropertyMap);
      return { id: created.id, outputs: await ready(ctx, inputs.projectId, created.id, inputs.name, created) };
    },
    async read(ctx, address, { outputs }) {
      const found = await orGone(() =>
        ctx.client.of(volumes).find(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }),
      );
      return found && volumeFromWire(found);
    },
    async update(ctx, address, { olds, news }) {
      const project = projectOf(ctx, address, olds);
      let resized: VolumeRecord | undefined;
      if (news.sizeGb !== olds.sizeGb) {
        try {
          resized = await ctx.client
            .of(volumes)
            .update(project, address.id, { sizeGb: news.sizeGb }, { signal: ctx.signal });
        } catch (err) {
          throw explained(err, news.sizeGb);
        }
      }
      // A volume a timed-out create left provisioning is retried as an update: wait for it again.
      return ready(ctx, project, address.id, news.name, resized);
    },
    async delete(ctx, address, outputs) {
      const project = projectOf(ctx, address, outputs);
      try {
        await ignoringNotFound(() => ctx.client.of(volumes).delete(project, address.id, { signal: ctx.signal }));
      } catch (err) {
        throw explained(err);
      }
      await awaitGone(ctx, listedIn(ctx, volumes, project), address.id, `volume ${outputs.name ?? address.id}`);
    },
  },
};
