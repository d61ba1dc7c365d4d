// hosting:index:VolumeAttachment — mounts a volume into an app. Any change detaches, then attaches.
import { z } from "zod";
import { outcomeUnknown } from "../api/errors";
import { flag, optional, record, text } from "../api/wire";
import { InputError, referenceTo, type ResourceAddress } from "../framework/declare";
import type { PropertyMap } from "../framework/values";
import type { FlagsOf } from "../framework/spec";
import { absolutePath, all, maxBytes, uuid } from "../framework/validators";
import { defined, ignoringNotFound, orGone, projectId, projectOf, type Context, type Declaration } from "./common";
import { awaitRestart, currentService } from "./rollouts";
import { volumes, type VolumeRecord } from "./volume";

/**
 * Attaches a volume to an app at a mount path. The app restarts on attach and on detach.
 * The volume is ReadWriteOnce: the app must run one replica, the volume can have one
 * consumer, and the app can have one volume per mount path. A change detaches before it
 * attaches again. Its id is `<volumeId>:<containerId>`.
 */
export interface VolumeAttachment {
  /** Id of the volume to attach. */
  volumeId: string;
  /** Id of the app (Container) to attach it to. */
  containerId: string;
  /** Absolute path in the app where the volume appears, such as `/data`. */
  mountPath: string;
  /** Whether the app sees the volume read-only. */
  readOnly?: boolean;
  /** Project of the volume and the app. */
  projectId?: string;
  /** Id of the attachment record the API returned. */
  attachmentId: string;
  /** When the volume was attached (ISO 8601). */
  createdAt: string;
}

const flags = {
  volumeId: { replaceOnChange: true, validate: uuid() },
  containerId: { replaceOnChange: true, validate: uuid() },
  mountPath: { replaceOnChange: true, validate: all(maxBytes(1024), absolutePath()) },
  readOnly: { replaceOnChange: true, default: false },
  projectId,
  attachmentId: { output: true },
  createdAt: { output: true },
} satisfies FlagsOf<VolumeAttachment>;

/** The answer of an attach (API document 2.9). */
export const AttachmentRecord = record({
  id: text(),
  volumeId: text(),
  containerId: text(),
  mountPath: text(),
  readOnly: optional(flag()).transform((v) => v ?? false),
  createdAt: optional(text()),
});
type AttachmentRecord = z.output<typeof AttachmentRecord>;

export const attachmentId = (volumeId: string, containerId: string) => `${volumeId}:${containerId}`;

export function parseAttachmentId(id: string): { volumeId: string; containerId: string } {
  const [volumeId, containerId, ...rest] = id.split(":");
  if (!volumeId || !containerId || rest.length > 0) {
    throw new InputError(`"${id}" is not a VolumeAttachment id; it has the form <volumeId>:<containerId>`);
  }
  return { volumeId, containerId };
}

/** The attachment as the volume reports it, if the volume is attached to that app. */
function attachmentOf(volume: VolumeRecord, containerId: string | undefined, project: string, outputs: Partial<VolumeAttachment> = {}) {
  const attachment = volume.attachment;
  if (!attachment || (containerId !== undefined && attachment.containerId !== containerId)) return undefined;
  return defined({
    volumeId: volume.id,
    containerId: attachment.containerId,
    mountPath: attachment.mountPath,
    readOnly: attachment.readOnly,
    projectId: project,
    attachmentId: outputs.attachmentId,
    createdAt: outputs.createdAt,
  });
}

async function readAttachment(ctx: Context, address: ResourceAddress, outputs: Partial<VolumeAttachment>) {
  const { volumeId, containerId } = parseAttachmentId(address.id);
  const project = projectOf(ctx, address, outputs);
  const volume = await orGone(() => ctx.client.of(volumes).get(project, volumeId, { signal: ctx.signal }));
  return volume && attachmentOf(volume, containerId, project, outputs);
}

/**
 * The attach request may have taken effect although no answer came (the connection dropped
 * after the server acted, a timeout, a 5xx from a proxy). The client never resends an attach;
 * if the volume now shows exactly this attachment, it is ours and must be recorded, or it
 * would be an orphan that blocks every later attach (found by the fault-injection soak).
 */
async function attachedAnyway(ctx: Context, project: string, inputs: VolumeAttachment) {
  const volume = await orGone(() => ctx.client.of(volumes).get(project, inputs.volumeId)).catch(() => undefined);
  const attachment = volume?.attachment;
  const ours = attachment?.containerId === inputs.containerId && attachment.mountPath === inputs.mountPath && attachment.readOnly === inputs.readOnly;
  return ours ? attachment : undefined;
}

