// One typed error family for everything the API client can throw.
//
//   HostingApiClientError            (base; never thrown directly)
//   ├─ ApiError                      the server answered with a non-2xx status
//   │   ├─ BadRequestError      400
//   │   ├─ UnauthorizedError    401
//   │   ├─ PaymentRequiredError 402
//   │   ├─ ForbiddenError       403
//   │   ├─ NotFoundError        404
//   │   ├─ ConflictError        409
//   │   ├─ RateLimitedError     429
//   │   └─ ServerError          5xx
//   ├─ NetworkError                  no HTTP status at all (never dressed up as a 500)
//   │   ├─ RequestTimeoutError       our per-request timeout fired
//   │   └─ AbortedError              the caller's AbortSignal fired
//   ├─ ResponseValidationError       a 2xx body that does not match the wire schema
//   ├─ SizeLimitError                a request or an answer larger than the client sends or reads
//   ├─ InvalidIdError                an id that cannot be a path segment (nothing was sent)
//   ├─ UnusableIdError               a create answered with an id that cannot be one
//   └─ ProjectNotVisibleError        a project's list reads as 404: the token cannot see it
//
// Every ApiError is built by `createApiError`, the single factory that reads both error
// body shapes of the API document (section 7) and the `x-request-id` header.
// Messages never contain the bearer token: the factory blanks any secret it is given from
// server-provided text (a server or proxy could echo the Authorization header), by the one
// redaction of ../redact.ts.
import { notAnIdMessage } from "../ids";
import { Secrets } from "../redact";

export class HostingApiClientError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // Every error of the family is named after its class (the bundle keeps class names).
    this.name = new.target.name;
  }
}

export interface ApiErrorInit {
  status: number;
  code: string;
  /** The API's own message text (without the code/status decoration). */
  detail: string;
  requestId?: string;
  method: string;
  path: string;
  /** Parsed `Retry-After` in milliseconds, when the response carried one. */
  retryAfterMs?: number;
}

/** `<CODE>: <message> (HTTP <status>, request <id>)` */
export function formatApiErrorMessage(init: Pick<ApiErrorInit, "status" | "code" | "detail" | "requestId">): string {
  const where = init.requestId ? `HTTP ${init.status}, request ${init.requestId}` : `HTTP ${init.status}`;
  return `${init.code}: ${init.detail} (${where})`;
}

export class ApiError extends HostingApiClientError {
  readonly status: number;
  readonly code: string;
  /** The API's message text alone; `message` is the decorated form. */
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(formatApiErrorMessage(init));
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class BadRequestError extends ApiError {}
export class UnauthorizedError extends ApiError {}
export class PaymentRequiredError extends ApiError {}
export class ForbiddenError extends ApiError {}
export class NotFoundError extends ApiError {}

/**
 * A project's own list answered 404. The API answers so both for a project that does not exist
 * and for one the token may not see (section 5.4), so nothing in it may be read as deleted: a
 * refresh with another account's token would empty the stack.
 */
export class ProjectNotVisibleError extends HostingApiClientError {
  constructor(
    readonly projectId: string,
    cause: NotFoundError,
  ) {
    super(
      `project ${projectId} reads as 404 NOT_FOUND: the token cannot see it (the API answers 404 both for a project that does not exist and for one the token's user may not see), so nothing in it is reported as deleted. Check hosting:token (another account's token, a CI secret swapped?) and hosting:projectId. If the project really is gone, remove its resources from the stack with \`pulumi state delete <urn>\`. (${cause.message})`,
      { cause },
    );
  }
}
export class ConflictError extends ApiError {}
export class RateLimitedError extends ApiError {}
export class ServerError extends ApiError {}

export interface NetworkErrorInit {
  /** Transport cause code, e.g. ECONNRESET, ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ETIMEDOUT. */
  code: string;
  method: string;
  path: string;
  /**
   * False only when we know the request never left this process completely
   * (connect refused, DNS failure, socket closed before the request was written,
   * timed out while still queued). A POST with `false` is safe to send again.
   */
  mayHaveReachedServer: boolean;
  cause?: unknown;
  detail?: string;
}

/** `(POST /v1/…; no HTTP response; the request may have reached the server)`: what one attempt with no answer says. */
const noResponse = (init: Pick<NetworkErrorInit, "method" | "path" | "mayHaveReachedServer">) =>
  `(${init.method} ${init.path}; no HTTP response; the request ${init.mayHaveReachedServer ? "may have reached" : "never reached"} the server)`;

export class NetworkError extends HostingApiClientError {
  readonly code: string;
  readonly method: string;
  readonly path: string;
  readonly mayHaveReachedServer: boolean;

