// hosting:index:Registry — stored credentials for a private image registry (per user).
import type { RegistryRecord } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import { hostname } from "../framework/validators";
import { defined, ignoringNotFound, name, orGone, type Declaration } from "./common";

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
  username: { clearedWhenRemoved: true },
  password: { secret: true, notReturned: true, clearedWhenRemoved: true },
} satisfies FlagsOf<Registry>;

export const registryFromWire = (registry: RegistryRecord): Partial<Registry> =>
  defined({ name: registry.name, host: registry.host, username: registry.username });

const body = (inputs: Partial<Registry>) => ({ name: inputs.name!, host: inputs.host!, username: inputs.username, password: inputs.password });

export const registry: Declaration<Registry, typeof flags> = {
  typeName: "Registry", flags, projectScoped: false,
  lifecycle: {
    async create(ctx, inputs) {
      const created = await ctx.client.registries.create(body(inputs), { signal: ctx.signal });
      return { id: created.id, outputs: registryFromWire(created) };
    },
    async read(ctx, address) {
      const found = await orGone(() => ctx.client.registries.get(address.id, { signal: ctx.signal }));
      return found && registryFromWire(found);
    },
    async update(ctx, address, { news }) {
      return registryFromWire(await ctx.client.registries.replace(address.id, body(news), { signal: ctx.signal }));
    },
    async delete(ctx, address) {
      await ignoringNotFound(() => ctx.client.registries.delete(address.id, { signal: ctx.signal }));
    },
  },
};
