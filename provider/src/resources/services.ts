// The services collection: apps (Container) and managed databases (Postgres, Mysql, Redis) are
// all service records, listed together at /containers and told apart by `type`. There is no GET
// of one service: it is read from the list. A managed database is deleted at /containers/{id} too.
import { z } from "zod";
import type { Collection } from "../api/client";
import { InputError } from "../framework/declare";
import { integer, listOf, optional, record, stringMap, text, textual } from "../api/wire";
import { awaitGone, ignoringNotFound, orGone, type Context } from "./common";

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

/** Services of a type no resource of this package manages (hosting-export leaves them out, and says so). */
export async function unmanagedServices(ctx: Context, projectId: string) {
  const list = await ctx.client.of(services).list(projectId, { signal: ctx.signal });
  return list.filter((s) => !managedTypes.has(s.type)).map((s) => ({ id: s.id, name: s.name, type: s.type }));
}

/** DELETE /containers/{id} (apps and managed databases alike), done when the service is gone from the list. */
export async function deleteService(ctx: Context, project: string, id: string, subject: string): Promise<void> {
  await ignoringNotFound(() => ctx.client.of(services).delete(project, id, { signal: ctx.signal }));
  await awaitGone(
    ctx,
    { key: `containers:${project}`, fetch: (signal) => ctx.client.of(services).list(project, { signal }) },
    id,
    subject,
  );
}
