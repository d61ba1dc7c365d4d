// The managed databases (Postgres, MySQL, Redis) share one shape and one lifecycle; each has
// its own file that names it. The API can create and delete them, not resize them.
import type { WireConnection, WireService } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import type { ResourceDeclaration } from "../framework/resource";
import { positive } from "../framework/validators";
import { defined, ignoringNotFound, name, ofType, orGone, output, projectId, projectOf } from "./common";

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
  /** Name of the database service, unique within its project. Changing it replaces the database. */
  name: string;
  /** Project to create the database in. Defaults to the provider's `projectId`; changing it replaces the database. */
  projectId?: string;
  /**
   * CPU in milli-cores. Fixed at creation: the API cannot resize a managed database.
   * @TJS-type integer
   */
  cpuMilli?: number;
  /**
   * Memory in megabytes. Fixed at creation: the API cannot resize a managed database.
   * @TJS-type integer
   */
  memoryMb?: number;
  /**
   * Storage in gigabytes. Fixed at creation: the API cannot resize a managed database.
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

export type DatabaseKind = "postgres" | "mysql" | "redis";

const noResize = (label: string) =>
  `the API cannot resize a managed ${label} database. To change its size deliberately, create a new ` +
  `database under a new name and move the data, or replace this one with \`pulumi up --replace <urn>\`, ` +
  `which deletes it and its data.`;

export function databaseFlags(label: string): FlagsOf<ManagedDatabase> {
  const fixed = { validate: positive, fixedAfterCreate: noResize(label) };
  return {
    name,
    projectId,
    cpuMilli: fixed,
    memoryMb: fixed,
    storageGb: fixed,
    status: output,
    internalHost: output,
    connection: { output: true, secretSubfields: ["instructions"] },
  };
}

export function connectionFromWire(connection: WireConnection): DatabaseConnection {
  return {
    host: connection.host,
    port: connection.port,
    envVar: connection.env_var,
    instructions: connection.instructions ?? "",
    requiresAuth: String(connection.requires_auth).toLowerCase() === "true",
  };
}

export function databaseFromWire(service: WireService, connection = service.connection): Partial<ManagedDatabase> {
  return defined({
    name: service.name,
    projectId: service.project_id,
    cpuMilli: service.cpu_milli,
    memoryMb: service.memory_mb,
    storageGb: service.storage_gb,
    status: service.status,
    internalHost: service.internal_host,
    connection: connection ? connectionFromWire(connection) : undefined,
  });
}

export function managedDatabase(kind: DatabaseKind, typeName: string, label: string): ResourceDeclaration<ManagedDatabase> {
  return {
    token: `hosting:index:${typeName}`,
    typeName,
    flags: databaseFlags(label),
    projectScoped: true,
    lifecycle: {
      async create(ctx, inputs) {
        const resources = defined({ cpu_milli: inputs.cpuMilli, memory_mb: inputs.memoryMb, storage_gb: inputs.storageGb });
        const created = await ctx.client.databases.create(
          kind,
          projectOf(ctx, {}, inputs),
          { name: inputs.name, ...(Object.keys(resources).length > 0 ? { resources } : {}) },
          { signal: ctx.signal },
        );
        return { id: created.service.id, outputs: databaseFromWire(created.service, created.connection) };
      },
      async read(ctx, address, { outputs }) {
        const found = await orGone(() => ctx.client.containers.get(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
        const service = ofType(found, kind, `hosting:index:${typeName}`);
        if (!service) return undefined;
        // The service record may omit the connection; the one from creation still holds then.
        return { ...databaseFromWire(service), connection: service.connection ? connectionFromWire(service.connection) : outputs.connection };
      },
      async update(_ctx, _address, olds) {
        // Check and Diff refuse every change the API cannot make, so nothing reaches here
        // but properties that need no call.
        return olds;
      },
      async delete(ctx, address, outputs) {
        await ignoringNotFound(() => ctx.client.containers.delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
      },
    },
  };
}


