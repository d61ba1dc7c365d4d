// hosting:index:ServiceLink — injects a provider service's connection settings into a consumer.
import type { WireServiceLink } from "../api/wire";
import type { FlagsOf } from "../framework/spec";
import type { ResourceDeclaration } from "../framework/resource";
import { lowercaseWord, uuid } from "../framework/validators";
import { defined, orGone, projectId, projectOf } from "./common";

/**
 * A link from a consumer service to a provider service: the platform injects the provider's
 * connection settings into the consumer's environment. Every input replaces the link. The
 * API cannot delete links: deleting this resource only forgets it, with a warning.
 */
export interface ServiceLink {
  /** Id of the service that receives the settings (usually a Container's `id`). */
  consumerServiceId: string;
  /** Id of the service that is linked to (for example a Postgres database's `id`). */
  providerServiceId: string;
  /** Kind of link. */
  linkType?: string;
  /** Project of both services. Defaults to the provider's `projectId`. */
  projectId?: string;
  /** Environment variables injected into the consumer. Secret. */
  injectedEnv: Record<string, string>;
}

const flags: FlagsOf<ServiceLink> = {
  consumerServiceId: { replaceOnChange: true, validate: uuid },
  providerServiceId: { replaceOnChange: true, validate: uuid },
  linkType: { replaceOnChange: true, default: "http", validate: lowercaseWord },
  projectId,
  injectedEnv: { output: true, secret: true },
};

export function serviceLinkFromWire(link: WireServiceLink): Partial<ServiceLink> {
  return defined({
    consumerServiceId: link.consumer_service_id,
    providerServiceId: link.provider_service_id,
    linkType: link.link_type,
    projectId: link.project_id,
    injectedEnv: link.injected_env ?? {},
  });
}

export const serviceLink: ResourceDeclaration<ServiceLink> = {
  token: "hosting:index:ServiceLink",
  typeName: "ServiceLink",
  flags,
  projectScoped: true,
  lifecycle: {
    async create(ctx, inputs) {
      const link = await ctx.client.serviceLinks.create(
        projectOf(ctx, {}, inputs),
        { consumer_service_id: inputs.consumerServiceId, provider_service_id: inputs.providerServiceId, link_type: inputs.linkType ?? "http" },
        { signal: ctx.signal },
      );
      return { id: link.id, outputs: serviceLinkFromWire(link) };
    },
    async read(ctx, address, { outputs }) {
      const links = await orGone(() => ctx.client.serviceLinks.list(projectOf(ctx, address, outputs), { signal: ctx.signal }));
      const link = links?.find((l) => l.id === address.id);
      return link && serviceLinkFromWire(link);
    },
    async update(_ctx, _address, olds) {
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
