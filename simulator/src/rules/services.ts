// What containers and managed databases share: the service record, names, logs, restarts, removal.
import { randomUUID } from "node:crypto";
import { after, iso } from "../clock";
import type { Ctx } from "../context";
import { conflict, notFound } from "../errors";
import { endStatus, startEndedLines, startOutcome } from "../starts";
import type { Store } from "../state";
import type { ServiceType, SimState, StartOutcome, WireConnection } from "../types";

/** A container or managed database (document section 2.1). */
export interface SimService {
  id: string;
  project_id: string;
  name: string;
  display_name: string;
  type: ServiceType;
  runtime: string;
  image: string;
  port: number;
  replicas: number;
  status: string;
  internal_host: string;
  /** null for managed databases, which are not public. */
  public_url: string | null;
  public: boolean;
  cpu_milli: number;
  memory_mb: number;
  storage_gb: number;
  env: Record<string, string>;
  connection: WireConnection | null;
  created_at: string;
  updated_at: string;
  marketplace_app: string | null;
  /** Simulator-only: autoscaling owns `replicas`. */
  autoscaling: boolean;
  /** Simulator-only: epoch ms at which `provisioning` ends; null = no pending transition. */
  ready_at: number | null;
  /**
   * Simulator-only: the status `provisioning` ends in at `ready_at`, decided when the start began
   * (so it survives a restart of the simulator); null = no pending transition (older state files lack it: `running`).
   */
  start_outcome: StartOutcome | null;
}

declare module "../types" {
  interface SimRecords {
    services: SimService;
  }
}

export const WIRE_SERVICE_FIELDS = [
  "id",
  "project_id",
  "name",
  "display_name",
  "type",
  "runtime",
  "image",
  "port",
  "replicas",
  "status",
  "internal_host",
  "public_url",
  "public",
  "cpu_milli",
  "memory_mb",
  "storage_gb",
  "env",
  "connection",
  "created_at",
  "updated_at",
  "marketplace_app",
] as const;

export function toWireService(service: SimService): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const field of WIRE_SERVICE_FIELDS) wire[field] = structuredClone(service[field]);
  return wire;
}

/** `<service>.<namespace>.svc.cluster.local:<port>`; the namespace is derived from the project. */
export function internalHost(name: string, projectId: string, port: number): string {
  return `${name}.p-${projectId.slice(0, 8)}.svc.cluster.local:${port}`;
}

export function publicUrl(name: string, id: string): string {
  return `https://${name}-${id.slice(0, 6)}.apps.sim.hosting.test`;
}

export function findService(store: Store, projectId: string, id: string): SimService | undefined {
  return store.state.services.find((service) => service.id === id && service.project_id === projectId);
}

export function requireService(store: Store, projectId: string, id: string, what = "service"): SimService {
  const service = findService(store, projectId, id);
  if (!service) throw notFound(`${what} ${id}`);
  return service;
}

/** Containers and managed databases share one name space per project. */
export function assertNameFree(store: Store, projectId: string, name: string): void {
  if (store.state.services.some((service) => service.project_id === projectId && service.name === name)) {
    throw conflict("NAME_TAKEN", `a service named ${name} already exists in this project`);
  }
}

export function appendLog(store: Store, serviceId: string, now: number, text: string): void {
  (store.state.logs[serviceId] ??= []).push(`${iso(now)} ${text}`);
}

/** Env values may be secrets: a log line names the variables only. */
export function envLine(what: string, env: Record<string, string>): string {
  return `${what} (${Object.keys(env).sort().join(", ") || "empty"})`;
}

export function touch(service: SimService, now: number): void {
  service.updated_at = after(service.updated_at, now);
}

/** The service goes through `provisioning` again and reads `outcome` once `startMs` has passed. */
export function beginStart(service: SimService, now: number, startMs: number, outcome: StartOutcome): void {
  service.status = "provisioning";
  service.ready_at = now + Math.max(0, startMs);
  service.start_outcome = outcome;
}

/** Start (or start again) with the service's current image: whether it crashes is decided now. */
export function startService(ctx: Ctx, service: SimService, logLine: string): void {
  const conditions = { ...ctx.switches, injected: injectedInto(ctx.store.state, service.id) };
  beginStart(service, ctx.now, ctx.switches.serviceStartMs, startOutcome(service, conditions));
  appendLog(ctx.store, service.id, ctx.now, logLine);
}

/** Stopping is immediate and ends any pending start. */
export function stopService(service: SimService): void {
  service.status = "stopped";
  service.ready_at = null;
  service.start_outcome = null;
}

/** The variables the service's links inject into it. */
function injectedInto(state: SimState, serviceId: string): Set<string> {
  const links = state.links.filter((link) => link.consumer_service_id === serviceId);
  return new Set(links.flatMap((link) => Object.keys(link.injected_env)));
}

export function hasAttachment(store: Store, serviceId: string): boolean {
  return store.state.attachments.some((attachment) => attachment.container_id === serviceId);
}

/**
 * A start that is due ends in the outcome decided when it began. Its log lines carry the time it
 * ended, not the time a request noticed, so a world settled again from the state file logs the same lines.
 */
export function settleService(service: SimService, store: Store, now: number): void {
  if (service.status !== "provisioning" || service.ready_at === null || service.ready_at > now) return;
  const endedAt = service.ready_at;
  const outcome = service.start_outcome ?? "running";
  service.status = endStatus(outcome);
  service.ready_at = null;
  service.start_outcome = null;
  for (const line of startEndedLines(service, outcome)) appendLog(store, service.id, endedAt, line);
}

export function servicesIn(store: Store, projectId: string): SimService[] {
  return store.state.services.filter((service) => service.project_id === projectId);
}

/** What a new service record of any kind starts with; the caller gives the rest. */
type NewService = Omit<
  SimService,
  "id" | "status" | "created_at" | "updated_at" | "marketplace_app" | "autoscaling" | "ready_at" | "start_outcome"
>;

/**
 * Creates a service (container or managed database), logs `createdLines`, and starts it: it reads
 * `provisioning` until it has started.
 */
export function addService(
  ctx: Ctx,
  fields: NewService,
  createdLines: string[],
  id: string = randomUUID(),
): SimService {
  const now = iso(ctx.now);
  const service: SimService = {
    ...fields,
    id,
    status: "provisioning",
    created_at: now,
    updated_at: now,
    marketplace_app: null,
    autoscaling: false,
    ready_at: null,
    start_outcome: null,
  };
  ctx.store.state.services.push(service);
  for (const line of createdLines) appendLog(ctx.store, id, ctx.now, line);
  startService(ctx, service, `starting ${service.image}`);
  return service;
}
