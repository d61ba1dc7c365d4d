// hosting:index:Registry — stored credentials for a private image registry (per user).
import type { WireRegistry } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import type { ResourceDeclaration } from "../framework/resource";
import { hostname } from "../framework/validators";
import { defined, ignoringNotFound, name, orGone } from "./common";

/**
 * Credentials for a private image registry, stored for the user (not scoped to a project).
 * Changing `name` replaces it; the rest updates in place. The API never returns the password,
 * so state keeps the one you set (as a secret).
 */
export interface Registry {
  /** Name of the registry entry, unique for the user. Changing it replaces the entry. */
  name: string;
  /** Registry host name, such as `registry.example.com` (no scheme, no path). */
  host: string;
  /** User name to log in with. */
  username?: string;
  /** Password or access token to log in with. Secret; never returned by the API. */
  password?: string;
}

const flags: FlagsOf<Registry> = {
  name,
  host: { validate: hostname },
  // The update is a PUT of the whole entry: what the program leaves out is cleared.
  username: { clearedWhenRemoved: true },
  password: { secret: true, notReturned: true, clearedWhenRemoved: true },
};

export const registryFromWire = (registry: WireRegistry): Partial<Registry> =>
  defined({ name: registry.name, host: registry.host, username: registry.username ?? undefined });

const body = (inputs: Registry) =>
  defined({ name: inputs.name, host: inputs.host, username: inputs.username, password: inputs.password });

export const registry: ResourceDeclaration<Registry> = {
  token: "hosting:index:Registry",
  typeName: "Registry",
  flags,
  projectScoped: false,
  lifecycle: {
    async create(ctx, inputs) {
      const created = await ctx.client.registries.create(body(inputs) as any, { signal: ctx.signal });
      return { id: created.id, outputs: { ...registryFromWire(created), password: inputs.password } };
    },
    async read(ctx, address, { inputs, outputs }) {
      const found = await orGone(() => ctx.client.registries.get(address.id, { signal: ctx.signal }));
      return found && defined({ ...registryFromWire(found), password: inputs.password ?? outputs.password });
    },
    async update(ctx, address, _olds, news) {
      const replaced = await ctx.client.registries.replace(address.id, body(news) as any, { signal: ctx.signal });
      return defined({ ...registryFromWire(replaced), password: news.password });
    },
    async delete(ctx, address) {
      await ignoringNotFound(() => ctx.client.registries.delete(address.id, { signal: ctx.signal }));
    },
  },
};
