// hosting:index:Registry — stored credentials for a private image registry (per user).
import type { z } from "zod";
import type { Collection } from "../api/client";
import { listOf, optional, record, text } from "../api/wire";
import { secretConfig } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { hostname, maxBytes } from "../framework/validators";
import { awaitGone, defined, ignoringNotFound, name, orGone, type Declaration } from "./common";

/**
 * Credentials for a private image registry, stored for the user (not scoped to a project).
 * The update is a PUT of the whole entry.
 */
export interface Registry {
  /** Name of the registry entry, unique for the user. */
  name: string;
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
        name: "ghcr",
        host: "ghcr.io",
        username: "ci",
        password: secretConfig("ghcrToken", "sample-ghcr-token"),
      },
      update: { username: "ci-bot" },
    },
  ],
  lifecycle: {
    async create(ctx, inputs) {
      const created = await ctx.client.of(registries).create(undefined, body(inputs), { signal: ctx.signal });
      return { id: created.id, outputs: registryFromWire(created) };
    },
    async read(ctx, address) {
      const found = await orGone(() => ctx.client.of(registries).find(undefined, address.id, { signal: ctx.signal }));
      return found && registryFromWire(found);
    },
    async update(ctx, address, { news }) {
      return registryFromWire(
        await ctx.client.of(registries).update(undefined, address.id, body(news), { signal: ctx.signal }),
      );
    },
    async delete(ctx, address, outputs) {
      await ignoringNotFound(() => ctx.client.of(registries).delete(undefined, address.id, { signal: ctx.signal }));
      await awaitGone(
        ctx,
        { key: "registries", fetch: (signal) => ctx.client.of(registries).list(undefined, { signal }) },
        address.id,
        `registry ${outputs.name ?? address.id}`,
      );
    },
  },
};
