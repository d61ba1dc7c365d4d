// hosting:index:ServiceLink — injects a provider service's connection settings into a consumer.
import { PartialFailure, referenceTo } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { matches, uuid } from "../framework/validators";
import type { PropertyMap } from "../framework/values";
import { defined, orGone, projectId, projectOf, type Context, type Declaration } from "./common";
import { CONTAINER_LINK_TYPE, serviceLinks, type LinkRecord } from "./links";
import { awaitRestart, currentService, linkApp, restartForLinks } from "./rollout/rollouts";
import { notServices } from "./services";

/**
 * A link from a consumer service to a provider service: the platform injects the provider's
 * connection settings into the consumer's environment. The API cannot delete links: deleting
 * this resource only forgets it, with a warning. A create that finds the identical link
 * already there (a forced replacement creates before it deletes) adopts it. A link to an app
 * that runs restarts the app (where the platform does not) and awaits it, so that it reads the
 * variables; if the app fails that restart, the create fails with its logs and the link stays
 * in state, and the next `pulumi up` restarts the app again. For an app of the same program,
 * prefer the Container's `links`.
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
  /**
   * Whether the consumer app has not read the link's variables yet, because its restart after the link was made
   * failed: the next `pulumi up` restarts it. A refresh keeps it until then, unless the app has been stopped since.
   */
  awaitingRestart?: boolean;
}

const flags = {
  consumerServiceId: { replaceOnChange: true, validate: uuid() },
  providerServiceId: { replaceOnChange: true, validate: uuid() },
  linkType: { replaceOnChange: true, default: "http", validate: matches(/^[a-z]+$/, 'lowercase letters, e.g. "http"') },
  projectId,
  injectedEnv: { output: true, secret: true },
  awaitingRestart: { output: true, movesOnUpdate: true },
} satisfies FlagsOf<ServiceLink>;

/** What state records of a link whose consumer still has to restart to read it. */
const awaitingRestart = (outputs: PropertyMap): PropertyMap => ({ ...outputs, awaitingRestart: true });

/** Whether the consumer reads a new link only when it (re)starts: an app that is not stopped. */
const runs = (consumer: { type: string; status: string } | undefined) =>
  consumer?.type === "container" && consumer.status !== "stopped";

export function serviceLinkFromWire(link: LinkRecord): Partial<ServiceLink> {
  return defined({
    consumerServiceId: link.consumerServiceId,
    providerServiceId: link.providerServiceId,
    linkType: link.linkType,
    projectId: link.projectId,
    injectedEnv: link.injectedEnv,
  });
}

async function list(ctx: Context, projectId: string | undefined) {
  const links = await ctx.client.of(serviceLinks).list(projectOf(ctx, { projectId }), { signal: ctx.signal });
  return links.map((l) => ({ ...serviceLinkFromWire(l), id: l.id }));
}

/** The consumer restarted with the new link's variables, and awaited; the link stays in state whatever the app does. */
async function restartedWithLink(
  ctx: Context,
  consumer: { id: string; name: string; projectId: string },
  link: Pick<LinkRecord, "id" | "providerServiceId">,
  outputs: PropertyMap,
  platformRestarted: boolean,
) {
  const project = consumer.projectId;
  const provider = (await currentService(ctx, project, link.providerServiceId))?.name ?? link.providerServiceId;
  const recordAs = { id: link.id, outputs: () => outputs };
  try {
    await restartForLinks(ctx, project, consumer.id, platformRestarted);
  } catch (err) {
    throw new PartialFailure(
      `the link was made, but restarting container ${consumer.name} so that it reads the link's variables failed: ${(err as Error).message}`,
      link.id,
      // A Read finds the link made: the mark that the restart is owed is what it carries forward.
      awaitingRestart(outputs),
      false,
    );
  }
  await awaitRestart(ctx, {
    project,
    app: consumer,
    until: `restart with the link to ${provider}`,
    recordAs,
    failure: `failed to restart after the link to ${provider} was made`,
    hint: "The link is made and recorded in state; fix the app (its image or env) and it reads the variables on its next start.",
  });
}

