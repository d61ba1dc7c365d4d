import type { Store } from "./state";
import type { SimUser, Switches } from "./types";
import type { Fields } from "./validate";

/** What an API handler gets: the caller, the world, the switches, the clock and the request. */
export interface Ctx {
  user: SimUser;
  store: Store;
  switches: Switches;
  now: number;
  /** Path parameters by name: projectId, containerId, volumeId, registryId. */
  params: Record<string, string>;
  /** The JSON object body, read as its route declares (`Route.body`). */
  body(): Fields;
}

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export const ok = (json: unknown): Reply => ({ status: 200, json });
export const created = (json: unknown): Reply => ({ status: 201, json });
export const noContent = (): Reply => ({ status: 204 });

export type Handler = (ctx: Ctx) => Reply;

/** One endpoint of the API: `pattern`'s ":name" segments become `ctx.params`. */
export interface Route {
  method: string;
  pattern: string;
  /**
   * The fields its JSON object body may carry; any other is 400 VALIDATION_FAILED naming it (it
   * catches wire-name slips). None: the endpoint reads no body.
   */
  body?: readonly string[];
  /** The document allows other fields in this body: they are ignored, not refused. */
  otherFieldsIgnored?: true;
  /** Its row in docs/simulator.md's table of endpoints, which `make docs` writes from the routes. */
  doc: RouteDoc;
  handler: Handler;
}

export interface RouteDoc {
  /** The body column, when it says more than the names of `body` (which are required, their defaults). */
  body?: string;
  /** What it answers: the status and what comes with it, then the errors of its own. */
  answers: string;
}

/** The prefix of every project-scoped path (document section 4). */
export const PROJECT_PATH = "/v1/projects/:projectId";
