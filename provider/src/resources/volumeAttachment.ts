// hosting:index:VolumeAttachment — mounts a volume into an app. Any change detaches, then attaches.
import type { z } from "zod";
import { isNotFound, outcomeUnknown } from "../api/errors";
import { flag, optional, record, text } from "../api/wire";
import { InputError, PartialFailure, referenceTo, type ResourceAddress } from "../framework/declare";
import { containsUnknown, type PropertyMap } from "../framework/values";
import type { FlagsOf } from "../framework/spec";
import { absolutePath, all, maxBytes, uuid } from "../framework/validators";
import { defined, ignoringNotFound, projectId, projectOf, type Context, type Declaration } from "./common";
import { awaitRestart, currentService } from "./rollout/rollouts";
import { services } from "./services";
import { attachmentsIn, volumes, type VolumeRecord } from "./volume";

/**
 * Attaches a volume to an app at a mount path. The app restarts on attach and on detach, and
 * the provider awaits it. The volume is ReadWriteOnce: the app must run one replica, the volume
 * can have one consumer, and the app can have one volume per mount path; each rule is judged
 * against the live platform at preview, before anything is sent. A change detaches before it
 * attaches again; a move to another app is judged before the detach, and if the attach fails
 * after it, the volume is attached back where it was. Its id is `<volumeId>:<containerId>`.
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
function attachmentOf(
  volume: VolumeRecord,
  containerId: string | undefined,
  project: string,
  outputs: Partial<VolumeAttachment> = {},
) {
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
  const volume = await ctx.client.of(volumes).findRecord(project, volumeId, { signal: ctx.signal });
  return volume && attachmentOf(volume, containerId, project, outputs);
}

/**
 * An attach is retried like a safe request, each attempt whose outcome is unknown judged by the volume read after it
 * (volume.ts `actions`); the last attempt's is judged here: if the volume shows exactly this attachment, it is ours
 * and must be recorded, or it would be an orphan that blocks every later attach (found by the fault-injection soak).
 */
async function attachedAnyway(ctx: Context, project: string, volumeId: string, body: Record<string, unknown>) {
  return ctx.client
    .of(volumes)
    .shows(project, volumeId, "attach", body)
    .catch(() => false);
}

/** Every attachment of the project: the list says which volumes are attached, each volume to what. */
async function list(ctx: Context, projectId: string | undefined) {
  const project = projectOf(ctx, { projectId });
  return (await attachmentsIn(ctx, project)).flatMap(({ volume }) => {
    const attachment = attachmentOf(volume, undefined, project);
    return attachment ? [{ ...attachment, id: attachmentId(attachment.volumeId!, attachment.containerId!) }] : [];
  });
}

/** Where a volume is attached, as its GET shows it: the hold an attachment's create may take over. */
type Hold = Pick<VolumeAttachment, "volumeId" | "containerId" | "mountPath" | "readOnly" | "projectId">;

/** The volume's hold on this app, if it is attached there. */
function heldBy(volume: VolumeRecord, containerId: string, project: string): Hold | undefined {
  const held = volume.attachment;
  return held?.containerId === containerId ? { volumeId: volume.id, projectId: project, ...held } : undefined;
}

/**
 * The hold a create takes over, read now: it detaches it first, and attaches it back if its own attach fails. This is
 * why a replacement ends attached exactly once whichever of the engine's ways made it, with no failed `up`:
 * - the attachment it replaces, when this run's Diff or the engine's Check named it (`replacementTrigger`, and a move
 *   to the app that replaced the old one under `replaceWith` or `deletedWith`), while that one still holds its
 *   volume: the engine creates a replacement before it deletes the old one unless deleteBeforeReplace says otherwise
 *   (after a delete first there is nothing left to take over);
 * - else the volume already attached to this same app: `pulumi up --replace` and `pulumi state taint` send no old
 *   inputs, so their create cannot be told from a new resource's; the volume on this very app is the attachment it
 *   replaces, or a second VolumeAttachment of the same pair (then the create warns).
 * A volume on another app that is not the attachment replaced is never taken: VOLUME_ALREADY_ATTACHED stands.
 * No hold is left twice, nor the volume on no app: the old attachment's delete finds its app no longer holds the
 * volume (a 404: nothing to detach), or learns that its successor holds the same `<volumeId>:<containerId>` under a
 * new attachmentId (see `delete`); under `deletedWith` the engine sends none when the app goes too.
 */
async function holdToTakeOver(
  ctx: Context,
  inputs: VolumeAttachment,
  replacing: Partial<VolumeAttachment> | undefined,
): Promise<Hold | undefined> {
  const old = replacing?.volumeId && replacing.containerId ? replacing : undefined;
  const [volumeId, containerId] = old ? [old.volumeId!, old.containerId!] : [inputs.volumeId, inputs.containerId];
  const project = old?.projectId ?? inputs.projectId!;
  const volume = await ctx.client.of(volumes).findRecord(project, volumeId, { signal: ctx.signal });
  return volume && heldBy(volume, containerId, project);
}

