// The HTTP layer: one shared keep-alive undici Agent per process and a single-attempt
// `send()` that knows whether the request was written to the socket.
//
// Why a raw dispatch handler instead of undici.request(): to decide whether a failed POST
// may be sent again we must know if the request ever left this process. undici reports
// that through the handler's `onRequestSent` hook (called once the request head and body
// were written to the socket), which the high-level request()/fetch() APIs do not expose.
// So `send()` dispatches with a small handler that records it, collects the body and
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
 * NetworkError (RequestTimeoutError, AbortedError) when there is no complete response.
 */
export function send(req: SendRequest): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    let sent = false; // request fully written to the socket
    let gotHeaders = false;
    let abortFn: ((err?: Error) => void) | undefined;
    let status = 0;
    let headers: Record<string, string | string[]> = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const tooLarge = () =>
      fail(new SizeLimitError(req.method, req.displayPath, "response", req.maxResponseBytes, status));

    const timer = setTimeout(() => fail("timeout"), req.requestTimeoutMs);
    const onCallerAbort = () => fail("abort");
    req.signal?.addEventListener("abort", onCallerAbort, { once: true });

    function finish(): void {
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onCallerAbort);
    }

    function fail(kind: "timeout" | "abort" | Error): void {
      if (settled) return;
      settled = true;
      finish();
      if (kind instanceof SizeLimitError) {
        abortFn?.(kind);
        reject(kind);
        return;
      }
      const reached = sent || gotHeaders;
      const common = { method: req.method, path: req.displayPath, mayHaveReachedServer: reached };
      const marker = new Error(kind === "timeout" ? "request timed out" : "request aborted");
      abortFn?.(marker);
      if (kind === "timeout") reject(new RequestTimeoutError({ ...common, requestTimeoutMs: req.requestTimeoutMs }));
      else if (kind === "abort") reject(new AbortedError({ ...common, cause: req.signal?.reason }));
      else {
        const code = causeCode(kind);
        reject(
          new NetworkError({
            ...common,
            code,
            // A connect-phase failure never wrote anything, whatever `sent` says.
            mayHaveReachedServer: NOT_SENT_CODES.has(code) ? false : reached,
            cause: kind,
          }),
        );
      }
    }

    if (req.signal?.aborted) {
      fail("abort");
      return;
    }

    // undici's (deprecated but supported) low-level handler interface: it is the only one
    // that reports `onRequestSent`. See the note at the top of this file.
    const handler = {
      onConnect(abort: (err?: Error) => void): void {
        abortFn = abort;
        if (settled) abort(new Error("request already settled"));
      },
      onRequestSent(): void {
        sent = true;
      },
      onBodySent(): void {},
      onResponseStarted(): void {},
      onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, _statusText: string): boolean {
        if (statusCode < 200) return true; // 1xx informational
        gotHeaders = true;
        status = statusCode;
        headers = parseRawHeaders(rawHeaders);
        if (Number(headers["content-length"]) > req.maxResponseBytes) tooLarge();
        return true;
      },
      onData(chunk: Buffer): boolean {
        received += chunk.length;
        if (received > req.maxResponseBytes) {
          tooLarge();
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete(): void {
        if (settled) return;
        settled = true;
        finish();
        resolve({ status, headers, body: Buffer.concat(chunks).toString("utf8") });
      },
      onError(err: Error): void {
        fail(err);
      },
      onUpgrade(): void {
        fail(new Error("unexpected protocol upgrade"));
      },
    };

    try {
      req.dispatcher.dispatch(
        {
          origin: req.origin,
          path: req.path,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
        },
        handler as Dispatcher.DispatchHandler,
      );
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
