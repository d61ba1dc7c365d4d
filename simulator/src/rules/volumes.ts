// Block volumes and their attachments (document 2.8, 2.9, 3, 4.5, 7 and 8).
// The order of the checks in each operation is part of the contract; see the comments.
import { randomUUID } from "node:crypto";
import { after, iso } from "../clock";
import { type Ctx, type Reply, type Route, PROJECT_PATH, created, noContent, ok } from "../context";
import { ApiFailure, conflict, notFound, validationFailed } from "../errors";
import type { Store } from "../state";
import { optionalBool, requiredInt, requiredName, requiredString } from "../validate";
import { billingGate, projectNotSuspended } from "./gates";
import { type SimService, appendLog, findService, startService, touch } from "./services";

/** Document section 2.8. */
export interface SimVolume {
  id: string;
  project_id: string;
  name: string;
  display_name: string;
  size_gb: number;
  storage_class: string;
  access_mode: string;
  status: string;
  status_reason: string;
  created_at: string;
  updated_at: string;
  /** Simulator-only: epoch ms at which provisioning completes; null = no pending transition. */
  ready_at: number | null;
}

/** Document section 2.9. */
export interface SimAttachment {
  id: string;
  volume_id: string;
  container_id: string;
  mount_path: string;
  read_only: boolean;
  created_at: string;
}

declare module "../types" {
  interface SimRecords {
    volumes: SimVolume;
    attachments: SimAttachment;
  }
}

const WIRE_VOLUME_FIELDS = [
  "id",
  "project_id",
  "name",
  "display_name",
  "size_gb",
  "storage_class",
  "access_mode",
  "status",
  "status_reason",
  "created_at",
  "updated_at",
] as const;

function toWireVolume(volume: SimVolume): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const field of WIRE_VOLUME_FIELDS) wire[field] = volume[field];
  return wire;
}

const toWireAttachment = (attachment: SimAttachment) => ({ ...attachment });

function attachmentOf(store: Store, volumeId: string): SimAttachment | undefined {
  return store.state.attachments.find((attachment) => attachment.volume_id === volumeId);
}

/** The single-volume form: the record with `attachment` (or null). */
function withAttachment(store: Store, volume: SimVolume): Record<string, unknown> {
  const attachment = attachmentOf(store, volume.id);
  return {
    ...toWireVolume(volume),
    attachment: attachment
      ? { container_id: attachment.container_id, mount_path: attachment.mount_path, read_only: attachment.read_only }
      : null,
  };
}

function requireVolume(ctx: Ctx): SimVolume {
  const id = ctx.params.volumeId;
  const volume = ctx.store.state.volumes.find((v) => v.id === id && v.project_id === ctx.params.projectId);
  if (!volume) throw notFound(`volume ${id}`);
  return volume;
}

/** Capacity is per user: every volume in the caller's projects counts. */
function reservedGb(ctx: Ctx): number {
  const projects = new Set(ctx.user.projects);
  return ctx.store.state.volumes
    .filter((volume) => projects.has(volume.project_id))
    .reduce((sum, volume) => sum + volume.size_gb, 0);
}

function capacityGate(ctx: Ctx, additionalGb: number): void {
  const reserved = reservedGb(ctx);
  if (reserved + additionalGb > ctx.switches.capacityGb) {
    throw conflict(
      "INSUFFICIENT_CAPACITY",
      `cannot reserve ${additionalGb} GB more: ${reserved} of ${ctx.switches.capacityGb} GB already reserved`,
    );
  }
}

/** A new volume reads `running` once its provisioning time has passed. */
export function settleVolume(volume: SimVolume, _store: Store, now: number): void {
  if (volume.status !== "provisioning" || volume.ready_at === null || volume.ready_at > now) return;
  volume.status = "running";
  volume.status_reason = "";
  volume.ready_at = null;
}

export function listVolumes(ctx: Ctx): Reply {
  const volumes = ctx.store.state.volumes.filter((volume) => volume.project_id === ctx.params.projectId);
  return ok({
    volumes: volumes.map((volume) => ({
      ...toWireVolume(volume),
      attached: attachmentOf(ctx.store, volume.id) !== undefined,
    })),
  });
}

export function getVolume(ctx: Ctx): Reply {
  return ok(withAttachment(ctx.store, requireVolume(ctx)));
}

