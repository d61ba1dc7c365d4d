// The API's route table (document section 4) and a small matcher.
import type { Ctx, Reply } from "./context";
import { createContainer, deleteService, lifecycle, listServices, serviceLogs, updateContainer } from "./rules/containers";
import { createDatabase } from "./rules/databases";
import { createLink, listLinks } from "./rules/links";
import { createRegistry, deleteRegistry, getRegistry, listRegistries, replaceRegistry } from "./rules/registries";
import {
  attachVolume, createVolume, deleteVolume, detachVolume, getVolume, listVolumes, resizeVolume,
} from "./rules/volumes";

export type Handler = (ctx: Ctx) => Reply;

interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

const PROJECT = "/v1/projects/:projectId";
const CONTAINER = `${PROJECT}/containers/:containerId`;
const VOLUME = `${PROJECT}/volumes/:volumeId`;

export const ROUTES: Route[] = [
  { method: "GET", pattern: `${PROJECT}/containers`, handler: listServices },
  { method: "POST", pattern: `${PROJECT}/containers`, handler: createContainer },
  { method: "PATCH", pattern: CONTAINER, handler: updateContainer },
  { method: "DELETE", pattern: CONTAINER, handler: deleteService },
  { method: "GET", pattern: `${CONTAINER}/logs`, handler: serviceLogs },
  { method: "POST", pattern: `${CONTAINER}/restart`, handler: lifecycle("restart") },
  { method: "POST", pattern: `${CONTAINER}/stop`, handler: lifecycle("stop") },
  { method: "POST", pattern: `${CONTAINER}/start`, handler: lifecycle("start") },

  { method: "POST", pattern: `${PROJECT}/postgres`, handler: createDatabase("postgres") },
  { method: "POST", pattern: `${PROJECT}/mysql`, handler: createDatabase("mysql") },
  { method: "POST", pattern: `${PROJECT}/redis`, handler: createDatabase("redis") },

  { method: "GET", pattern: `${PROJECT}/service-links`, handler: listLinks },
  { method: "POST", pattern: `${PROJECT}/service-links`, handler: createLink },

  { method: "GET", pattern: "/v1/registries", handler: listRegistries },
  { method: "POST", pattern: "/v1/registries", handler: createRegistry },
  { method: "GET", pattern: "/v1/registries/:registryId", handler: getRegistry },
  { method: "PUT", pattern: "/v1/registries/:registryId", handler: replaceRegistry },
  { method: "DELETE", pattern: "/v1/registries/:registryId", handler: deleteRegistry },

  { method: "POST", pattern: `${PROJECT}/volumes`, handler: createVolume },
  { method: "GET", pattern: `${PROJECT}/volumes`, handler: listVolumes },
  { method: "GET", pattern: VOLUME, handler: getVolume },
  { method: "PATCH", pattern: VOLUME, handler: resizeVolume },
  { method: "DELETE", pattern: VOLUME, handler: deleteVolume },
  { method: "POST", pattern: `${VOLUME}/attach`, handler: attachVolume },
  { method: "POST", pattern: `${VOLUME}/detach`, handler: detachVolume },
];

/** Path parameters when `path` fits `pattern` (":name" segments capture), else undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (got[i] === "") return undefined;
      const value = safeDecode(got[i]);
      if (value === undefined) return undefined;
      params[want[i].slice(1)] = value;
    } else if (want[i] !== got[i]) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export type RouteMatch =
  | { kind: "found"; handler: Handler; params: Record<string, string> }
  | { kind: "wrong_method"; allowed: string[] }
  | { kind: "none" };

export function findRoute(method: string, path: string, routes: Route[] = ROUTES): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: "found", handler: route.handler, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: "wrong_method", allowed } : { kind: "none" };
}
