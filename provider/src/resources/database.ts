// The managed databases (Postgres, MySQL, Redis) share one shape and one lifecycle; each has
// its own file that names it. The API can create and delete them, not resize them.
import { z } from "zod";
import type { Collection } from "../api/client";
import { toWire } from "../api/wire";
import { PartialFailure } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { atLeast } from "../framework/validators";
import type { PropertyMap } from "../framework/values";
import {
  defined,
  listedIn,
  output,
  projectName,
  projectId,
  projectOf,
  settled,
  type Context,
  type Declaration,
} from "./common";
import { ConnectionRecord, ServiceRecord, deleteService, serviceKind, serviceNamed, services } from "./services";

/** How to reach a managed database from an app in the same project. */
export interface DatabaseConnection {
  /** In-cluster address with port. */
  host: string;
  /** Port number, as a string. */
  port: string;
  /** Name of the environment variable that carries the connection URL into linked apps. */
  envVar: string;
  /** Connection instructions, including credentials. Secret. */
  instructions: string;
  /** Whether clients must authenticate. */
  requiresAuth: boolean;
}

/** Properties common to the managed databases. */
export interface ManagedDatabase {
  /** Name of the database service, unique within its project. */
  name?: string;
  /** Project to create the database in. */
  projectId?: string;
  /**
   * CPU in milli-cores.
   * @TJS-type integer
   */
  cpuMilli?: number;
  /**
   * Memory in megabytes.
   * @TJS-type integer
   */
  memoryMb?: number;
  /**
   * Storage in gigabytes.
   * @TJS-type integer
   */
  storageGb?: number;
  /** Status reported by the platform: a create returns once it reads `running`. */
  status: string;
  /** In-cluster address of the database service. */
  internalHost: string;
  /** Public URL, when the platform gives the database one. */
  publicUrl?: string;
  /** Runtime reported by the platform (`postgres-16`). */
  runtime: string;
  /** When the database was created (ISO 8601, UTC). */
  createdAt: string;
  /** When the database last changed (ISO 8601, UTC). */
  updatedAt: string;
  /** How to connect; `instructions` is secret. */
  connection: DatabaseConnection;
}

const noResize = (label: string) =>
  `the API cannot resize a managed ${label} database. To change its size deliberately, create a new database under a new name and move the data, or replace this one with \`pulumi up --replace <urn>\` and the resource option \`deleteBeforeReplace: true\` (the name stays taken until the old one is deleted), which deletes it and its data.`;

export function databaseFlags(label: string) {
  const fixed = { validate: atLeast(1), fixedAfterCreate: noResize(label) };
  return {
    name: projectName,
    projectId,
    cpuMilli: fixed,
    memoryMb: fixed,
    storageGb: fixed,
    status: output,
    internalHost: output,
    publicUrl: output,
    runtime: output,
    createdAt: output,
    updatedAt: output,
    connection: { output: true, secretSubfields: ["instructions"] },
  } satisfies FlagsOf<ManagedDatabase>;
}

export function connectionFromWire(connection: ConnectionRecord): DatabaseConnection {
  return {
    host: connection.host,
    port: connection.port,
    envVar: connection.envVar,
    instructions: connection.instructions ?? "",
    requiresAuth: String(connection.requiresAuth).toLowerCase() === "true",
  };
}

export function databaseFromWire(service: ServiceRecord, connection = service.connection): Partial<ManagedDatabase> {
  return defined({
    name: service.name,
    projectId: service.projectId,
    cpuMilli: service.cpuMilli,
    memoryMb: service.memoryMb,
    storageGb: service.storageGb,
    status: service.status,
    internalHost: service.internalHost,
    publicUrl: service.publicUrl,
    runtime: service.runtime,
    createdAt: service.createdAt,
    updatedAt: service.updatedAt,
    connection: connection ? connectionFromWire(connection) : undefined,
  });
}

/** The answer of POST /<kind> (API document 2.5). */
const DatabaseCreated = z.object({ service: ServiceRecord, connection: ConnectionRecord });
type DatabaseCreated = z.output<typeof DatabaseCreated>;

export interface DatabaseKind {
  /** Its service type, which is also where it is created (`postgres`: POST /postgres). */
  type: string;
  typeName: string;
  /** What messages call the engine (`PostgreSQL`), and what lookups call the resource (`Postgres database`). */
  label: string;
  noun: string;
  /** The name its example gives it. */
  example: string;
}

/**
 * Where a database of this type is created (POST /<type>). It is read, listed and deleted with the
 * other services; a create whose answer was lost finds it there, and rebuilds {service, connection}.
 */
export const databaseCreation = (type: string): Collection<DatabaseCreated> => ({
  path: type,
  scope: "project",
  record: DatabaseCreated,
  created: {
    in: services,
    match: (s: ServiceRecord, body) => s.name === body.name && s.type === type && sizedAsAsked(s, body.resources),
    proof: "createdAt",
    createdAt: (s: ServiceRecord) => s.createdAt,
    answer: (s: ServiceRecord) => (s.connection ? { service: s, connection: s.connection } : undefined),
  },
});

