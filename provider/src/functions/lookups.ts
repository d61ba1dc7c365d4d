// Lookups: read what exists without managing it. One function per kind (by id or by name) and
// one list per kind, each returning the properties the resource of that kind has, with the same
// secrets wrapped. They read through the resources' own lifecycles and mappers.
import { InputError } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { exactlyOneOf, matches, uuid } from "../framework/validators";
import { container, containerFromWire, ownEnv } from "../resources/container";
import { mysql } from "../resources/mysql";
import { postgres } from "../resources/postgres";
import { redis } from "../resources/redis";
import { registry, registryFromWire } from "../resources/registry";
import { serviceLink, serviceLinkFromWire } from "../resources/serviceLink";
import { volume, volumeFromWire } from "../resources/volume";
import { orGone, type Context, type Declaration } from "../resources/common";
import { lookupProject, projectOf, type Lookup } from "./common";

/** Which one to look up: by `id` or by `name`, exactly one of them. */
export interface ByIdOrName {
  /** The id the API assigned. */
  id?: string;
  /** The name it was given. */
  name?: string;
}

/** A lookup in a project. */
export interface ByIdOrNameInProject extends ByIdOrName {
  /** The project to look in. */
  projectId?: string;
}

export interface GetContainerArgs extends ByIdOrNameInProject {}
export interface GetPostgresArgs extends ByIdOrNameInProject {}
export interface GetMysqlArgs extends ByIdOrNameInProject {}
export interface GetRedisArgs extends ByIdOrNameInProject {}
export interface GetVolumeArgs extends ByIdOrNameInProject {}
export interface GetRegistryArgs extends ByIdOrName {}

export interface GetContainersArgs {
  /** Only the services of this type (`container`, `postgres`, `mysql`, `redis`). */
  type?: string;
  /** The project to list. */
  projectId?: string;
}

export interface GetVolumesArgs {
  /** The project to list. */
  projectId?: string;
}

export interface GetRegistriesArgs {}

export interface GetServiceLinksArgs {
  /** Only the links into this consumer service. */
  consumerServiceId?: string;
  /** Only the links to this provider service. */
  providerServiceId?: string;
  /** The project to list. */
  projectId?: string;
}

const byIdOrName = { id: {}, name: {} };
const inProject = { ...byIdOrName, projectId: lookupProject } satisfies FlagsOf<ByIdOrNameInProject>;

/** A found resource, as its resource reads it, with its id. */
type Found = Record<string, unknown> & { id: string };

/**
 * `get<Kind>`: the resource with this id, or the one with this name, read by the resource's
 * own lifecycle (so a wrong kind says which kind it is). Nothing found names what and where.
 */
function lookupOf(resource: Declaration<any, any>, kind: string, findByName: (ctx: Context, name: string, project?: string) => Promise<{ id: string } | undefined>): Lookup<ByIdOrNameInProject, Found> {
  const where = (project?: string) => (project ? ` in project ${project}` : "");
  return {
    name: `get${resource.typeName}`,
    description: `Looks up an existing ${kind} by \`id\` or by \`name\` (exactly one), without managing it.`,
    // GetRegistryArgs has no projectId; the schema generator checks each interface against its flags.
    args: (resource.projectScoped ? inProject : byIdOrName) as FlagsOf<ByIdOrNameInProject>,
    rules: [exactlyOneOf("id", "name")],
    result: { resource },
    async invoke(ctx, args) {
      const project = resource.projectScoped ? projectOf(ctx, {}, args) : undefined;
      // A project the user cannot see answers 404 to the list: nothing found there, said the same way.
      const id = args.id ?? (await orGone(() => findByName(ctx, args.name!, project)))?.id;
      const found = id && (await resource.lifecycle.read(ctx, { id, projectId: project }, { outputs: {}, inputs: {} }));
      if (!id || !found) {
        const what = args.id ? `id ${args.id}` : `name "${args.name}"`;
        throw new InputError(`no ${kind} with ${what}${where(project)} (or it belongs to another user)`);
      }
      return { ...found, id };
    },
  };
}

