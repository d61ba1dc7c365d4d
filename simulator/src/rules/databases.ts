// Managed Postgres, MySQL and Redis (document 4.2): service records with a connection object.
import { randomBytes } from "node:crypto";
import { type Ctx, type Reply, type Route, PROJECT_PATH, created } from "../context";
import type { DatabaseKind, WireConnection } from "../types";
import { optionalInt, optionalObject, requiredName } from "../validate";
import { billingGate } from "./gates";
import { addService, assertNameFree, internalHost, toWireService } from "./services";

interface Engine {
  runtime: string;
  image: string;
  port: number;
  envVar: string;
  url(password: string, host: string, name: string): string;
}

const ENGINES: Record<DatabaseKind, Engine> = {
  postgres: {
    runtime: "postgres-16",
    image: "registry.sim.hosting.test/managed/postgres:16",
    port: 5432,
    envVar: "DATABASE_URL",
    url: (password, host, name) => `postgres://app:${password}@${host}/${name}`,
  },
  mysql: {
    runtime: "mysql-8",
    image: "registry.sim.hosting.test/managed/mysql:8",
    port: 3306,
    envVar: "MYSQL_URL",
    url: (password, host, name) => `mysql://app:${password}@${host}/${name}`,
  },
  redis: {
    runtime: "redis-7",
    image: "registry.sim.hosting.test/managed/redis:7",
    port: 6379,
    envVar: "REDIS_URL",
    url: (password, host) => `redis://default:${password}@${host}/0`,
  },
};

const RESOURCE_FIELDS = ["cpu_milli", "memory_mb", "storage_gb"] as const;

export function createDatabase(kind: DatabaseKind): (ctx: Ctx) => Reply {
  return (ctx) => {
    const fields = ctx.body();
    const name = requiredName(fields);
    const resources = optionalObject(fields, "resources", RESOURCE_FIELDS) ?? {};
    const sizes = {
      cpu_milli: optionalInt(resources, "cpu_milli", 1, undefined, "resources.cpu_milli") ?? 250,
      memory_mb: optionalInt(resources, "memory_mb", 1, undefined, "resources.memory_mb") ?? 256,
      storage_gb: optionalInt(resources, "storage_gb", 1, undefined, "resources.storage_gb") ?? 1,
    };
    billingGate(ctx.switches.billing);
    const projectId = ctx.params.projectId;
    assertNameFree(ctx.store, projectId, name);

    const engine = ENGINES[kind];
    const host = internalHost(name, projectId, engine.port);
    const connection: WireConnection = {
      host,
      port: String(engine.port),
      env_var: engine.envVar,
      instructions: engine.url(randomBytes(12).toString("hex"), host, name),
      requires_auth: "true",
    };
    const service = addService(
      ctx,
      {
        project_id: projectId,
        name,
        display_name: name,
        type: kind,
        runtime: engine.runtime,
        image: engine.image,
        port: engine.port,
        replicas: 1,
        internal_host: host,
        public_url: null,
        public: false,
        ...sizes,
        env: {},
        connection,
      },
      [`created (${engine.runtime})`],
    );
    return created({ service: toWireService(service), connection: { ...connection } });
  };
}

/** Document 4.2: one create per engine; the rest is the containers' routes. */
export const DATABASE_ROUTES: readonly Route[] = (Object.keys(ENGINES) as DatabaseKind[]).map((kind) => ({
  method: "POST",
  pattern: `${PROJECT_PATH}/${kind}`,
  body: ["name", "resources"],
  doc: {
    body: "`name` (required), `resources` (`cpu_milli`, `memory_mb`, `storage_gb`)",
    answers: `201: \`{service, connection}\` (\`${ENGINES[kind].envVar}\`); 402/403 billing, 409 \`NAME_TAKEN\``,
  },
  handler: createDatabase(kind),
}));
