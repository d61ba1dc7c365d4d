// The admin API under /_sim/: the control object over HTTP (no bearer token, never in the request log).
import { KINDS } from "./collections";
import type { Reply } from "./context";
import { UnknownRecordError } from "./core";
import { checkFault } from "./faults";
import { matchPath } from "./routes";
import { checkSwitches } from "./switches";
import type { SimKind, SimulatorControl } from "./types";

type AdminHandler = (control: SimulatorControl, params: Record<string, string>, body: () => unknown) => Reply;

const json = (value: unknown): Reply => ({ status: 200, json: value });
/** A route that only acts: it answers 204. */
function acting(act: (...args: Parameters<AdminHandler>) => void): AdminHandler {
  return (...args) => {
    act(...args);
    return { status: 204 };
  };
}

function field<T>(body: unknown, key: string, type: "boolean"): T {
  const value = (body as Record<string, unknown> | null)?.[key];
  if (typeof value !== type) throw new Error(`${key}: must be a ${type}`);
  return value as T;
}

/** PATCH /_sim/{kind}/{id} takes the patch itself as the body, with wire field names. */
function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error("body: must be a JSON object");
  return body as Record<string, unknown>;
}

function kindOf(params: Record<string, string>): SimKind {
  const kind = params.kind as SimKind;
  if (!KINDS.includes(kind)) throw new UnknownRecordError(`unknown kind ${params.kind}; one of ${KINDS.join(", ")}`);
  return kind;
}

export const ADMIN_ROUTES: Array<{ method: string; pattern: string; handler: AdminHandler }> = [
  { method: "GET", pattern: "/_sim/switches", handler: (c) => json(c.switches()) },
  {
    method: "POST",
    pattern: "/_sim/switches",
    handler: (c, _p, body) => {
      c.setSwitches(checkSwitches(body()));
      return json(c.switches());
    },
  },
  {
    method: "POST",
    pattern: "/_sim/projects/:id/suspended",
    handler: acting((c, p, body) => c.setProjectSuspended(p.id, field(body(), "suspended", "boolean"))),
  },
  {
    method: "POST",
    pattern: "/_sim/containers/:id/autoscaling",
    handler: acting((c, p, body) => c.setAutoscaling(p.id, field(body(), "enabled", "boolean"))),
  },
  {
    method: "POST",
    pattern: "/_sim/faults",
    handler: acting((c, _p, body) => {
      const value = body();
      for (const fault of (Array.isArray(value) ? value : [value]).map(checkFault)) c.injectFault(fault);
    }),
  },
  { method: "GET", pattern: "/_sim/faults", handler: (c) => json(c.faults()) },
  { method: "DELETE", pattern: "/_sim/faults", handler: acting((c) => c.clearFaults()) },
  { method: "GET", pattern: "/_sim/requests", handler: (c) => json(c.requests()) },
  { method: "DELETE", pattern: "/_sim/requests", handler: acting((c) => c.clearRequests()) },
  { method: "GET", pattern: "/_sim/state", handler: (c) => json(c.snapshot()) },
  { method: "POST", pattern: "/_sim/reset", handler: acting((c) => c.reset()) },
  { method: "POST", pattern: "/_sim/volumes/:id/ready", handler: acting((c, p) => c.setVolumeReady(p.id)) },
  {
    method: "PATCH",
    pattern: "/_sim/:kind/:id",
    handler: acting((c, p, body) => c.mutate(kindOf(p), p.id, objectBody(body()))),
  },
  { method: "DELETE", pattern: "/_sim/:kind/:id", handler: acting((c, p) => c.remove(kindOf(p), p.id)) },
];

/** The admin API's own body limit (the API's is the switch maxRequestBodyBytes). */
export const ADMIN_MAX_BODY_BYTES = 16 * 1024 * 1024;

export const adminPayloadTooLarge = (): Reply => ({
  status: 413,
  json: { code: "PAYLOAD_TOO_LARGE", message: `admin request body is larger than ${ADMIN_MAX_BODY_BYTES} bytes` },
});

export const isAdminPath = (path: string): boolean => path === "/_sim" || path.startsWith("/_sim/");

export function handleAdmin(control: SimulatorControl, method: string, path: string, rawBody: string): Reply {
  const body = () => {
    try {
      return rawBody.trim() === "" ? {} : JSON.parse(rawBody);
    } catch {
      throw new Error("body: not valid JSON");
    }
  };
  for (const route of ADMIN_ROUTES) {
    const params = route.method === method ? matchPath(route.pattern, path) : undefined;
    if (!params) continue;
    try {
      return route.handler(control, params, body);
    } catch (error) {
      const status = error instanceof UnknownRecordError ? 404 : 400;
      return {
        status,
        json: { code: status === 404 ? "NOT_FOUND" : "BAD_REQUEST", message: (error as Error).message },
      };
    }
  }
  return { status: 404, json: { code: "NOT_FOUND", message: `no admin route ${method} ${path}` } };
}