/** Every attachment of the project: the list says which volumes are attached, each volume to what. */
async function list(ctx: Context, projectId: string | undefined) {
  const project = projectOf(ctx, { projectId });
  const endpoints = ctx.client.of(volumes);
  const attached = (await endpoints.list(project, { signal: ctx.signal })).filter((v) => v.attached);
  const found = await Promise.all(attached.map((v) => orGone(() => endpoints.get(project, v.id, { signal: ctx.signal }))));
  return found.flatMap((volume) => {
    const attachment = volume && attachmentOf(volume, undefined, project);
    return attachment ? [{ ...attachment, id: attachmentId(attachment.volumeId!, attachment.containerId!) }] : [];
  });
}

/** The attach restarts the app (API document, section 3): awaited, and a failure to come back fails the attach, recorded in state. */
async function restartedWith(ctx: Context, inputs: VolumeAttachment, outputs: Partial<VolumeAttachment>): Promise<Partial<VolumeAttachment>> {
  await awaitRestart(ctx, {
    project: inputs.projectId!,
    app: { id: inputs.containerId, name: inputs.containerId },
    until: `restart with volume ${inputs.volumeId} at ${inputs.mountPath}`,
    recordAs: { id: attachmentId(inputs.volumeId, inputs.containerId), outputs: () => outputs as PropertyMap },
    failure: `failed to restart after volume ${inputs.volumeId} was attached at ${inputs.mountPath}`,
    hint: "The volume is attached and the attachment recorded in state; fix the app (its image or env) and it mounts the volume when it starts.",
  });
  return outputs;
}

export const volumeAttachment: Declaration<VolumeAttachment, typeof flags> = {
  typeName: "VolumeAttachment",
  flags,
  scope: "project",
  idFormat: "<volumeId>:<containerId>",
  deleteBeforeReplace: true,
  list,
  export: { word: "attachment", name: (a, { nameOf }) => `${nameOf(a.volumeId!)}-on-${nameOf(a.containerId!)}` },
  examples: [
    {
      title: "A volume mounted into an app",
      name: "web-data",
      inputs: { volumeId: referenceTo("Volume"), containerId: referenceTo("Container"), mountPath: "/data" },
    },
  ],
  lifecycle: {
    async create(ctx, inputs) {
      const id = attachmentId(inputs.volumeId, inputs.containerId);
      let attached: AttachmentRecord;
      try {
        const body = { containerId: inputs.containerId, mountPath: inputs.mountPath, readOnly: inputs.readOnly };
        attached = await ctx.client.of(volumes).act(inputs.projectId, inputs.volumeId, "attach", { body, answer: AttachmentRecord }, { signal: ctx.signal });
      } catch (err) {
        if (!outcomeUnknown(err) || !(await attachedAnyway(ctx, inputs.projectId, inputs))) throw err;
        ctx.warn(
          `the answer to the attach request was lost (${(err as Error).message}), but the volume shows the attachment, ` +
            `so it is recorded; its attachmentId and createdAt are not known (the API returns them only in that answer).`,
        );
        return { id, outputs: await restartedWith(ctx, inputs, defined({ ...inputs })) };
      }
      const outputs = defined({
        volumeId: attached.volumeId,
        containerId: attached.containerId,
        mountPath: attached.mountPath,
        readOnly: attached.readOnly,
        projectId: inputs.projectId,
        attachmentId: attached.id,
        createdAt: attached.createdAt,
      });
      return { id, outputs: await restartedWith(ctx, inputs, outputs) };
    },
    async read(ctx, address, { outputs }) {
      return readAttachment(ctx, address, outputs);
    },
    async delete(ctx, address, outputs) {
      const { volumeId, containerId } = parseAttachmentId(address.id);
      const project = projectOf(ctx, address, outputs);
      const endpoints = ctx.client.of(volumes);
      await ignoringNotFound(() =>
        endpoints.act(project, volumeId, "detach", {
          body: { containerId },
          // After an unknown outcome, a volume that shows the app detached counts as done.
          recover: async (o) => ((await endpoints.get(project, volumeId, o)).attachment?.containerId === containerId ? undefined : { value: undefined }),
        }, { signal: ctx.signal }),
      );
      // The detach restarts the app (API document, section 3): a failure to come back fails the delete, which keeps it
      // in state. An app deleted meanwhile has nothing to restart.
      const app = await currentService(ctx, project, containerId);
      if (!app) return;
      await awaitRestart(ctx, {
        project,
        app,
        initial: app,
        until: "restart without the volume",
        recordAs: { id: address.id, outputs: () => outputs as PropertyMap },
        failure: `failed to restart after volume ${volumeId} was detached from it`,
        hint: "The volume is detached; the attachment stays in state until the app runs, and the next `pulumi up` or `pulumi destroy` deletes it.",
      });
    },
  },
};
