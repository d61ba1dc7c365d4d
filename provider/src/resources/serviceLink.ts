// hosting:index:ServiceLink — injects a provider service's connection settings into a consumer.
import { isApiError } from "../api/errors";
import { byId } from "../api/loader";
import type { LinkRecord } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import { matches, uuid } from "../framework/validators";
import { defined, orGone, projectId, projectOf, type Declaration } from "./common";

/**
 * A link from a consumer service to a provider service: the platform injects the provider's
 * connection settings into the consumer's environment. The API cannot delete links: deleting
 * this resource only forgets it, with a warning. A create that finds the identical link
 * already there (a forced replacement creates before it deletes) adopts it.
 */
export interface ServiceLink {
  /** Id of the service that receives the settings (usually a Container's `id`). */
  consumerServiceId: string;
  /** Id of the service that is linked to (for example a Postgres database's `id`). */
  providerServiceId: string;
  /** Kind of link. */
  linkType?: string;
  /** Project of both services. */
  projectId?: string;
  /** Environment variables injected into the consumer. Secret. */
  injectedEnv: Record<string, string>;
}

const flags = {
  consumerServiceId: { replaceOnChange: true, validate: uuid() },
  providerServiceId: { replaceOnChange: true, validate: uuid() },
  linkType: { replaceOnChange: true, default: "http", validate: matches(/^[a-z]+$/, 'lowercase letters, e.g. "http"') },
  projectId,
  injectedEnv: { output: true, secret: true },
} satisfies FlagsOf<ServiceLink>;

export function serviceLinkFromWire(link: LinkRecord): Partial<ServiceLink> {
  return defined({
    consumerServiceId: link.consumerServiceId,
    providerServiceId: link.providerServiceId,
    linkType: link.linkType,
    projectId: link.projectId,
    injectedEnv: link.injectedEnv,
  });
}

export const serviceLink: Declaration<ServiceLink, typeof flags> = {
  typeName: "ServiceLink", flags, projectScoped: true,
  lifecycle: {
    async create(ctx, inputs) {
      const wanted = { consumerServiceId: inputs.consumerServiceId, providerServiceId: inputs.providerServiceId, linkType: inputs.linkType };
      try {
        const link = await ctx.client.serviceLinks.create(inputs.projectId, wanted, { signal: ctx.signal });
        return { id: link.id, outputs: serviceLinkFromWire(link) };
      } catch (err) {
        const same = isApiError(err, "LINK_EXISTS") ? await ctx.client.serviceLinks.findSame(inputs.projectId, wanted, { signal: ctx.signal }) : undefined;
        if (!same) throw err;
        ctx.warn(`an identical service link already exists (${same.id}); it is adopted rather than created again.`);
        return { id: same.id, outputs: serviceLinkFromWire(same) };
      }
    },
    async read(ctx, address, { outputs }) {
      const links = await orGone(() => ctx.client.serviceLinks.list(projectOf(ctx, address, outputs), { signal: ctx.signal }));
      const link = links && byId(links).get(address.id);
      return link && serviceLinkFromWire(link);
    },
    async update(_ctx, _address, { olds }) {
      return olds; // every input replaces
    },
    async delete(ctx, address) {
      ctx.warn(
        `the hosting API has no way to delete service links: link ${address.id} is removed from the stack, ` +
          `but stays on the platform (and keeps injecting its settings) until its consumer or provider service is deleted.`,
      );
    },
  },
};