const serviceNamed = (ctx: Context, name: string, project?: string) => ctx.client.containers.findByName(project!, name, { signal: ctx.signal });

export const getContainer = lookupOf(container, "container", serviceNamed);
export const getPostgres = lookupOf(postgres, "Postgres database", serviceNamed);
export const getMysql = lookupOf(mysql, "MySQL database", serviceNamed);
export const getRedis = lookupOf(redis, "Redis database", serviceNamed);
export const getVolume = lookupOf(volume, "volume", async (ctx, name, project) =>
  (await ctx.client.volumes.list(project!, { signal: ctx.signal })).find((v) => v.name === name),
);
export const getRegistry = lookupOf(registry, "registry", async (ctx, name) =>
  (await ctx.client.registries.list({ signal: ctx.signal })).find((r) => r.name === name),
);

export const getContainers: Lookup<GetContainersArgs, { services: Found[] }> = {
  name: "getContainers",
  description: "Lists the service records of a project (apps and managed databases), in a Container's terms; `type` keeps one kind.",
  args: { type: { validate: matches(/^[a-z]+$/, 'a service type such as "container" or "postgres"') }, projectId: lookupProject },
  result: { resource: container, list: "services" },
  async invoke(ctx, args) {
    const project = projectOf(ctx, {}, args);
    const [services, links] = await Promise.all([
      ctx.client.containers.list(project, { signal: ctx.signal }),
      ctx.client.serviceLinks.list(project, { signal: ctx.signal }),
    ]);
    const injected = (id: string) => new Set(links.filter((l) => l.consumerServiceId === id).flatMap((l) => Object.keys(l.injectedEnv)));
    const wanted = services.filter((s) => args.type === undefined || s.type === args.type);
    return { services: wanted.map((s) => ({ ...containerFromWire(s), env: ownEnv(s.env, injected(s.id)), id: s.id })) };
  },
};

export const getVolumes: Lookup<GetVolumesArgs, { volumes: Found[] }> = {
  name: "getVolumes",
  description: "Lists the volumes of a project.",
  args: { projectId: lookupProject },
  result: { resource: volume, list: "volumes" },
  async invoke(ctx, args) {
    const volumes = await ctx.client.volumes.list(projectOf(ctx, {}, args), { signal: ctx.signal });
    return { volumes: volumes.map((v) => ({ ...volumeFromWire(v), id: v.id })) };
  },
};

export const getRegistries: Lookup<GetRegistriesArgs, { registries: Found[] }> = {
  name: "getRegistries",
  description: "Lists the user's registry entries (never their passwords: the API does not return them).",
  args: {},
  result: { resource: registry, list: "registries" },
  async invoke(ctx) {
    const registries = await ctx.client.registries.list({ signal: ctx.signal });
    return { registries: registries.map((r) => ({ ...registryFromWire(r), id: r.id })) };
  },
};

export const getServiceLinks: Lookup<GetServiceLinksArgs, { links: Found[] }> = {
  name: "getServiceLinks",
  description: "Lists the service links of a project; `consumerServiceId` or `providerServiceId` keeps those of one service.",
  args: { consumerServiceId: { validate: uuid() }, providerServiceId: { validate: uuid() }, projectId: lookupProject },
  result: { resource: serviceLink, list: "links" },
  async invoke(ctx, args) {
    const links = await ctx.client.serviceLinks.list(projectOf(ctx, {}, args), { signal: ctx.signal });
    const wanted = links.filter(
      (l) => (args.consumerServiceId ?? l.consumerServiceId) === l.consumerServiceId && (args.providerServiceId ?? l.providerServiceId) === l.providerServiceId,
    );
    return { links: wanted.map((l) => ({ ...serviceLinkFromWire(l), id: l.id })) };
  },
};

export const lookups = [
  getContainer, getPostgres, getMysql, getRedis, getVolume, getRegistry,
  getContainers, getVolumes, getRegistries, getServiceLinks,
];