/**
 * The ReadWriteOnce rules (API document, section 8) against the live world, before any write:
 * one consumer a volume, one replica an app that has one, one volume a mount path. The hold a
 * create takes over does not count (`holdToTakeOver`): the attachment it `replaced`, or without
 * one the volume's hold on this same app.
 */
async function readWriteOnceRefusal(
  ctx: Context,
  news: VolumeAttachment,
  replaced?: Partial<VolumeAttachment>,
): Promise<string | undefined> {
  if (containsUnknown(news)) return undefined; // judged again before the real write, when it is known
  const project = news.projectId!;
  // Each looked for twice before it counts as missing, as a Read looks (client.ts `find`).
  const [target, app, apps, attachments] = await Promise.all([
    ctx.client.of(volumes).find(project, news.volumeId, { signal: ctx.signal }),
    ctx.client.of(services).find(project, news.containerId, { signal: ctx.signal }),
    ctx.client.of(services).list(project, { signal: ctx.signal }),
    attachmentsIn(ctx, project),
  ]);
  if (!target)
    return `volumeId ${news.volumeId} is not a volume of project ${project} (looked for twice), so nothing was sent: use the id of a Volume of the same project (for example data.id).`;
  if (!app)
    return `containerId ${news.containerId} is not an app of project ${project} (looked for twice), so nothing was sent: use the id of a Container of the same project (for example web.id).`;
  const nameOf = (id: string) => apps.find((s) => s.id === id)?.name ?? id;
  const consumer = attachments.find((a) => a.volume.id === target.id);
  const freed =
    replaced ?? (consumer?.containerId === app.id ? { volumeId: target.id, containerId: app.id } : undefined);
  const holds = (volumeId: string, containerId: string) =>
    !(freed?.volumeId === volumeId && freed?.containerId === containerId);
  if (consumer && holds(target.id, consumer.containerId)) {
    if (consumer.containerId === app.id) {
      return `ALREADY_ATTACHED (ReadWriteOnce): volume ${target.name} is already attached to app ${app.name}, at ${consumer.mountPath}, by another attachment than the one this replaces. A volume attaches once: keep the VolumeAttachment that holds it (change its mountPath there), or delete that one first.`;
    }
    return `VOLUME_ALREADY_ATTACHED (ReadWriteOnce): volume ${target.name} is attached to app ${nameOf(consumer.containerId)} at ${consumer.mountPath}, and a volume has one consumer at a time, so it cannot also be attached to app ${app.name}. To move it, change the containerId of the VolumeAttachment that holds it (it detaches first); or delete that VolumeAttachment first.`;
  }
  if ((app.replicas ?? 1) > 1) {
    return `RWO_REPLICA_LIMIT (ReadWriteOnce): app ${app.name} runs ${app.replicas} replicas, and a volume attaches only to an app of one replica, so volume ${target.name} cannot be attached to it. Set replicas: 1 on app ${app.name} first, or attach the volume to an app of one replica.`;
  }
  const clash = attachments.find(
    (a) =>
      a.containerId === app.id &&
      a.mountPath === news.mountPath &&
      a.volume.id !== target.id &&
      holds(a.volume.id, a.containerId),
  );
  if (clash) {
    return `MOUNT_PATH_IN_USE (ReadWriteOnce): app ${app.name} already has volume ${clash.volume.name} at ${news.mountPath}, so volume ${target.name} cannot be mounted there too. Choose another mountPath, or detach volume ${clash.volume.name} from it first.`;
  }
  return undefined;
}

/** Detaches the hold a create takes over (`holdToTakeOver`), saying so; the attach that follows restarts its app. */
async function takenOver(ctx: Context, held: Hold, replacing: Partial<VolumeAttachment> | undefined): Promise<void> {
  if (!replacing)
    ctx.warn(
      `volume ${held.volumeId} was already attached to app ${held.containerId} at ${held.mountPath}, so this VolumeAttachment detaches it and attaches it again as its own: that is how \`pulumi up --replace\` and \`pulumi state taint\` replace one (the old one's delete then leaves the volume attached). If neither ran, another VolumeAttachment holds this volume too: keep only one of them, since deleting either detaches it.`,
    );
  ctx.progress(`detaching volume ${held.volumeId} from app ${held.containerId} (at ${held.mountPath}) first`);
  await ignoringNotFound(() =>
    ctx.client
      .of(volumes)
      .act(
        held.projectId,
        held.volumeId,
        "detach",
        { body: { containerId: held.containerId } },
        { signal: ctx.signal },
      ),
  );
}

/**
 * A move (a replacement detaches before it attaches) whose attach failed: the volume goes back
 * where it was, recorded as the resource, so that nothing is lost and the next preview shows the move again.
 */
