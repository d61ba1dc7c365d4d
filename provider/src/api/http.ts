// The HTTP layer: one shared keep-alive undici Agent per process and a single-attempt
// `send()` that knows whether the request was written to the socket.
//
// Why a raw dispatch handler instead of undici.request(): to decide whether a failed POST
// may be sent again we must know if the request ever left this process. undici reports
// that through the handler's `onRequestSent` hook (called once the request head and body
// were written to the socket), which the high-level request()/fetch() APIs do not expose.
// So `send()` dispatches with a small handler (`Attempt`) that records it, collects the body and
// turns transport failures into NetworkError { mayHaveReachedServer }.

import type { Agent, Dispatcher } from "undici";
import { AbortedError, NetworkError, RequestTimeoutError, SizeLimitError } from "./errors";

/**
 * undici is loaded on the first request, not with this module: it is the largest part of the
 * plugin, and a preview (Check and Diff) never sends a request.
 */
const loadUndici = () => require("undici") as typeof import("undici");

let sharedAgent: Agent | undefined;

export const AGENT_OPTIONS = {
  connections: 32,
  keepAliveTimeout: 10_000,
  keepAliveMaxTimeout: 60_000,
  connect: { timeout: 10_000 },
  // Our own AbortSignal timeout governs a request; these are only backstops.
  headersTimeout: 300_000,
  bodyTimeout: 300_000,
} as const;

/** The process-wide connection pool, shared by every HostingClient. */
export function sharedDispatcher(): Agent {
  if (!sharedAgent || sharedAgent.closed || sharedAgent.destroyed)
    sharedAgent = new (loadUndici().Agent)(AGENT_OPTIONS);
  return sharedAgent;
}

/** Close the shared pool (tests, process shutdown). A later request opens a new one. */
export async function closeSharedDispatcher(): Promise<void> {
  const a = sharedAgent;
  sharedAgent = undefined;
  if (a && !a.closed && !a.destroyed) await a.close();
}

// ---------------------------------------------------------------------------------------
// Base URL policy

const LOOPBACK_NAMES = new Set(["localhost", "::1", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (LOOPBACK_NAMES.has(h) || h.endsWith(".localhost")) return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!m) return false;
  return m.slice(1).every((p) => Number(p) <= 255) && Number(m[1]) === 127;
}

export class ClientConfigError extends Error {
  override readonly name = "ClientConfigError";
}

/**
 * Validate and normalise the base URL: https://, or http:// to a loopback host only.
 * Returns the origin and the path prefix (without a trailing slash).
 */
export function parseBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientConfigError(`baseUrl ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.username || url.password) {
    throw new ClientConfigError("baseUrl must not contain credentials; pass the token separately");
  }
  if (url.protocol === "http:") {
    if (!isLoopbackHost(url.hostname)) {
      throw new ClientConfigError(
        `baseUrl ${url.origin} uses plain http:// to a non-loopback host; the bearer token would travel unencrypted. Use https:// (http:// is allowed only for localhost, 127.0.0.0/8 and ::1).`,
      );
    }
  } else if (url.protocol !== "https:") {
    throw new ClientConfigError(`baseUrl must start with https:// (got ${url.protocol}//)`);
  }
  if (url.search || url.hash) throw new ClientConfigError("baseUrl must not carry a query string or fragment");
  // Every path of the API starts with /v1 (document section 9), which the client adds: a base URL
  // copied with it (https://api.example.com/v1) means the same API, not /v1/v1.
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "") };
}

// ---------------------------------------------------------------------------------------
// One attempt

export interface SendRequest {
  dispatcher: Dispatcher;
  origin: string;
  method: string;
  /** Full path including the base prefix (what goes on the request line). */
  path: string;
  /** Path shown in errors and logs. */
  displayPath: string;
  headers: Record<string, string>;
  body?: string;
  requestTimeoutMs: number;
  /** The largest answer read: a longer one is cut off (a Content-Length above it, at once). */
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
]);

function causeCode(err: unknown): string {
  let e: unknown = err;
  let first: string | undefined;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      // Prefer the OS-level code (ECONNRESET) over undici's wrapper (UND_ERR_SOCKET).
      if (!code.startsWith("UND_ERR_") || code === "UND_ERR_CONNECT_TIMEOUT") return code;
      first ??= code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return first ?? "ENETWORK";
}

function parseRawHeaders(raw: Buffer[] | string[] | null | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toString().toLowerCase();
    const v = raw[i + 1].toString();
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/**
 * Send one request; resolve with any HTTP response (2xx or not), reject only with a
 * NetworkError (RequestTimeoutError, AbortedError) when there is no complete response, or a
 * SizeLimitError when the answer is larger than the client reads.
 */
export function send(req: SendRequest): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => new Attempt(req, resolve, reject).start());
}

