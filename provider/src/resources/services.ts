// The services collection: apps (Container) and managed databases (Postgres, Mysql, Redis) are
// all service records, listed together at /containers and told apart by `type`. There is no GET
// of one service: it is read from the list. A managed database is deleted at /containers/{id} too.
import { z } from "zod";
import type { Collection } from "../api/client";
import { InputError } from "../framework/declare";
import { integer, listOf, optional, record, stringMap, text, textual } from "../api/wire";
import type { PropertyValue } from "../framework/values";
import { awaitGone, ignoringNotFound, listedIn, orGone, type Context } from "./common";

/** How to reach a managed database (API document 2.2). */
export const ConnectionRecord = record({
  host: text(),
  port: textual(),
  envVar: text(),
  instructions: optional(text()),
  requiresAuth: optional(textual()),
});
export type ConnectionRecord = z.output<typeof ConnectionRecord>;

/** A service record (API document 2.1). */
export const ServiceRecord = record({
  id: text(),
  projectId: text(),
  name: text(),
  displayName: optional(text()),
  type: text(),
  runtime: optional(text()),
  image: optional(text()),
  port: optional(integer()),
  replicas: optional(integer()),
  status: text(),
  internalHost: optional(text()),
  publicUrl: optional(text()),
  public: optional(z.boolean()),
  cpuMilli: optional(integer()),
  memoryMb: optional(integer()),
  storageGb: optional(integer()),
  env: stringMap(),
  connection: optional(ConnectionRecord),
  createdAt: optional(text()),
  updatedAt: optional(text()),
  marketplaceApp: optional(text()),
});
export type ServiceRecord = z.output<typeof ServiceRecord>;

export const services: Collection<ServiceRecord> = {
  path: "containers",
  scope: "project",
  record: ServiceRecord,
  list: listOf(ServiceRecord),
  update: "PATCH",
  // Names are unique in a project; one with the name, image and port sent, created since, is the one a create made.
  created: {
    match: (s: ServiceRecord, body) =>
      s.name === body.name && s.image === body.image && (s.port === undefined || s.port === body.httpPort),
    proof: "createdAt",
    createdAt: (s: ServiceRecord) => s.createdAt,
  },
  // Document 4.1. A stop leaves the app `stopped`; a start leaves it out of `stopped` (provisioning, then running or
  // failed); a restart is under way while it reads `provisioning`. A restart that already ended cannot be told from
  // one never made, so it is sent again: two restarts leave what one leaves.
  actions: {
    stop: { done: (now) => now?.status === "stopped" },
    start: { done: (now) => now !== undefined && now.status !== "stopped" },
    restart: { done: (now) => now?.status === "provisioning" },
  },
};

/** The service types a resource of this package manages, each declared by the resource's own file. */
const managedTypes = new Map<string, string>();

/** A kind of service: its `type` on the wire, and the resource that manages it. */
export function serviceKind(type: string, typeName: string) {
  managedTypes.set(type, typeName);
  return {
    type,
    /** This kind's service with this id, undefined when there is none; another kind's is an error that names it. */
    async read(ctx: Context, projectId: string, id: string): Promise<ServiceRecord | undefined> {
      const found = await orGone(() => ctx.client.of(services).find(projectId, id, { signal: ctx.signal }));
      if (found && found.type !== type) {
        throw new InputError(
          `service ${found.id} is a ${found.type}, not a ${type}, so it cannot be read as ${typeName}; use the resource (or lookup) of its kind`,
        );
      }
      return found;
    },
    /** This kind's services. */
    async list(ctx: Context, projectId: string): Promise<ServiceRecord[]> {
      return (await ctx.client.of(services).list(projectId, { signal: ctx.signal })).filter((s) => s.type === type);
    },
  };
}

/** The id of the service with this name, whatever its kind (so a lookup of the wrong kind can say which it is). */
export async function serviceNamed(ctx: Context, name: string, projectId: string): Promise<string | undefined> {
  return (await ctx.client.of(services).list(projectId, { signal: ctx.signal })).find((s) => s.name === name)?.id;
}

/**
 * The rule for ids that name services to link (a Container's `links`, a ServiceLink's two ids),
 * judged at preview: each known id must be a service of the project (absent twice, as a Read looks
 * twice before it reports a resource gone), and none the resource's own (`self`). Ids not known yet
 * (a resource the same run creates) pass, and are judged again before the real write.
 */
export async function notServices(
  ctx: Context,
  projectId: PropertyValue | undefined,
  ids: ReadonlyArray<{ path: string; id: PropertyValue | undefined }>,
  self?: { id: string; what: string },
): Promise<string | undefined> {
  if (typeof projectId !== "string") return undefined;
  const known = ids.filter((entry): entry is { path: string; id: string } => typeof entry.id === "string");
  const own = known.find((entry) => entry.id === self?.id);
  if (own && self)
    return `${own.path} is the ${self.what}'s own id (${own.id}): a service cannot be linked to itself; list the services it needs, such as its database (links: [db.id]).`;
  const found = await Promise.all(
    known.map((entry) => ctx.client.of(services).find(projectId, entry.id, { signal: ctx.signal })),
  );
  const missing = known.filter((_, i) => found[i] === undefined);
  if (missing.length === 0) return undefined;
  const listed = missing.map((entry) => `${entry.path} (${entry.id})`).join(", ");
  return `${listed} ${missing.length === 1 ? "is not a service" : "are not services"} of project ${projectId}: the project has no service with ${missing.length === 1 ? "that id" : "those ids"} (looked for twice), so nothing was sent. Use the id of a Postgres, Mysql, Redis or Container of the same project (for example db.id), from the program or from hosting.getContainers.`;
}

/** Services of a type no resource of this package manages (hosting-export leaves them out, and says so). */
export async function unmanagedServices(ctx: Context, projectId: string) {
  const list = await ctx.client.of(services).list(projectId, { signal: ctx.signal });
  return list.filter((s) => !managedTypes.has(s.type)).map((s) => ({ id: s.id, name: s.name, type: s.type }));
}

/** DELETE /containers/{id} (apps and managed databases alike), done when the service is gone from the list. */
export async function deleteService(ctx: Context, project: string, id: string, subject: string): Promise<void> {
  await ignoringNotFound(() => ctx.client.of(services).delete(project, id, { signal: ctx.signal }));
  await awaitGone(ctx, listedIn(ctx, services, project), id, subject);
}