  /** `message`: for a subclass whose failure is not one attempt's (an abort between attempts). */
  constructor(init: NetworkErrorInit, message?: string) {
    const detail = init.detail ?? describeCause(init.cause) ?? "network failure";
    super(
      message ?? `${init.code}: ${detail} ${noResponse(init)}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.mayHaveReachedServer = init.mayHaveReachedServer;
  }
}

export class RequestTimeoutError extends NetworkError {
  readonly requestTimeoutMs: number;
  constructor(init: Omit<NetworkErrorInit, "code" | "detail"> & { requestTimeoutMs: number }) {
    super({ ...init, code: "ETIMEDOUT", detail: `no response within ${init.requestTimeoutMs} ms` });
    this.requestTimeoutMs = init.requestTimeoutMs;
  }
}

export class AbortedError extends NetworkError {
  /**
   * `after`: the last attempt's failure, when the caller gave up between attempts (a deadline says what it was). Then
   * the message is that failure's, as it was (an HTTP status, or no answer), never "no HTTP response" of its own.
   */
  constructor(init: Omit<NetworkErrorInit, "code" | "detail"> & { after?: Error }) {
    const { after, ...rest } = init;
    super(
      { ...rest, code: "ABORT_ERR", detail: "the operation was aborted by the caller" },
      after && abortedAfter(init, after),
    );
  }
}

/** An abort between attempts: what the last one came to, and whether an earlier one may have acted. */
function abortedAfter(init: Pick<NetworkErrorInit, "method" | "path" | "mayHaveReachedServer">, after: Error): string {
  const last = after instanceof NetworkError ? `failed: ${after.message}` : `was answered ${after.message}`;
  const saidSo = after instanceof NetworkError && after.mayHaveReachedServer;
  const acted =
    init.mayHaveReachedServer && init.method !== "GET" && !saidSo
      ? "; an earlier attempt may have reached the server"
      : "";
  return `ABORT_ERR: the operation was aborted by the caller while ${init.method} ${init.path} was being retried; its last attempt ${last}${acted}`;
}

/**
 * A request body larger than the client sends (nothing was sent), or an answer larger than it
 * reads (it stopped reading; the server answered, so a write's effect is unknown).
 */
export class SizeLimitError extends HostingApiClientError {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly direction: "request" | "response",
    readonly limitBytes: number,
    readonly status?: number,
  ) {
    super(
      direction === "request"
        ? `${method} ${path}: the request body is larger than the ${mebibytes(limitBytes)} the provider sends; nothing was sent`
        : `${method} ${path}: the API's answer (HTTP ${status}) is larger than the ${mebibytes(limitBytes)} the provider reads; it stopped reading. If the project really holds that much, raise \`hosting:maxResponseMegabytes\``,
    );
  }
}

const mebibytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KiB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** An id (or project) that is not one: refused before any request, so that an id never becomes a path. */
export class InvalidIdError extends HostingApiClientError {
  constructor(
    what: string,
    value: unknown,
    readonly why: string,
  ) {
    super(notAnIdMessage(what, value, why));
  }
}

/** A create answered with an id that cannot be one (`..`, `a/../b`, empty): never used in a path, never recorded. */
export class UnusableIdError extends HostingApiClientError {}

export class ResponseValidationError extends HostingApiClientError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly requestId: string | undefined;
  /** One entry per problem, each `<field path>: <problem>`, e.g. `[3].replicas: expected number, received string`. */
  readonly problems: string[];

  constructor(init: { method: string; path: string; status: number; requestId?: string; problems: string[] }) {
    const shown =
      init.problems.slice(0, 5).join("; ") + (init.problems.length > 5 ? `; … ${init.problems.length - 5} more` : "");
    super(
      `${init.method} ${init.path}: ${shown} (unexpected response shape, HTTP ${init.status}${init.requestId ? `, request ${init.requestId}` : ""})`,
    );
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.requestId = init.requestId;
    this.problems = init.problems;
  }
}

// ---------------------------------------------------------------------------------------
// The factory

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

const CODE_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_ENTITY",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  501: "NOT_IMPLEMENTED",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

const TEXT_BY_STATUS: Record<number, string> = {
  400: "bad request",
  401: "missing or invalid credential",
  402: "payment required",
  403: "forbidden",
  404: "not found",
  409: "conflict",
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
};

export function codeForStatus(status: number): string {
  if (status >= 300 && status < 400) return "REDIRECT_NOT_FOLLOWED";
  return CODE_BY_STATUS[status] ?? `HTTP_${status}`;
}

export interface ErrorResponse {
  status: number;
  method: string;
  path: string;
  /** Response headers, lower-case names. */
  headers?: Record<string, string | string[] | undefined>;
  /** The raw response body text (may be empty, JSON, or anything a proxy sends). */
  body?: string;
  /** Parsed Retry-After, if the caller already has it. */
  retryAfterMs?: number;
  /** Strings that must never appear in an error (the bearer token). */
  secrets?: readonly string[];
  /** What was sent, for the answers that are about its size (413, 431). */
  sent?: { bodyBytes: number; tokenBytes: number };
}

function headerValue(headers: ErrorResponse["headers"], name: string): string | undefined {
  const v = headers?.[name];
  if (Array.isArray(v)) return v[0];
  return v ?? undefined;
}

