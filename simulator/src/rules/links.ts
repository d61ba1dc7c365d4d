// Service links (document 4.3). There is no delete endpoint; links go with their services.
import { randomUUID } from "node:crypto";
import { type Ctx, type Reply, created, ok } from "../context";
import { conflict, validationFailed } from "../errors";
import type { SimLink, SimService } from "../types";
import { optionalString, requiredString } from "../validate";
import { requireService } from "./services";

const LINK_TYPE_PATTERN = /^[a-z]+$/;

const toWireLink = (link: SimLink) => structuredClone(link);

export function listLinks(ctx: Ctx): Reply {
  const links = ctx.store.state.links.filter((link) => link.project_id === ctx.params.projectId);
  return ok({ links: links.map(toWireLink) });
}

export function createLink(ctx: Ctx): Reply {
  const fields = ctx.body(["consumer_service_id", "provider_service_id", "link_type"]);
  const consumerId = requiredString(fields, "consumer_service_id");
  const providerId = requiredString(fields, "provider_service_id");
  const linkType = optionalString(fields, "link_type") ?? "http";
  if (!LINK_TYPE_PATTERN.test(linkType)) throw validationFailed("link_type: must be lowercase letters");
  if (consumerId === providerId) {
    throw validationFailed("provider_service_id: a service cannot be linked to itself");
  }
  const projectId = ctx.params.projectId;
  requireService(ctx.store, projectId, consumerId, "consumer service");
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
  return created(toWireLink(link));
}

/** A database provides its connection URL; any other service its in-cluster HTTP address. */
export function injectedEnv(provider: SimService): Record<string, string> {
  if (provider.connection) return { [provider.connection.env_var]: provider.connection.instructions };
  const variable = `${provider.name.toUpperCase().replace(/-/g, "_")}_URL`;
  return { [variable]: `http://${provider.internal_host}` };
}
