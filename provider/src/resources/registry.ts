// hosting:index:Registry — stored credentials for a private image registry (per user).
import type { z } from "zod";
import type { Collection } from "../api/client";
import { isNotFound, ProjectNotVisibleError } from "../api/errors";
import { listOf, optional, record, text } from "../api/wire";
import { secretConfig } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { hostname, maxBytes } from "../framework/validators";
import { awaitGone, defined, listedIn, name, orGone, type Context, type Declaration } from "./common";
import { services } from "./services";

/**
 * Credentials for a private image registry, stored for the user (not scoped to a project).
 * The update is a PUT of the whole entry. The API answers 404 alike for a registry deleted and
 * for one of another user: when the provider has a `hosting:projectId` and the token cannot see
 * that project either, a refresh or destroy that finds no registry fails rather than report it
 * deleted (another account's token). Without `hosting:projectId` nothing tells the two apart:
 * check `hosting:token` before `pulumi refresh` or `pulumi destroy`, or such a registry leaves
 * the stack while it still exists.
 */
export interface Registry {
  /** Name of the registry entry, unique for the user. */
  name?: string;
  /** Registry host name, such as `registry.example.com` (no scheme, no path). */
  host: string;
  /** User name to log in with. */
  username?: string;
  /** Password or access token to log in with. */
  password?: string;
}

const flags = {
  name,
  host: { validate: hostname() },
  username: { clearedWhenRemoved: true, validate: maxBytes(256) },
  password: {
    secret: true,
    notReturned: true,
    clearedWhenRemoved: true,
    resentOnUpdate: true,
    validate: maxBytes(8 * 1024),
  },
} satisfies FlagsOf<Registry>;

/** A registry (API document 2.7). The password is write-only: never returned (one sent anyway is dropped). */
export const RegistryRecord = record({ id: text(), name: text(), host: text(), username: optional(text()) });
export type RegistryRecord = z.output<typeof RegistryRecord>;

/** The user's own, outside projects; read one by one, and replaced whole by PUT. */
export const registries: Collection<RegistryRecord> = {
  path: "registries",
  scope: "user",
  record: RegistryRecord,
  list: listOf(RegistryRecord),
  readById: true,
  update: "PUT",
  // A registry record has no creation time: one that was not there just before the create is its own.
  created: {
    match: (r: RegistryRecord, body) => r.name === body.name && r.host === body.host && r.username === body.username,
    proof: "absentBefore",
  },
};

export const registryFromWire = (registry: RegistryRecord): Partial<Registry> =>
  defined({ name: registry.name, host: registry.host, username: registry.username });

/** POST and PUT carry the whole entry, `password` included (DESIGN decision: sent as `password`). */
const body = (inputs: Partial<Registry>) => ({
  name: inputs.name,
  host: inputs.host,
  username: inputs.username,
  password: inputs.password,
});

/**
 * Whether a registry that reads as 404 may be reported gone. The API answers 404 alike for a registry deleted and for
 * another user's (document 5.4), and registries belong to the token's user, outside projects: nothing in the answer
 * tells the two apart. The provider's project (hosting:projectId) can: projects, too, belong to one user, so a token
 * that cannot see it is not the token of the user the stack's resources belong to (a CI secret swapped), and a registry
 * it cannot find is no proof of a deletion. Without hosting:projectId there is no such signal, and the 404 stands.
 */
async function refuseIfAnotherUsers(ctx: Context, subject: string, cause: unknown): Promise<void> {
  const project = ctx.config.projectId as string | undefined;
  if (!project) return;
  try {
    await ctx.client.of(services).list(project, { signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof ProjectNotVisibleError)) throw err;
    throw new Error(
      `${subject} reads as 404 NOT_FOUND, and so does project ${project} (hosting:projectId): the token cannot see it either, so it is most likely another account's token (the API answers 404 for another user's registry as for one deleted), and the registry is not reported as deleted. Check hosting:token (a CI secret swapped?). If the registry really is gone, and the project too, remove it from the stack with \`pulumi state delete <urn>\`.${cause ? ` (${(cause as Error).message})` : ""}`,
    );
  }
}

export const registry: Declaration<Registry, typeof flags> = {
  typeName: "Registry",
  flags,
  scope: "user",
  list: async (ctx) =>
    (await ctx.client.of(registries).list(undefined, { signal: ctx.signal })).map((r) => ({
      ...registryFromWire(r),
      id: r.id,
    })),
  lookups: {
    byIdOrName: { noun: "registry", show: "host" },
    list: {
      name: "getRegistries",
      key: "registries",
      description: "Lists the user's registry entries (never their passwords: the API does not return them).",
    },
  },
  export: { word: "registry" },
  examples: [
    {
      title: "Credentials for GitHub's registry",
      name: "ghcr",
      inputs: {
        host: "ghcr.io",
        username: "ci",
        password: secretConfig("ghcrToken", "sample-ghcr-token"),
      },
      update: { username: "ci-bot" },
    },
  ],
  lifecycle: {
    async create(ctx, inputs) {
      const created = await ctx.client.of(registries).create(undefined, body(inputs), ctx.creating);
      return { id: created.id, outputs: registryFromWire(created) };
    },
    async read(ctx, address, { outputs }) {
      const found = await orGone(() => ctx.client.of(registries).find(undefined, address.id, { signal: ctx.signal }));
      if (!found) await refuseIfAnotherUsers(ctx, `registry ${outputs.name ?? address.id}`, undefined);
      return found && registryFromWire(found);
    },
    async update(ctx, address, { news }) {
      return registryFromWire(
        await ctx.client.of(registries).update(undefined, address.id, body(news), { signal: ctx.signal }),
      );
    },
    async delete(ctx, address, outputs) {
      const subject = `registry ${outputs.name ?? address.id}`;
      try {
        await ctx.client.of(registries).delete(undefined, address.id, { signal: ctx.signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await refuseIfAnotherUsers(ctx, subject, err);
      }
      await awaitGone(ctx, listedIn(ctx, registries), address.id, subject);
    },
  },
};