async function attachedBack(
  ctx: Context,
  old: Partial<VolumeAttachment>,
  inputs: VolumeAttachment,
  err: unknown,
): Promise<never> {
  const why = (err as Error).message;
  const project = old.projectId ?? inputs.projectId!;
  const back = { containerId: old.containerId!, mountPath: old.mountPath!, readOnly: old.readOnly ?? false };
  ctx.progress(`attaching volume ${inputs.volumeId} back to app ${back.containerId} at ${back.mountPath}`);
  let again: AttachmentRecord | undefined;
  try {
    again = await ctx.client
      .of(volumes)
      .act(project, old.volumeId!, "attach", { body: back, answer: AttachmentRecord }, { signal: ctx.signal });
  } catch (backErr) {
    if (!outcomeUnknown(backErr) || !(await attachedAnyway(ctx, project, old.volumeId!, back)))
      throw new Error(
        `moving volume ${inputs.volumeId} to app ${inputs.containerId} failed: ${why}; and attaching it back to app ${back.containerId} at ${back.mountPath} failed too: ${(backErr as Error).message}. The volume is attached to no app now (it and its data are safe, and still in state); \`pulumi up\` tries the move again.`,
      );
  }
  // An answer lost (the volume shows it attached back): the new attachment's id and time are not known.
  throw new PartialFailure(
    `moving volume ${inputs.volumeId} to app ${inputs.containerId} at ${inputs.mountPath} failed: ${why}. It had been detached from app ${back.containerId} first (a ReadWriteOnce volume has one consumer), so it is attached back there, at ${back.mountPath}: nothing changed on the platform, and the next preview shows the move again.`,
    attachmentId(old.volumeId!, back.containerId),
    defined({ ...old, attachmentId: again?.id, createdAt: again?.createdAt }) as PropertyMap,
  );
}

/**
 * The attach restarts the app (API document, section 3): awaited, and a failure to come back fails the attach, recorded
 * in state.
 */
async function restartedWith(
  ctx: Context,
  inputs: VolumeAttachment,
  outputs: Partial<VolumeAttachment>,
): Promise<Partial<VolumeAttachment>> {
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
    judge: (ctx, { operation, news, olds }) =>
      readWriteOnceRefusal(ctx, news, operation === "replacement" ? olds : undefined),
    async create(ctx, inputs, { replacing } = {}) {
      const id = attachmentId(inputs.volumeId, inputs.containerId);
      const body = { containerId: inputs.containerId, mountPath: inputs.mountPath, readOnly: inputs.readOnly };
      const held = await holdToTakeOver(ctx, inputs, replacing);
      if (held) await takenOver(ctx, held, replacing);
      let attached: AttachmentRecord | undefined;
      try {
        attached = await ctx.client
          .of(volumes)
          .act(inputs.projectId, inputs.volumeId, "attach", { body, answer: AttachmentRecord }, { signal: ctx.signal });
      } catch (err) {
        if (!outcomeUnknown(err) || !(await attachedAnyway(ctx, inputs.projectId, inputs.volumeId, body))) {
          // Detached first (here, or by the delete of a delete-before-replace): the volume goes back where it was.
          const back = held ?? (replacing?.containerId && replacing.volumeId ? replacing : undefined);
          if (back) return attachedBack(ctx, back, inputs, err);
          throw err;
        }
      }
      if (!attached) {
        ctx.warn(
          "the answer to the attach request was lost, but the volume shows the attachment, so it is recorded; its attachmentId and createdAt are not known (the API returns them only in that answer).",
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
    async delete(ctx, address, outputs, { successor } = {}) {
      const { volumeId, containerId } = parseAttachmentId(address.id);
      const project = projectOf(ctx, address, outputs);
      // The old one of a replacement that was created first, on the same volume and app: the attachment there is its
      // successor's, made after this one (the platform's attachment record has another id), which a detach would take
      // away. A successor whose attach answer was lost has no attachmentId to tell by: this detaches, and the next
      // refresh reads it gone, so that `pulumi up` attaches it again.
      const successorHolds =
        successor?.id === address.id &&
        successor.outputs.attachmentId !== undefined &&
        successor.outputs.attachmentId !== outputs.attachmentId;
      if (successorHolds) {
        ctx.progress(
          `volume ${volumeId} stays attached to app ${containerId}: the VolumeAttachment that replaced this one holds it`,
        );
        return;
      }
      const detached = await ctx.client
        .of(volumes)
        .act(project, volumeId, "detach", { body: { containerId } }, { signal: ctx.signal })
        .then(
          () => true,
          (err: unknown) => {
            if (isNotFound(err)) return false; // already detached (a replacement moved it) or gone
            throw err;
          },
        );
      // The detach restarts the app (API document, section 3): a failure to come back fails the delete, which keeps it
      // in state. Nothing detached, or an app deleted meanwhile, has nothing to restart.
      if (!detached) return;
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
