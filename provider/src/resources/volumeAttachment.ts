// hosting:index:VolumeAttachment — mounts a volume into an app. Any change detaches, then attaches.
import type { WireVolume } from "../api/wire";
import { AbortedError, NetworkError, ServerError } from "../api/errors";
import type { FlagsOf } from "../framework/spec";
import type { OperationContext, ResourceAddress, ResourceDeclaration } from "../framework/resource";
import { absolutePath, uuid } from "../framework/validators";
import { defined, ignoringNotFound, orGone, projectId, projectOf } from "./common";

/**
 * Attaches a volume to an app at a mount path. The app restarts on attach and on detach.
 * The volume is ReadWriteOnce: the app must run one replica, the volume can have one
 * consumer, and the app can have one volume per mount path. Every input replaces the
 * attachment, detaching before attaching again. Its id is `<volumeId>:<containerId>`.
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
  /** Project of the volume and the app. Defaults to the provider's `projectId`. */
  projectId?: string;
  /** Id of the attachment record the API returned. */
  attachmentId: string;
  /** When the volume was attached (ISO 8601). */
  createdAt: string;
}

const flags: FlagsOf<VolumeAttachment> = {
  volumeId: { replaceOnChange: true, validate: uuid },
  containerId: { replaceOnChange: true, validate: uuid },
  mountPath: { replaceOnChange: true, validate: absolutePath },
  readOnly: { replaceOnChange: true, default: false },
  projectId,
  attachmentId: { output: true },
  createdAt: { output: true },
};

export const attachmentId = (volumeId: string, containerId: string) => `${volumeId}:${containerId}`;

export function parseAttachmentId(id: string): { volumeId: string; containerId: string } {
  const [volumeId, containerId, ...rest] = id.split(":");
  if (!volumeId || !containerId || rest.length > 0) {
    throw new Error(`"${id}" is not a VolumeAttachment id; it has the form <volumeId>:<containerId>`);
  }
  return { volumeId, containerId };
}

/** The attachment as the volume reports it, if the volume is attached to that app. */
function attachmentOf(volume: WireVolume, containerId: string, project: string, outputs: Partial<VolumeAttachment>) {
  const attachment = "attachment" in volume ? volume.attachment : undefined;
  if (!attachment || attachment.container_id !== containerId) return undefined;
  return defined({
    volumeId: volume.id,
    containerId: attachment.container_id,
    mountPath: attachment.mount_path,
    readOnly: attachment.read_only ?? false,
    projectId: project,
    attachmentId: outputs.attachmentId,
    createdAt: outputs.createdAt,
  });
}

async function readAttachment(ctx: OperationContext, address: ResourceAddress, outputs: Partial<VolumeAttachment>) {
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

async function attachedAnyway(ctx: OperationContext, project: string, inputs: VolumeAttachment) {
  const volume = await orGone(() => ctx.client.volumes.get(project, inputs.volumeId, { signal: ctx.signal })).catch(() => undefined);
  const attachment = volume && "attachment" in volume ? volume.attachment : undefined;
  const ours =
    attachment?.container_id === inputs.containerId &&
    attachment.mount_path === inputs.mountPath &&
    (attachment.read_only ?? false) === (inputs.readOnly ?? false);
  return ours ? attachment : undefined;
}

export const volumeAttachment: ResourceDeclaration<VolumeAttachment> = {
  token: "hosting:index:VolumeAttachment",
  typeName: "VolumeAttachment",
  flags,
  projectScoped: true,
  deleteBeforeReplace: true,
  lifecycle: {
    async create(ctx, inputs) {
      const project = projectOf(ctx, {}, inputs);
      let record;
      try {
        record = await ctx.client.volumes.attach(
          project,
          inputs.volumeId,
          { container_id: inputs.containerId, mount_path: inputs.mountPath, read_only: inputs.readOnly ?? false },
          { signal: ctx.signal },
        );
      } catch (err) {
        if (!outcomeUnknown(err) || !(await attachedAnyway(ctx, project, inputs))) throw err;
        ctx.warn(
          `the answer to the attach request was lost (${(err as Error).message}), but the volume shows the attachment, ` +
            `so it is recorded; its attachmentId and createdAt are not known (the API returns them only in that answer).`,
        );
        return {
          id: attachmentId(inputs.volumeId, inputs.containerId),
          outputs: defined({ ...inputs, readOnly: inputs.readOnly ?? false, projectId: project }),
        };
      }
      return {
        id: attachmentId(inputs.volumeId, inputs.containerId),
        outputs: defined({
          volumeId: record.volume_id,
          containerId: record.container_id,
          mountPath: record.mount_path,
          readOnly: record.read_only ?? inputs.readOnly ?? false,
          projectId: project,
          attachmentId: record.id,
          createdAt: record.created_at,
        }),
      };
    },
    async read(ctx, address, { outputs }) {
      return readAttachment(ctx, address, outputs);
    },
    async update(_ctx, _address, olds) {
      return olds; // every input replaces
    },
    async delete(ctx, address, outputs) {
      const { volumeId, containerId } = parseAttachmentId(address.id);
      await ignoringNotFound(() =>
        ctx.client.volumes.detach(projectOf(ctx, address, outputs), volumeId, { container_id: containerId }, { signal: ctx.signal }),
      );
    },
  },
};