// Order: feature switch 403, validation 400, project suspended 409, billing 402/403, capacity 409, name 409.
export function createVolume(ctx: Ctx): Reply {
  if (!ctx.switches.volumesEnabled) {
    throw new ApiFailure(403, "BLOCK_VOLUME_DISABLED", "block volumes are not enabled");
  }
  const fields = ctx.body();
  const name = requiredName(fields);
  const sizeGb = requiredInt(fields, "size_gb", 1);
  const projectId = ctx.params.projectId;
  projectNotSuspended(ctx.store, projectId);
  billingGate(ctx.switches.billing);
  capacityGate(ctx, sizeGb);
  if (ctx.store.state.volumes.some((volume) => volume.project_id === projectId && volume.name === name)) {
    throw conflict("NAME_TAKEN", `a volume named ${name} already exists in this project`);
  }

  const delay = ctx.switches.volumeProvisioningMs;
  const now = iso(ctx.now);
  const volume: SimVolume = {
    id: randomUUID(),
    project_id: projectId,
    name,
    display_name: name,
    size_gb: sizeGb,
    storage_class: "block-durable",
    access_mode: "ReadWriteOnce",
    status: "provisioning",
    status_reason: "provisioning disk",
    created_at: now,
    updated_at: now,
    ready_at: delay < 0 ? null : ctx.now + delay,
  };
  ctx.store.state.volumes.push(volume);
  return created(withAttachment(ctx.store, volume));
}

// Order: 404, validation 400, project suspended 409, shrink 400 (before any gate), same size 200
// (no gate at all), growth: billing 402/403 then capacity 409 for the growth only.
export function resizeVolume(ctx: Ctx): Reply {
  const volume = requireVolume(ctx);
  const sizeGb = requiredInt(ctx.body(), "size_gb", 1);
  projectNotSuspended(ctx.store, volume.project_id);
  if (sizeGb < volume.size_gb) {
    throw new ApiFailure(
      400,
      "SHRINK_NOT_SUPPORTED",
      `size_gb ${sizeGb} is smaller than the current ${volume.size_gb}; volumes only grow`,
    );
  }
  if (sizeGb > volume.size_gb) {
    billingGate(ctx.switches.billing);
    capacityGate(ctx, sizeGb - volume.size_gb);
    volume.size_gb = sizeGb;
    volume.updated_at = after(volume.updated_at, ctx.now);
  }
  return ok(withAttachment(ctx.store, volume));
}

export function deleteVolume(ctx: Ctx): Reply {
  const volume = requireVolume(ctx);
  if (attachmentOf(ctx.store, volume.id)) {
    throw conflict("VOLUME_ATTACHED", `volume ${volume.name} is attached; detach it first`);
  }
  ctx.store.state.volumes = ctx.store.state.volumes.filter((candidate) => candidate !== volume);
  return noContent();
}

function readMountPath(value: string): string {
  if (!value.startsWith("/") || value === "/" || value.split("/").includes("..") || value.includes("\0")) {
    throw validationFailed("mount_path: must be an absolute path below /, without '..'");
  }
  return value;
}

/** Volumes attach to container apps only; a managed database is not an attach target. */
function requireTarget(ctx: Ctx, containerId: string): SimService {
  const target = findService(ctx.store, ctx.params.projectId, containerId);
  if (target?.type !== "container") throw notFound(`container ${containerId}`);
  return target;
}

// Order: volume 404, validation 400, target 404, project suspended 409, then the ReadWriteOnce
// rules: same target 409 ALREADY_ATTACHED, other target 409 VOLUME_ALREADY_ATTACHED,
// replicas 409 RWO_REPLICA_LIMIT, mount path 409 MOUNT_PATH_IN_USE.
export function attachVolume(ctx: Ctx): Reply {
  const volume = requireVolume(ctx);
  const fields = ctx.body();
  const containerId = requiredString(fields, "container_id");
  const mountPath = readMountPath(requiredString(fields, "mount_path"));
  const readOnly = optionalBool(fields, "read_only") ?? false;
  const target = requireTarget(ctx, containerId);
  projectNotSuspended(ctx.store, volume.project_id);

  const existing = attachmentOf(ctx.store, volume.id);
  if (existing?.container_id === target.id) {
    throw conflict("ALREADY_ATTACHED", `volume ${volume.name} is already attached to this container`);
  }
  if (existing) {
    throw conflict("VOLUME_ALREADY_ATTACHED", `volume ${volume.name} is already attached to another service`);
  }
  if (target.replicas > 1) {
    throw conflict(
      "RWO_REPLICA_LIMIT",
      `container ${target.name} runs ${target.replicas} replicas; a ReadWriteOnce volume needs at most one`,
    );
  }
  const pathTaken = ctx.store.state.attachments.some(
    (attachment) => attachment.container_id === target.id && attachment.mount_path === mountPath,
  );
  if (pathTaken) {
    throw conflict("MOUNT_PATH_IN_USE", `container ${target.name} already has a volume at ${mountPath}`);
  }

  const attachment: SimAttachment = {
    id: randomUUID(),
    volume_id: volume.id,
    container_id: target.id,
    mount_path: mountPath,
    read_only: readOnly,
    created_at: iso(ctx.now),
  };
  ctx.store.state.attachments.push(attachment);
  restartFor(ctx, target, `volume ${volume.name} attached at ${mountPath}`);
  return created(toWireAttachment(attachment));
}