/** Whether a service has the sizes a create asked for (`resources` as sent, in the API's spelling). */
const sizedAsAsked = (s: ServiceRecord, resources: Record<string, number> = {}) =>
  (resources.cpu_milli ?? s.cpuMilli) === s.cpuMilli &&
  (resources.memory_mb ?? s.memoryMb) === s.memoryMb &&
  (resources.storage_gb ?? s.storageGb) === s.storageGb;

/**
 * Waits until the new database reads `running`, with progress; `failed`, a timeout or a Cancel end
 * in a PartialFailure that records it (the next \`pulumi up\` waits again), never an orphan.
 */
async function running(
  ctx: Context,
  service: ServiceRecord,
  connection: DatabaseConnection | undefined,
  label: string,
): Promise<Partial<ManagedDatabase>> {
  const project = service.projectId;
  // The service record may omit the connection; the one from creation still holds then.
  const outputsOf = (last: ServiceRecord | undefined) =>
    ({ connection, ...databaseFromWire(last ?? service) }) as PropertyMap;
  const live = await settled(ctx, {
    source: listedIn(ctx, services, project),
    id: service.id,
    subject: `${label} database ${service.name}`,
    until: "be running",
    unfinished: "is not running yet",
    done: (s) => s.status !== "provisioning",
    initial: service,
    outputsOf,
  });
  if (live.status !== "running") {
    throw new PartialFailure(
      `${label} database ${service.name} did not start: its status is "${live.status}". It is recorded in state; the platform's support can say why, and \`pulumi up\` waits for it again.`,
      service.id,
      outputsOf(live),
    );
  }
  return outputsOf(live) as Partial<ManagedDatabase>;
}

/** A managed database of one kind. */
export function managedDatabase({
  type,
  typeName,
  label,
  noun,
  example,
}: DatabaseKind): Declaration<ManagedDatabase, ReturnType<typeof databaseFlags>> {
  const kind = serviceKind(type, typeName);
  const creating = databaseCreation(type);
  return {
    typeName,
    flags: databaseFlags(label),
    scope: "project",
    unfinished: (live) =>
      live.status !== undefined && live.status !== "running"
        ? `${label} database ${live.name} is not running yet: its status is "${live.status}"; the next \`pulumi up\` waits for it again`
        : undefined,
    list: async (ctx, projectId) =>
      (await kind.list(ctx, projectOf(ctx, { projectId }))).map((s) => ({ ...databaseFromWire(s), id: s.id })),
    lookups: {
      byIdOrName: {
        noun,
        show: "internalHost",
        findByName: (ctx, n, projectId) => serviceNamed(ctx, n, projectOf(ctx, { projectId })),
      },
    },
    export: { word: type },
    examples: [
      {
        title: `A ${label} database`,
        name: example,
        inputs: { cpuMilli: 500, memoryMb: 1024, storageGb: 10 },
      },
    ],
    lifecycle: {
      dataAtStake: (olds) =>
        `${label} database ${olds.name} and all its data${olds.storageGb ? ` (${olds.storageGb} GB of storage)` : ""}`,
      async create(ctx, inputs) {
        const resources = defined({
          cpuMilli: inputs.cpuMilli,
          memoryMb: inputs.memoryMb,
          storageGb: inputs.storageGb,
        });
        const body = {
          name: inputs.name,
          ...(Object.keys(resources).length > 0 ? { resources: toWire(resources) } : {}),
        };
        const created = await ctx.client.of(creating).create(inputs.projectId, body, ctx.creating);
        ctx.made(created.service.id, databaseFromWire(created.service) as PropertyMap);
        return {
          id: created.service.id,
          outputs: await running(ctx, created.service, connectionFromWire(created.connection), label),
        };
      },
      async read(ctx, address, { outputs }) {
        const service = await kind.read(ctx, projectOf(ctx, address, outputs), address.id);
        if (!service) return undefined;
        // The service record may omit the connection; the one from creation still holds then.
        return {
          ...databaseFromWire(service),
          connection: service.connection ? connectionFromWire(service.connection) : outputs.connection,
        };
      },
      // Update refuses every change the API cannot make (all of them): what is left is the retry of a
      // create whose wait ended early, which waits again.
      async update(ctx, address, { olds }) {
        const service = await kind.read(ctx, projectOf(ctx, address, olds), address.id);
        if (!service)
          throw new Error(
            `${label} database ${olds.name ?? address.id} is gone: run \`pulumi refresh\`, then \`pulumi up\` creates it again`,
          );
        return running(ctx, service, olds.connection, label);
      },
      async delete(ctx, address, outputs) {
        await deleteService(
          ctx,
          projectOf(ctx, address, outputs),
          address.id,
          `${label} database ${outputs.name ?? address.id}`,
        );
      },
    },
  };
}
