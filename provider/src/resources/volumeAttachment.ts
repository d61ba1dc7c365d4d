// hosting:index:VolumeAttachment — mounts a volume into an app. Any change detaches, then attaches.
import { AbortedError, NetworkError, ServerError } from "../api/errors";
import type { VolumeRecord } from "../api/wire";
import { InputError, type ResourceAddress } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { absolutePath, uuid } from "../framework/validators";
import { defined, ignoringNotFound, orGone, projectId, projectOf, type Context, type Declaration } from "./common";

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
  mountPath: { replaceOnChange: true, validate: absolutePath() },
  readOnly: { replaceOnChange: true, default: false },
  projectId,
  attachmentId: { output: true },
  createdAt: { output: true },
} satisfies FlagsOf<VolumeAttachment>;

export const attachmentId = (volumeId: string, containerId: string) => `${volumeId}:${containerId}`;

export function parseAttachmentId(id: string): { volumeId: string; containerId: string } {
  const [volumeId, containerId, ...rest] = id.split(":");
  if (!volumeId || !containerId || rest.length > 0) {
    throw new InputError(`"${id}" is not a VolumeAttachment id; it has the form <volumeId>:<containerId>`);
  }
  return { volumeId, containerId };
}

/** The attachment as the volume reports it, if the volume is attached to that app. */
function attachmentOf(volume: VolumeRecord, containerId: string, project: string, outputs: Partial<VolumeAttachment>) {
  const attachment = volume.attachment;
  if (!attachment || attachment.containerId !== containerId) return undefined;
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
  const volume = await orGone(() => ctx.client.volumes.get(project, volumeId, { signal: ctx.signal }));
  return volume && attachmentOf(volume, containerId, project, outputs);
}

/**
 * The attach request may have taken effect although no answer came (the connection dropped
 * after the server acted, a timeout, a 5xx from a proxy). The client never resends an attach;
 * if the volume now shows exactly this attachment, it is ours and must be recorded, or it
 * would be an orphan that blocks every later attach (found by the fault-injection soak).
 */
const outcomeUnknown = (err: unknown) =>
  (err instanceof NetworkError && !(err instanceof AbortedError) && err.mayHaveReachedServer) || err instanceof ServerError;

async function attachedAnyway(ctx: Context, project: string, inputs: VolumeAttachment) {
  const volume = await orGone(() => ctx.client.volumes.get(project, inputs.volumeId)).catch(() => undefined);
  const attachment = volume?.attachment;
  const ours =
    attachment?.containerId === inputs.containerId && attachment.mountPath === inputs.mountPath && attachment.readOnly === (inputs.readOnly ?? false);
  return ours ? attachment : undefined;
}

export const volumeAttachment: Declaration<VolumeAttachment, typeof flags> = {
  typeName: "VolumeAttachment", flags, projectScoped: true,
  deleteBeforeReplace: true,
  lifecycle: {
    async create(ctx, inputs) {
      const id = attachmentId(inputs.volumeId, inputs.containerId);
      let record;
      try {
        record = await ctx.client.volumes.attach(
          inputs.projectId,
          inputs.volumeId,
          { containerId: inputs.containerId, mountPath: inputs.mountPath, readOnly: inputs.readOnly },
          { signal: ctx.signal },
        );
      } catch (err) {
        if (!outcomeUnknown(err) || !(await attachedAnyway(ctx, inputs.projectId, inputs))) throw err;
        ctx.warn(
          `the answer to the attach request was lost (${(err as Error).message}), but the volume shows the attachment, ` +
            `so it is recorded; its attachmentId and createdAt are not known (the API returns them only in that answer).`,
        );
        return { id, outputs: defined({ ...inputs, projectId: inputs.projectId }) };
      }
      return {
        id,
        outputs: defined({
          volumeId: record.volumeId,
          containerId: record.containerId,
          mountPath: record.mountPath,
          readOnly: record.readOnly,
          projectId: inputs.projectId,
          attachmentId: record.id,
          createdAt: record.createdAt,
        }),
      };
    },
    async read(ctx, address, { outputs }) {
      return readAttachment(ctx, address, outputs);
    },
    async update(_ctx, _address, { olds }) {
      return olds; // every input replaces
    },
    async delete(ctx, address, outputs) {
      const { volumeId, containerId } = parseAttachmentId(address.id);
      await ignoringNotFound(() => ctx.client.volumes.detach(projectOf(ctx, address, outputs), volumeId, containerId, { signal: ctx.signal }));
    },
  },
};