// Order: volume 404, validation 400, no such attachment 404.
export function detachVolume(ctx: Ctx): Reply {
  const volume = requireVolume(ctx);
  const containerId = requiredString(ctx.body(), "container_id");
  const attachment = attachmentOf(ctx.store, volume.id);
  if (!attachment || attachment.container_id !== containerId) {
    throw notFound(`attachment of volume ${volume.id} to container ${containerId}`);
  }
  ctx.store.state.attachments = ctx.store.state.attachments.filter((candidate) => candidate !== attachment);
  const consumer = findService(ctx.store, volume.project_id, containerId);
  if (consumer) restartFor(ctx, consumer, `volume ${volume.name} detached from ${attachment.mount_path}`);
  return noContent();
}

/**
 * Attach and detach restart the consumer: it reads `provisioning` until serviceStartMs has passed
 * (then `running`, or `failed` for a crashing image).
 * A stopped consumer stays stopped; the change takes effect when it starts.
 */
function restartFor(ctx: Ctx, service: SimService, reason: string): void {
  touch(service, ctx.now);
  if (service.status === "stopped") {
    appendLog(ctx.store, service.id, ctx.now, `${reason} (stopped: takes effect on start)`);
    return;
  }
  startService(ctx, service, `restarted: ${reason}`);
}

const VOLUME = `${PROJECT_PATH}/volumes/:volumeId`;

export const VOLUME_ROUTES: readonly Route[] = [
  {
    method: "POST",
    pattern: `${PROJECT_PATH}/volumes`,
    body: ["name", "size_gb"],
    doc: {
      body: "`name`, `size_gb` (required)",
      answers:
        "201: the volume (`provisioning`, `attachment: null`); 403 `BLOCK_VOLUME_DISABLED`, 409 `PROJECT_SUSPENDED`, 402/403 billing, 409 `INSUFFICIENT_CAPACITY`, 409 `NAME_TAKEN`",
    },
    handler: createVolume,
  },
  {
    method: "GET",
    pattern: `${PROJECT_PATH}/volumes`,
    doc: { answers: "200: `{volumes}`, each with `attached`" },
    handler: listVolumes,
  },
  {
    method: "GET",
    pattern: VOLUME,
    doc: {
      answers: "200: the volume with its `attachment` (`container_id`, `mount_path`, `read_only`) or `null`",
    },
    handler: getVolume,
  },
  {
    method: "PATCH",
    pattern: VOLUME,
    body: ["size_gb"],
    doc: {
      body: "`size_gb` (required)",
      answers:
        "200: the volume; 400 `SHRINK_NOT_SUPPORTED`, 409 `PROJECT_SUSPENDED`, 402/403 billing and 409 `INSUFFICIENT_CAPACITY` for growth",
    },
    handler: resizeVolume,
  },
  { method: "DELETE", pattern: VOLUME, doc: { answers: "204; 409 `VOLUME_ATTACHED`" }, handler: deleteVolume },
];

/** An attachment is made and ended through its volume's path (document 4.5). */
export const ATTACHMENT_ROUTES: readonly Route[] = [
  {
    method: "POST",
    pattern: `${VOLUME}/attach`,
    body: ["container_id", "mount_path", "read_only"],
    doc: {
      body: "`container_id`, `mount_path` (required), `read_only` (default false)",
      answers:
        "201: the attachment, and the app restarts; 404 a target that is not an app, 409 `PROJECT_SUSPENDED`, `ALREADY_ATTACHED`, `VOLUME_ALREADY_ATTACHED`, `RWO_REPLICA_LIMIT`, `MOUNT_PATH_IN_USE`",
    },
    handler: attachVolume,
  },
  {
    method: "POST",
    pattern: `${VOLUME}/detach`,
    body: ["container_id"],
    doc: { body: "`container_id` (required)", answers: "204, and the app restarts; 404 no such attachment" },
    handler: detachVolume,
  },
];