export const serviceLink: Declaration<ServiceLink, typeof flags> = {
  typeName: "ServiceLink",
  flags,
  scope: "project",
  unfinished: (live) =>
    live.awaitingRestart
      ? `app ${live.consumerServiceId} has not restarted to read the variables of the link to ${live.providerServiceId} (restarting it after the link was made failed); the next \`pulumi up\` restarts it`
      : undefined,
  list,
  lookups: {
    list: {
      name: "getServiceLinks",
      key: "links",
      description:
        "Lists the service links of a project; `consumerServiceId` or `providerServiceId` keeps those of one service.",
      filters: ["consumerServiceId", "providerServiceId"],
    },
  },
  export: {
    word: "link",
    // An app's http links are its Container's `links`, which its import reads back.
    heldBy: (link, found) =>
      link.linkType === CONTAINER_LINK_TYPE && (found.Container ?? []).some((app) => app.id === link.consumerServiceId),
    // Several links between the same two services (of different types) are told apart by type.
    name(link, { nameOf, siblings }) {
      const pair = (l: typeof link) => `${l.consumerServiceId} ${l.providerServiceId}`;
      const shared = siblings.filter((other) => pair(other as typeof link) === pair(link)).length > 1;
      const byType = shared && link.linkType ? `-${link.linkType}` : "";
      return `${nameOf(link.consumerServiceId!)}-to-${nameOf(link.providerServiceId!)}${byType}`;
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
    judge: async (ctx, { news }) =>
      typeof news.consumerServiceId === "string" && news.consumerServiceId === news.providerServiceId
        ? `providerServiceId is the consumerServiceId (${news.consumerServiceId}): a service cannot be linked to itself; use the id of the service the consumer needs, such as its database (db.id).`
        : notServices(ctx, news.projectId, [
            { path: "consumerServiceId", id: news.consumerServiceId },
            { path: "providerServiceId", id: news.providerServiceId },
          ]),
    async create(ctx, inputs) {
      const project = inputs.projectId;
      const consumer = await currentService(ctx, project, inputs.consumerServiceId);
      const linked = await linkApp(
        ctx,
        project,
        consumer ?? { id: inputs.consumerServiceId, status: "unknown" },
        [inputs.providerServiceId],
        inputs.linkType,
        // Made: recorded whatever fails after, and retried by an Update that restarts the consumer (no refresh first).
        (link) => {
          const made = serviceLinkFromWire(link) as PropertyMap;
          ctx.made(link.id, runs(consumer) ? awaitingRestart(made) : made, false);
        },
      );
      const [link] = linked.links;
      const outputs = serviceLinkFromWire(link);
      if (!linked.made)
        ctx.warn(`an identical service link already exists (${link.id}); it is adopted rather than created again.`);
      // A new link reaches an app that runs only when it (re)starts; a stopped app reads it when it starts.
      if (!linked.made || !consumer || !runs(consumer)) return { id: link.id, outputs };
      await restartedWithLink(ctx, consumer, link, outputs as PropertyMap, linked.platformRestarted);
      return { id: link.id, outputs };
    },
    // Every input replaces, so an Update comes only to retry a partial failure: a link made whose consumer did not
    // restart with it (the restart failed, or the app did). The consumer restarts again, awaited, if it runs.
    async update(ctx, address, { olds: { awaitingRestart: _, ...olds } }) {
      const project = projectOf(ctx, address, olds);
      const consumer = await currentService(ctx, project, olds.consumerServiceId!);
      if (!consumer || !runs(consumer)) return olds;
      const link = { id: address.id, providerServiceId: olds.providerServiceId! };
      await restartedWithLink(ctx, consumer, link, olds as PropertyMap, false);
      return olds;
    },
    async read(ctx, address, { outputs }) {
      const project = projectOf(ctx, address, outputs);
      const link = await orGone(() => ctx.client.of(serviceLinks).find(project, address.id, { signal: ctx.signal }));
      if (!link || !outputs.awaitingRestart) return link && serviceLinkFromWire(link);
      // A restart the link still owes is carried forward while its consumer runs (a stopped app reads it as it starts).
      const consumer = await currentService(ctx, project, link.consumerServiceId);
      return runs(consumer) ? { ...serviceLinkFromWire(link), awaitingRestart: true } : serviceLinkFromWire(link);
    },
    async delete(ctx, address) {
      ctx.warn(
        `the hosting API has no way to delete service links: link ${address.id} is removed from the stack, but stays on the platform (and keeps injecting its settings) until its consumer or provider service is deleted.`,
      );
    },
  },
};
