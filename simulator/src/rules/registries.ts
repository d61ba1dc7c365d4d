// Registry credentials (document 4.4), per user and not project-scoped. The password is never returned.
import { randomUUID } from "node:crypto";
import { type Ctx, type Reply, type Route, created, noContent, ok } from "../context";
import { conflict, notFound } from "../errors";
import { type Fields, optionalString, requiredName, requiredString } from "../validate";

/** Document section 2.7, plus the owner and the password that the API never returns. */
export interface SimRegistry {
  id: string;
  /** Simulator-only: the owning user. */
  user_id: string;
  name: string;
  host: string;
  /** null when none was given. */
  username: string | null;
  /** Simulator-only: stored, never returned. */
  password: string;
}

declare module "../types" {
  interface SimRecords {
    registries: SimRegistry;
  }
}

const toWireRegistry = ({ id, name, host, username }: SimRegistry) => ({ id, name, host, username });

function mine(ctx: Ctx): SimRegistry[] {
  return ctx.store.state.registries.filter((registry) => registry.user_id === ctx.user.userId);
}

function requireRegistry(ctx: Ctx): SimRegistry {
  const id = ctx.params.registryId;
  const registry = mine(ctx).find((candidate) => candidate.id === id);
  if (!registry) throw notFound(`registry ${id}`);
  return registry;
}

function readRegistry(fields: Fields) {
  return {
    name: requiredName(fields),
    host: requiredString(fields, "host"),
    username: optionalString(fields, "username") ?? null,
    password: optionalString(fields, "password") ?? "",
  };
}

function assertNameFree(ctx: Ctx, name: string, exceptId?: string): void {
  if (mine(ctx).some((registry) => registry.name === name && registry.id !== exceptId)) {
    throw conflict("NAME_TAKEN", `a registry named ${name} already exists`);
  }
}

export function listRegistries(ctx: Ctx): Reply {
  return ok(mine(ctx).map(toWireRegistry));
}

export function getRegistry(ctx: Ctx): Reply {
  return ok(toWireRegistry(requireRegistry(ctx)));
}

export function createRegistry(ctx: Ctx): Reply {
  const input = readRegistry(ctx.body());
  assertNameFree(ctx, input.name);
  const registry: SimRegistry = { id: randomUUID(), user_id: ctx.user.userId, ...input };
  ctx.store.state.registries.push(registry);
  return created(toWireRegistry(registry));
}

/** PUT replaces: fields left out (username, password) are cleared. */
export function replaceRegistry(ctx: Ctx): Reply {
  const registry = requireRegistry(ctx);
  const input = readRegistry(ctx.body());
  assertNameFree(ctx, input.name, registry.id);
  Object.assign(registry, input);
  return ok(toWireRegistry(registry));
}

export function deleteRegistry(ctx: Ctx): Reply {
  const registry = requireRegistry(ctx);
  ctx.store.state.registries = ctx.store.state.registries.filter((candidate) => candidate !== registry);
  return noContent();
}

/** Document 4.4: per user, not under a project. */
/** The document allows other fields on a registry's create and PUT: they are ignored. */
const REGISTRY_BODY = { body: ["name", "host", "username", "password"], otherFieldsIgnored: true } as const;
const REGISTRY_FIELDS = "`name`, `host` (required), `username`, `password`";

export const REGISTRY_ROUTES: readonly Route[] = [
  {
    method: "GET",
    pattern: "/v1/registries",
    doc: { answers: "200: the caller's registries, `{id, name, host, username}` each (never the password)" },
    handler: listRegistries,
  },
  {
    method: "POST",
    pattern: "/v1/registries",
    ...REGISTRY_BODY,
    doc: { body: REGISTRY_FIELDS, answers: "201: the registry; 409 `NAME_TAKEN` (per user)" },
    handler: createRegistry,
  },
  {
    method: "GET",
    pattern: "/v1/registries/:registryId",
    doc: { answers: "200: the registry" },
    handler: getRegistry,
  },
  {
    method: "PUT",
    pattern: "/v1/registries/:registryId",
    ...REGISTRY_BODY,
    doc: {
      body: REGISTRY_FIELDS,
      answers: "200: the registry, replaced whole (a left-out `username` or `password` is cleared); 409 `NAME_TAKEN`",
    },
    handler: replaceRegistry,
  },
  { method: "DELETE", pattern: "/v1/registries/:registryId", doc: { answers: "204" }, handler: deleteRegistry },
];