function asNonEmptyString(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

/** Read `{code, message}`, `{error, request_id}` (and a nested `{error: {code, message}}`). */
export function parseErrorBody(body: string | undefined): { code?: string; message?: string; requestId?: string } {
  if (!body || body.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON (an HTML page from a proxy, say): keep a short, single-line excerpt.
    const text = body
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return text ? { message: text.length > 200 ? `${text.slice(0, 200)}…` : text } : {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return typeof parsed === "string" && parsed.trim() ? { message: parsed } : {};
  }
  const o = parsed as Record<string, unknown>;
  let code = asNonEmptyString(o.code);
  let message = asNonEmptyString(o.message);
  const requestId = asNonEmptyString(o.request_id) ?? asNonEmptyString(o.requestId);
  const err = o.error;
  if (typeof err === "string" && err.trim() !== "") {
    if (UPPER_SNAKE.test(err.trim())) code ??= err.trim();
    else message ??= err;
  } else if (typeof err === "object" && err !== null) {
    const e = err as Record<string, unknown>;
    code ??= asNonEmptyString(e.code);
    message ??= asNonEmptyString(e.message);
  }
  if (code !== undefined && !UPPER_SNAKE.test(code)) {
    // A code that is not a code ("not found") is really a message.
    message ??= code;
    code = undefined;
  }
  return { code, message, requestId };
}

type ApiErrorClass = new (init: ApiErrorInit) => ApiError;

/** The class of each status family; any other 5xx is a ServerError, any other status a plain ApiError. */
const FAMILY: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: UnauthorizedError,
  402: PaymentRequiredError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitedError,
};

const classForStatus = (status: number): ApiErrorClass =>
  FAMILY[status] ?? (status >= 500 && status <= 599 ? ServerError : ApiError);

/** The one place an ApiError is built. */
/**
 * What the client knows better than the API's text: a redirect it does not follow (and where it
 * pointed), and which part of the request was too large.
 */
function explained(res: ErrorResponse, text: string | undefined): string | undefined {
  const said = text ? ` (${text})` : "";
  if (res.status >= 300 && res.status < 400) {
    const location = headerValue(res.headers, "location");
    return `the API answered with a redirect ${location ? `to ${location}` : "that says nowhere"}, which the provider does not follow: a redirect could carry the bearer token to another host. Set hosting:baseUrl to the address the API answers at${said}`;
  }
  if (res.status === 413 && res.sent)
    return `the request body (${res.sent.bodyBytes.toLocaleString("en")} bytes) is larger than the server takes${said}`;
  if (res.status === 431 && res.sent) {
    return `the request's headers are larger than the server takes, and the bearer token is the only large one (${res.sent.tokenBytes.toLocaleString("en")} bytes): check that hosting:token holds the access token and nothing else${said}`;
  }
  return undefined;
}

export function createApiError(res: ErrorResponse): ApiError {
  const parsed = parseErrorBody(res.body);
  const code = parsed.code ?? codeForStatus(res.status);
  const secrets = new Secrets(res.secrets);
  const detail = secrets.redact(
    explained(res, parsed.message) ?? parsed.message ?? TEXT_BY_STATUS[res.status] ?? `HTTP ${res.status}`,
  );
  const requestId = parsed.requestId ?? headerValue(res.headers, "x-request-id");
  const Cls = classForStatus(res.status);
  return new Cls({
    status: res.status,
    code: secrets.redact(code),
    detail,
    requestId: requestId === undefined ? undefined : secrets.redact(requestId),
    method: res.method,
    path: res.path,
    retryAfterMs: res.retryAfterMs,
  });
}

function describeCause(cause: unknown): string | undefined {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === "string") return cause;
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Helpers

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

export function isNotFound(e: unknown): e is NotFoundError {
  return e instanceof NotFoundError;
}

/** The 409 codes the API document names for conflicts other than a taken name (section 7). */
const OTHER_CONFLICTS = new Set([
  "AUTOSCALING_OWNS_REPLICAS",
  "LIFECYCLE_UNSUPPORTED",
  "PROJECT_SUSPENDED",
  "INSUFFICIENT_CAPACITY",
  "RWO_REPLICA_LIMIT",
  "VOLUME_ALREADY_ATTACHED",
  "ALREADY_ATTACHED",
  "MOUNT_PATH_IN_USE",
  "VOLUME_ATTACHED",
]);

/**
 * Whether a create was refused because its name (or, for a link, the link itself) is taken: a
 * 409 to a POST that is none of the other conflicts the API names. The document does not say
 * which code a taken name has, so none is relied on.
 */
export function isNameTaken(e: unknown): boolean {
  return e instanceof ConflictError && e.method === "POST" && !OTHER_CONFLICTS.has(e.code);
}

/**
 * Whether a failed request may have acted on the server without our knowing what it did: a write
 * (any method but GET) that may have reached the server and got no answer, or whose answer was a
 * server failure (5xx), or a success we could not read. The one rule for "outcome unknown": the
 * transport looks such a create up before it sends anything again, and the engine is told that
 * the resource's state may be off.
 */
export function outcomeUnknown(e: unknown): boolean {
  if (e instanceof NetworkError) return e.method !== "GET" && e.mayHaveReachedServer;
  if (e instanceof ServerError || e instanceof ResponseValidationError) return e.method !== "GET";
  if (e instanceof SizeLimitError) return e.method !== "GET" && e.direction === "response";
  return false;
}
