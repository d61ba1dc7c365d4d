// The managed databases (Postgres, MySQL, Redis) share one shape and one lifecycle; each has
// its own file that names it. The API can create and delete them, not resize them.
import type { ConnectionRecord, DatabaseKind, ServiceRecord } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import { atLeast } from "../framework/validators";
import { defined, ignoringNotFound, name, ofKind, orGone, output, projectId, projectOf, type Declaration } from "./common";

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
  name: string;
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
  /** Status reported by the platform. */
  status: string;
  /** In-cluster address of the database service. */
  internalHost: string;
  /** How to connect; `instructions` is secret. */
  connection: DatabaseConnection;
}

const noResize = (label: string) =>
  `the API cannot resize a managed ${label} database. To change its size deliberately, create a new ` +
  `database under a new name and move the data, or replace this one with \`pulumi up --replace <urn>\` and the ` +
  `resource option \`deleteBeforeReplace: true\` (the name stays taken until the old one is deleted), which ` +
  `deletes it and its data.`;

export function databaseFlags(label: string) {
  const fixed = { validate: atLeast(1), fixedAfterCreate: noResize(label) };
  return {
    name,
    projectId,
    cpuMilli: fixed,
    memoryMb: fixed,
    storageGb: fixed,
    status: output,
    internalHost: output,
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
    connection: connection ? connectionFromWire(connection) : undefined,
  });
}

export function managedDatabase(kind: DatabaseKind, typeName: string, label: string): Declaration<ManagedDatabase, ReturnType<typeof databaseFlags>> {
  return {
    typeName, flags: databaseFlags(label), projectScoped: true,
    lifecycle: {
      async create(ctx, inputs) {
        const resources = defined({ cpuMilli: inputs.cpuMilli, memoryMb: inputs.memoryMb, storageGb: inputs.storageGb });
        const created = await ctx.client.databases.create(
          kind,
          inputs.projectId,
          { name: inputs.name, ...(Object.keys(resources).length > 0 ? { resources } : {}) },
          { signal: ctx.signal },
        );
        return { id: created.service.id, outputs: databaseFromWire(created.service, created.connection) };
      },
      async read(ctx, address, { outputs }) {
        const found = await orGone(() => ctx.client.containers.get(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
        const service = ofKind(found, kind, typeName);
        if (!service) return undefined;
        // The service record may omit the connection; the one from creation still holds then.
        return { ...databaseFromWire(service), connection: service.connection ? connectionFromWire(service.connection) : outputs.connection };
      },
      async update(_ctx, _address, { olds }) {
        // Check refuses every change the API cannot make, so nothing reaches here but
        // properties that need no call.
        return olds;
      },
      async delete(ctx, address, outputs) {
        await ignoringNotFound(() => ctx.client.containers.delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
      },
    },
  };
}