/** Why an attempt ended without a complete answer: our timeout, the caller's signal, or what undici reported. */
type Failure = "timeout" | "abort" | Error;

/**
 * One attempt in flight: what undici has reported of it (whether the request was written, the
 * answer so far), its timeout and the caller's signal, and how it settles, once.
 */
class Attempt {
  private settled = false;
  /** The request was fully written to the socket. */
  private sent = false;
  private gotHeaders = false;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private received = 0;
  /** Cuts the request off at the socket (undici's, from onConnect). */
  private abortSocket?: (err?: Error) => void;
  private timer?: NodeJS.Timeout;
  private readonly callerAborted = () => this.fail("abort");

  constructor(
    private readonly req: SendRequest,
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  start(): void {
    this.timer = setTimeout(() => this.fail("timeout"), this.req.requestTimeoutMs);
    this.req.signal?.addEventListener("abort", this.callerAborted, { once: true });
    if (this.req.signal?.aborted) {
      this.fail("abort");
      return;
    }
    try {
      this.req.dispatcher.dispatch(dispatchOptions(this.req), this.handler());
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * undici's (deprecated but supported) low-level handler interface: it is the only one that
   * reports `onRequestSent`. See the note at the top of this file.
   */
  private handler(): Dispatcher.DispatchHandler {
    const handler = {
      onConnect: (abort: (err?: Error) => void) => this.connected(abort),
      onRequestSent: () => {
        this.sent = true;
      },
      onBodySent: () => undefined,
      onResponseStarted: () => undefined,
      onHeaders: (statusCode: number, rawHeaders: Buffer[]) => this.answered(statusCode, rawHeaders),
      onData: (chunk: Buffer) => this.read(chunk),
      onComplete: () => this.complete(),
      onError: (err: Error) => this.fail(err),
      onUpgrade: () => this.fail(new Error("unexpected protocol upgrade")),
    };
    return handler as unknown as Dispatcher.DispatchHandler;
  }

  private connected(abort: (err?: Error) => void): void {
    this.abortSocket = abort;
    if (this.settled) abort(new Error("request already settled"));
  }

  /** The status line and headers; an announced body over the limit ends the attempt before it is read. */
  private answered(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx informational
    this.gotHeaders = true;
    this.status = statusCode;
    this.headers = parseRawHeaders(rawHeaders);
    if (Number(this.headers["content-length"]) > this.req.maxResponseBytes) this.fail(this.tooLarge());
    return true;
  }

  private read(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.received > this.req.maxResponseBytes) {
      this.fail(this.tooLarge());
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  private complete(): void {
    if (!this.settle()) return;
    this.resolve({ status: this.status, headers: this.headers, body: Buffer.concat(this.chunks).toString("utf8") });
  }

  private fail(why: Failure): void {
    if (!this.settle()) return;
    if (why instanceof SizeLimitError) {
      this.abortSocket?.(why);
      this.reject(why);
      return;
    }
    this.abortSocket?.(new Error(why === "timeout" ? "request timed out" : "request aborted"));
    this.reject(transportError(this.req, why, this.sent || this.gotHeaders));
  }

  /** Marks the attempt settled and drops its timer and listener; false when it already was. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.req.signal?.removeEventListener("abort", this.callerAborted);
    return true;
  }

  private tooLarge(): SizeLimitError {
    const { method, displayPath, maxResponseBytes } = this.req;
    return new SizeLimitError(method, displayPath, "response", maxResponseBytes, this.status);
  }
}

function dispatchOptions(req: SendRequest): Dispatcher.DispatchOptions {
  return {
    origin: req.origin,
    path: req.path,
    method: req.method as Dispatcher.HttpMethod,
    headers: req.headers,
    body: req.body,
  };
}

/** The error of an attempt with no complete answer; `reached`: the request was written, or an answer began. */
function transportError(req: SendRequest, why: Failure, reached: boolean): NetworkError {
  const common = { method: req.method, path: req.displayPath, mayHaveReachedServer: reached };
  if (why === "timeout") return new RequestTimeoutError({ ...common, requestTimeoutMs: req.requestTimeoutMs });
  if (why === "abort") return new AbortedError({ ...common, cause: req.signal?.reason });
  const code = causeCode(why);
  // A connect-phase failure never wrote anything, whatever `sent` says.
  return new NetworkError({
    ...common,
    code,
    mayHaveReachedServer: NOT_SENT_CODES.has(code) ? false : reached,
    cause: why,
  });
}
