// The service-links collection, which two resources write: ServiceLink (one link), and Container
// (the links its `links` lists). The API lists links and creates them; it never reads one by id,
// and has no way to delete one.
import type { z } from "zod";
import type { Collection } from "../api/client";
import { isNameTaken, isNotFound } from "../api/errors";
import { listOf, record, stringMap, text } from "../api/wire";
import { InputError } from "../framework/declare";
import type { Context } from "./common";

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

/** The type of the links a Container's `links` makes and reads back; links of other types are ServiceLinks' alone. */
export const CONTAINER_LINK_TYPE = "http";

export type WantedLink = Pick<LinkRecord, "consumerServiceId" | "providerServiceId" | "linkType">;

/** A link is the same link when it joins the same two services the same way. */
export const sameLink = (a: WantedLink) => (b: LinkRecord) =>
  b.consumerServiceId === a.consumerServiceId &&
  b.providerServiceId === a.providerServiceId &&
  b.linkType === a.linkType;

/** Listed as `{ links: [...] }`; created, never read one by one, never deleted. */
export const serviceLinks: Collection<LinkRecord> = {
  path: "service-links",
  scope: "project",
  record: LinkRecord,
  list: listOf(LinkRecord, "links"),
  // Links have no settings of their own: an identical one is as good as one made now.
  created: { match: (link: LinkRecord, body) => sameLink(body as LinkRecord)(link), proof: "identical" },
};

/**
 * The project's links by consumer service, as the API reports them now. `alongside`: read beside
 * the project's services, by the same caller (a Container's Read), which the batching counts.
 */
export async function linksByConsumer(
  ctx: Context,
  project: string,
  { alongside = false } = {},
): Promise<(serviceId: string) => LinkRecord[]> {
  const links = await ctx.client.of(serviceLinks).list(project, { signal: ctx.signal, alongside });
  let byConsumer = indexed.get(links);
  if (!byConsumer) {
    byConsumer = new Map<string, LinkRecord[]>();
    // Appended, never copied: linear in the list, however many of its links share a consumer.
    for (const link of links) {
      const into = byConsumer.get(link.consumerServiceId);
      if (into) into.push(link);
      else byConsumer.set(link.consumerServiceId, [link]);
    }
    indexed.set(links, byConsumer);
  }
  const index = byConsumer;
  return (serviceId) => index.get(serviceId) ?? [];
}

/** Each list answer's links by consumer, made once: the Reads a list answers share it (the answer is frozen). */
const indexed = new WeakMap<readonly LinkRecord[], Map<string, LinkRecord[]>>();

/** The variables these links inject, merged (a later link's value wins, as on the platform). */
export const injectedBy = (links: readonly LinkRecord[]): Record<string, string> =>
  Object.assign({}, ...links.map((link) => link.injectedEnv));

/** The variable names the project's links inject, by consumer service. */
export async function injectedEnvNames(
  ctx: Context,
  project: string,
  options: { alongside?: boolean } = {},
): Promise<(serviceId: string) => ReadonlySet<string>> {
  const linksInto = await linksByConsumer(ctx, project, options);
  return (serviceId) => new Set(Object.keys(injectedBy(linksInto(serviceId))));
}

/**
 * Makes the link, or adopts the identical one already there (a replacement creates before it
 * deletes; another resource, or an earlier attempt, may have made it): `made` says which.
 */
export async function linkServices(
  ctx: Context,
  project: string,
  wanted: WantedLink,
): Promise<{ link: LinkRecord; made: boolean }> {
  const links = ctx.client.of(serviceLinks);
  try {
    return { link: await links.create(project, wanted, { signal: ctx.signal }), made: true };
  } catch (err) {
    if (isNotFound(err)) {
      throw new InputError(
        `cannot link service ${wanted.consumerServiceId} to ${wanted.providerServiceId}: the API found no such service in project ${project} (or the token cannot see it). Use the \`id\` output of a Postgres, Mysql, Redis or Container in the same project. (${(err as Error).message})`,
      );
    }
    // The link is taken (whatever code the API gives it): links have no settings of their own to overwrite.
    const same = isNameTaken(err)
      ? (await links.list(project, { signal: ctx.signal })).find(sameLink(wanted))
      : undefined;
    if (!same) throw err;
    return { link: same, made: false };
  }
}
