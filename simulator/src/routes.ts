// The API's route table (document section 4), every collection's routes (collections.ts), and a small matcher.
import { COLLECTIONS } from "./collections";
import type { Route } from "./context";

export const ROUTES: readonly Route[] = Object.values(COLLECTIONS).flatMap((collection) => collection.routes);

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
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "wrong_method"; allowed: string[] }
  | { kind: "none" };

export function findRoute(method: string, path: string, routes: readonly Route[] = ROUTES): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: "found", route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: "wrong_method", allowed } : { kind: "none" };
}
