// hosting:index:ServiceLink — injects a provider service's connection settings into a consumer.
import { z } from "zod";
import type { Collection } from "../api/client";
import { isNameTaken } from "../api/errors";
import { listOf, record, stringMap, text } from "../api/wire";
import { referenceTo } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { matches, uuid } from "../framework/validators";
import { defined, orGone, projectId, projectOf, type Context, type Declaration } from "./common";

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

/** A service link (API document 2.6). */
export const LinkRecord = record({
  id: text(),
  projectId: text(),
  consumerServiceId: text(),
  providerServiceId: text(),
  linkType: text(),
  injectedEnv: stringMap(),
});
export type LinkRecord = z.output<typeof LinkRecord>;

/** A link is the same link when it joins the same two services the same way. */
const sameLink = (a: Pick<LinkRecord, "consumerServiceId" | "providerServiceId" | "linkType">) => (b: LinkRecord) =>
  b.consumerServiceId === a.consumerServiceId && b.providerServiceId === a.providerServiceId && b.linkType === a.linkType;

/** Listed as `{ links: [...] }`; created, never read one by one, never deleted. */
export const serviceLinks: Collection<LinkRecord> = {
  path: "service-links", scope: "project", record: LinkRecord, list: listOf(LinkRecord, "links"),
  // Links have no settings of their own: an identical one is as good as one made now.
  created: { match: (link: LinkRecord, body) => sameLink(body as LinkRecord)(link), proof: "identical" },
};

export function serviceLinkFromWire(link: LinkRecord): Partial<ServiceLink> {
  return defined({
    consumerServiceId: link.consumerServiceId,
    providerServiceId: link.providerServiceId,
    linkType: link.linkType,
    projectId: link.projectId,
    injectedEnv: link.injectedEnv,
  });
}

/** The variable names the project's links inject, by consumer service, as the API reports them. */
export async function injectedEnvNames(ctx: Context, project: string): Promise<(serviceId: string) => ReadonlySet<string>> {
  const byConsumer = new Map<string, Set<string>>();
  for (const link of await ctx.client.of(serviceLinks).list(project, { signal: ctx.signal })) {
    const names = byConsumer.get(link.consumerServiceId) ?? new Set<string>();
    for (const key of Object.keys(link.injectedEnv)) names.add(key);
    byConsumer.set(link.consumerServiceId, names);
  }
  return (serviceId) => byConsumer.get(serviceId) ?? new Set();
}

async function list(ctx: Context, projectId: string | undefined) {
  const links = await ctx.client.of(serviceLinks).list(projectOf(ctx, { projectId }), { signal: ctx.signal });
  return links.map((l) => ({ ...serviceLinkFromWire(l), id: l.id }));
}

export const serviceLink: Declaration<ServiceLink, typeof flags> = {
  typeName: "ServiceLink",
  flags,
  scope: "project",
  list,
  lookups: {
    list: {
      name: "getServiceLinks",
      key: "links",
      description: "Lists the service links of a project; `consumerServiceId` or `providerServiceId` keeps those of one service.",
      filters: ["consumerServiceId", "providerServiceId"],
    },
  },
  export: {
    word: "link",
    // Several links between the same two services (of different types) are told apart by type.
    name(link, { nameOf, siblings }) {
      const pair = (l: typeof link) => `${l.consumerServiceId} ${l.providerServiceId}`;
      const shared = siblings.filter((other) => pair(other as typeof link) === pair(link)).length > 1;
      return `${nameOf(link.consumerServiceId!)}-to-${nameOf(link.providerServiceId!)}${shared && link.linkType ? `-${link.linkType}` : ""}`;
    },
  },
  examples: [
    {
      title: "An app linked to its database",
      name: "web-db",
      inputs: { consumerServiceId: referenceTo("Container"), providerServiceId: referenceTo("Postgres") },
    },
  ],
  lifecycle: {
    async create(ctx, inputs) {
      const wanted = { consumerServiceId: inputs.consumerServiceId, providerServiceId: inputs.providerServiceId, linkType: inputs.linkType };
      const links = ctx.client.of(serviceLinks);
      try {
        const link = await links.create(inputs.projectId, wanted, { signal: ctx.signal });
        return { id: link.id, outputs: serviceLinkFromWire(link) };
      } catch (err) {
        // The link is taken (whatever code the API gives it): the identical link is adopted, as links have no
        // settings of their own to overwrite, and deleting one only forgets it.
        const same = isNameTaken(err) ? (await links.list(inputs.projectId, { signal: ctx.signal })).find(sameLink(wanted)) : undefined;
        if (!same) throw err;
        ctx.warn(`an identical service link already exists (${same.id}); it is adopted rather than created again.`);
        return { id: same.id, outputs: serviceLinkFromWire(same) };
      }
    },
    async read(ctx, address, { outputs }) {
      const link = await orGone(() => ctx.client.of(serviceLinks).find(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
      return link && serviceLinkFromWire(link);
    },
    async delete(ctx, address) {
      ctx.warn(
        `the hosting API has no way to delete service links: link ${address.id} is removed from the stack, ` +
          `but stays on the platform (and keeps injecting its settings) until its consumer or provider service is deleted.`,
      );
    },
  },
};
