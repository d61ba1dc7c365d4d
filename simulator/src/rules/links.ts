// Service links (document 4.3). There is no delete endpoint; links go with their services.
import { randomUUID } from "node:crypto";
import { type Ctx, type Reply, type Route, PROJECT_PATH, created, ok } from "../context";
import { conflict, validationFailed } from "../errors";
import { optionalString, requiredString } from "../validate";
import { type SimService, appendLog, envLine, requireService, startService, touch } from "./services";

/** Document section 2.6. */
export interface SimLink {
  id: string;
  project_id: string;
  consumer_service_id: string;
  provider_service_id: string;
  link_type: string;
  injected_env: Record<string, string>;
}

declare module "../types" {
  interface SimRecords {
    links: SimLink;
  }
}

const LINK_TYPE_PATTERN = /^[a-z]+$/;

const toWireLink = (link: SimLink) => structuredClone(link);

export function listLinks(ctx: Ctx): Reply {
  const links = ctx.store.state.links.filter((link) => link.project_id === ctx.params.projectId);
  return ok({ links: links.map(toWireLink) });
}

export function createLink(ctx: Ctx): Reply {
  const fields = ctx.body();
  const consumerId = requiredString(fields, "consumer_service_id");
  const providerId = requiredString(fields, "provider_service_id");
  const linkType = optionalString(fields, "link_type") ?? "http";
  if (!LINK_TYPE_PATTERN.test(linkType)) throw validationFailed("link_type: must be lowercase letters");
  if (consumerId === providerId) {
    throw validationFailed("provider_service_id: a service cannot be linked to itself");
  }
  const projectId = ctx.params.projectId;
  const consumer = requireService(ctx.store, projectId, consumerId, "consumer service");
  const provider = requireService(ctx.store, projectId, providerId, "provider service");
  const duplicate = ctx.store.state.links.some(
    (link) =>
      link.project_id === projectId &&
      link.consumer_service_id === consumerId &&
      link.provider_service_id === providerId &&
      link.link_type === linkType,
  );
  if (duplicate) throw conflict("LINK_EXISTS", "this link already exists");

  const link: SimLink = {
    id: randomUUID(),
    project_id: projectId,
    consumer_service_id: consumerId,
    provider_service_id: providerId,
    link_type: linkType,
    injected_env: injectedEnv(provider),
  };
  ctx.store.state.links.push(link);
  if (ctx.switches.linkEnvInConsumer) materialiseEnv(ctx, consumer, provider, link.injected_env);
  if (ctx.switches.linkRestartsConsumer) restartForLink(ctx, consumer, provider);
  return created(toWireLink(link));
}

/**
 * The platform variant that writes a link's variables into the consumer's stored env (the document
 * does not say which variant is real). From then on they are ordinary env: a PATCH of env replaces
 * them like any other variable; the link record keeps its own copy.
 */
function materialiseEnv(ctx: Ctx, consumer: SimService, provider: SimService, injected: Record<string, string>): void {
  consumer.env = { ...consumer.env, ...injected };
  touch(consumer, ctx.now);
  appendLog(ctx.store, consumer.id, ctx.now, envLine(`env updated by the link to ${provider.name}`, injected));
}

/** The platform variant that restarts a running (or failed) app when a link is made, so that it reads the variables. */
function restartForLink(ctx: Ctx, consumer: SimService, provider: SimService): void {
  if (consumer.type !== "container" || consumer.status === "stopped") return;
  touch(consumer, ctx.now);
  startService(ctx, consumer, `restarted: linked to ${provider.name}`);
}

/** A database provides its connection URL; any other service its in-cluster HTTP address. */
export function injectedEnv(provider: SimService): Record<string, string> {
  if (provider.connection) return { [provider.connection.env_var]: provider.connection.instructions };
  const variable = `${provider.name.toUpperCase().replace(/-/g, "_")}_URL`;
  return { [variable]: `http://${provider.internal_host}` };
}

export const LINK_ROUTES: readonly Route[] = [
  { method: "GET", pattern: `${PROJECT_PATH}/service-links`, doc: { answers: "200: `{links}`" }, handler: listLinks },
  {
    method: "POST",
    pattern: `${PROJECT_PATH}/service-links`,
    body: ["consumer_service_id", "provider_service_id", "link_type"],
    doc: {
      body: "`consumer_service_id`, `provider_service_id` (required), `link_type` (default `http`)",
      answers:
        "201: the link, its `injected_env` fixed now (a database's connection URL, an app's address); 400 a service linked to itself, 404 either service, 409 `LINK_EXISTS`",
    },
    handler: createLink,
  },
];
