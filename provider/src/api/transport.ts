// The request loop: admission (rate control) -> one attempt (http.ts) -> classify ->
// next step (retry.ts's pure `nextStep`) -> maybe recover an unknown-outcome create. `attempt` is one
// send, returning what came of it; `loop` only carries out what `nextStep` decides.
//
// Cancel safety lives here. A read stops the moment its caller's signal aborts. A write in
// flight is never aborted: cutting a create's POST would not undo it on the server, and its
// answer (the id) must reach the engine, or the resource is an orphan. So a write's signal is
// only looked at between steps (before it is admitted, before a retry); a write that has
// answered returns its answer, and the abort takes effect at the caller's next step. A write
// whose outcome is unknown is looked up (`recover`) before the abort is honoured.
//
// Why not undici's RetryAgent / RetryHandler: its `retry` callback sees the error and the
// request options, but
//   1. it cannot tell whether a failed POST ever reached the server (undici only reports
//      that to a dispatch handler's `onRequestSent`, which http.ts records), so it can
//      express neither "retry a POST that never reached the server" nor "look the
//      resource up before resending a create whose outcome is unknown" (that needs other
//      requests, made between attempts);
//   2. its retries happen below our admission queue, so they would bypass the client-wide
//      rate control (after a 429 every request must wait, the retries included) and our
//      per-attempt logging.
// So the loop is ours; the policy itself is the pure `nextStep` (retry.ts).

import type { Dispatcher } from "undici";
import type { z } from "zod";
import {
  AbortedError,
  ConflictError,
  type HostingApiClientError,
  NetworkError,
  NotFoundError,
  ResponseValidationError,
  ServerError,
  SizeLimitError,
  createApiError,
  outcomeUnknown,
} from "./errors";
import { send, sharedDispatcher, type RawResponse } from "./http";
import { RateController, type Admission, type RateControlOptions, type Ticket } from "./rateControl";
import { backoffDelay, nextStep, parseRetryAfter, rateLimitPause } from "./retry";
import { Secrets } from "../redact";
import { parseList, parseWire, type ListShape } from "./wire";

/**
 * How long a request that no caller can cut short (no signal: a library caller's, a create's lookup) goes on being
 * answered 429 before it fails: the default customTimeouts. A request with a signal goes on until the signal ends it.
 */
export const DEFAULT_RATE_LIMIT_PATIENCE_MS = 10 * 60 * 1000;
/** The largest request body sent: far above what any bounded input makes, far below what stalls a server. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** The largest answer read unless configured otherwise: a project's list of 10,000 apps is about 6 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-request timeout for this call. */
  requestTimeoutMs?: number;
  /** A list read made alongside another read of the same caller, which the batching counts instead (loader.ts). */
  alongside?: boolean;
}

export type ResponseKind<T> =
  | { kind: "json"; schema: z.ZodType<T> }
  /** A ListAnswer: its records are checked as they are read. */
  | { kind: "list"; shape: ListShape<unknown> }
  | { kind: "text" }
  | { kind: "empty" };

export interface RequestSpec<T> extends CallOptions {
  method: Method;
  /** API path below the base URL, already encoded, e.g. `/v1/projects/p/containers`. */
  path: string;
  body?: unknown;
  response: ResponseKind<T>;
  /**
   * For creates (and other non-repeatable POSTs that can be checked): called when the
   * outcome of an attempt is unknown, and on a 409 after such an attempt. Returns the
   * resource if the earlier attempt took effect, else undefined (then it is safe to send
   * again, within the retry budget).
   */
  recover?: (opts: CallOptions) => Promise<{ value: T } | undefined>;
}

export interface TransportOptions {
  origin: string;
  prefix: string;
  token: string;
  requestTimeoutMs: number;
  /** The largest answer read (default 64 MiB). */
  maxResponseBytes?: number;
  maxRetries: number;
  /** How long a request no caller can cut short (no signal) goes on being answered 429 before it fails. */
  rateLimitPatienceMs?: number;
  retryAfterCapMs: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  userAgent: string;
  logger?: (line: string) => void;
  rateControl?: RateControlOptions;
  /** Another admission control in place of the RateController (`rateControl` is then unused). */
  rateController?: Admission;
  dispatcher?: Dispatcher;
  /** Randomness for backoff jitter (tests). */
  random?: () => number;
}

export class Transport {
  readonly rate: Admission;
  private readonly opts: Omit<TransportOptions, "token">;
  // #private: invisible to util.inspect, JSON.stringify and enumeration.
  readonly #token: string;
  readonly #secrets: string[];
  /** The redaction of every trace line: built once, not per line. */
  readonly #redaction: Secrets;

  constructor(opts: TransportOptions) {
    const { token, ...rest } = opts;
    this.opts = rest;
    this.#token = token;
    this.#secrets = [token];
    this.#redaction = new Secrets(this.#secrets);
    this.rate = opts.rateController ?? new RateController(opts.rateControl);
  }

  /** When this client's requests were answered 429, most recent last (a few minutes' worth). */
  private readonly rateLimited: number[] = [];
  /** The server's clock minus ours, from the last answer's Date header (whole seconds), if any came. */
  serverClockOffsetMs?: number;
  /** How many writes (requests other than GET) this client has sent: a snapshot taken before one is stale. */
  writes = 0;

  /**
   * What one request costs against the API's budget of requests, in ms: `assumed` while the API has
   * said nothing of its limit, and what the rate the client slowed to after a 429 says, if more.
   */
  requestPriceMs(assumed: number): number {
    const rate = (this.rate.snapshot() as { ratePerSecond?: number }).ratePerSecond;
    return rate !== undefined && Number.isFinite(rate) && rate > 0 ? Math.max(assumed, 1000 / rate) : assumed;
  }

  request<T>(spec: RequestSpec<T>): Promise<T> {
    return this.tracked(spec);
  }

  /** The attempts of one request, whose last failure is known while it is retried. */
  private tracked<T>(spec: RequestSpec<T>): Promise<T> {
    const key = `${spec.method} ${spec.path}`;
    return this.loop(spec, (failure) => this.retrying.set(key, failure)).finally(() => this.retrying.delete(key));
  }

  /**
   * The last failed attempt of each request still retrying (`GET /v1/…`), so that a caller who gives up can say what
   * it was.
   */
  private readonly retrying = new Map<string, HostingApiClientError>();

  /** Why the request to `path` was still being retried, if it was: a caller that gives up names it (a 503, a reset). */
  lastFailure(method: string, path: string): HostingApiClientError | undefined {
    return this.retrying.get(`${method} ${path}`);
  }

  /** How many answers were 429 since `since` (epoch ms): what held up an operation that ran out of time. */
  rateLimitedSince(since: number): number {
    while (this.rateLimited.length > 0 && this.rateLimited[0] < Date.now() - 10 * 60_000) this.rateLimited.shift();
    return this.rateLimited.filter((at) => at >= since).length;
  }

  private noteServerClock(date: string | undefined): void {
    const at = date === undefined ? NaN : Date.parse(date);
    if (Number.isFinite(at)) this.serverClockOffsetMs = at - Date.now();
  }

  /**
   * A GET that several callers share (a FreshList's fetch): its signal is not one caller's but ends when all of them
   * have given up (loader.ts `whileWanted`), so that one caller giving up does not fail the others.
   */
  shared<T>(spec: Omit<RequestSpec<T>, "method" | "recover">): Promise<T> {
    return this.tracked<T>({ ...spec, method: "GET" });
  }

  private log(line: string): void {
    const logger = this.opts.logger;
    if (!logger) return;
    try {
      logger(this.#redaction.redact(line));
    } catch {
      // a logger must never break a request
    }
  }

  /** Headers and body of a request, checked once for all its attempts. */
  private prepare(spec: RequestSpec<unknown>): Prepared {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#token}`,
      "user-agent": this.opts.userAgent,
      accept: spec.response.kind === "text" ? "text/plain, application/json" : "application/json",
    };
    if (spec.body === undefined) return { headers };
    const body = JSON.stringify(spec.body);
    headers["content-type"] = "application/json";
    // Check bounds each property; this bounds the whole, before anything is sent.
    if (Buffer.byteLength(body) > MAX_REQUEST_BYTES) {
      throw new SizeLimitError(spec.method, spec.path, "request", MAX_REQUEST_BYTES);
    }
    return { headers, body };
  }

  /** Attempts until one answers or `nextStep` says stop; the policy is `nextStep`'s, this only carries it out. */
  private async loop<T>(spec: RequestSpec<T>, failed: (failure: HostingApiClientError) => void = () => {}): Promise<T> {
    const { method, path } = spec;
    if (method !== "GET") this.writes++;
    const prepared = this.prepare(spec);
    const state: LoopState = { recovering: false, mayHaveActed: false, retriesSpent: 0 };
    for (let attempt = 0; ; attempt++) {
      if (spec.signal?.aborted) return this.abandon(spec, state);
      const ticket = await this.rate.acquire(spec.signal).catch(() => undefined); // rejects only on abort
      if (ticket === undefined) return this.abandon(spec, state);
      const outcome = await this.attempt(spec, prepared, ticket, attempt);
      if (outcome.kind === "answered") return outcome.value;

      const { failure } = outcome;
      state.lastFailure = failure;
      failed(failure);
      if (outcomeUnknown(failure)) state.mayHaveActed = true;
      if (outcome.status === 429) state.firstRateLimitedAt ??= Date.now();
      const next = nextStep({
        method,
        attempt,
        retriesSpent: state.retriesSpent,
        maxRetries: this.opts.maxRetries,
        status: outcome.status,
        networkError: outcome.network !== undefined,
        mayHaveReachedServer: outcome.network?.mayHaveReachedServer,
        retryAfter: outcome.retryAfter,
        now: Date.now(),
        rateLimitedForMs: state.firstRateLimitedAt === undefined ? 0 : Date.now() - state.firstRateLimitedAt,
        // A caller's signal is its time (an operation's deadline): 429s go on until it ends.
        rateLimitPatienceMs: spec.signal ? Infinity : (this.opts.rateLimitPatienceMs ?? DEFAULT_RATE_LIMIT_PATIENCE_MS),
        retryAfterCapMs: this.opts.retryAfterCapMs,
        baseDelayMs: this.opts.retryBaseDelayMs,
        maxDelayMs: this.opts.retryMaxDelayMs,
        random: this.opts.random,
        outcomeUnknown: outcomeUnknown(failure),
        acted: outcome.acted,
        mayHaveActed: state.mayHaveActed,
        canRecover: spec.recover !== undefined,
        recovering: state.recovering,
        emptyAnswer: spec.response.kind === "empty",
        notFound: failure instanceof NotFoundError,
        conflict: failure instanceof ConflictError,
      });
      if ((next.step === "retry" && next.spends) || next.step === "look_up") state.retriesSpent++;

      switch (next.step) {
        case "retry":
          this.log(
            next.reason === "rate_limited"
              ? `${method} ${path}: retrying when the client-wide pause ends (${next.pauseMs}ms) (rate_limited)`
              : `${method} ${path}: retrying in ${next.delayMs}ms (${next.reason})`,
          );
          if (await this.gaveUpWaiting(spec, state, next.delayMs)) return this.abandon(spec, state);
          continue;
        case "look_up": {
          state.recovering = true;
          this.log(`${method} ${path}: outcome unknown; looking the resource up before sending again`);
          const found = await this.tryRecover(spec, failure);
          if (found !== undefined) {
            this.log(`${method} ${path}: the earlier attempt took effect; using the existing resource`);
            return found.value;
          }
          if (!next.sendAgain) {
            this.log(`${method} ${path}: the server acted, but nothing it made was found; not sending again`);
            throw failure;
          }
          this.log(`${method} ${path}: not found; sending again in ${next.delayMs}ms`);
          if (await this.gaveUpWaiting(spec, state, next.delayMs)) return this.abandon(spec, state);
          continue;
        }
        case "deleted":
          this.log(`${method} ${path}: 404 after an attempt with unknown outcome; the earlier attempt took effect`);
          return undefined as T;
        case "look_up_or_fail": {
          const found = await this.tryRecover(spec, failure);
          if (found !== undefined) return found.value;
          throw failure;
        }
        case "fail":
          throw failure;
      }
    }
  }

  /**
   * One attempt: send, settle the ticket with the rate control, log, and say what came of it. Only a
   * read aborted by its caller (and a fault that is no API's) escapes as an exception.
   */
  private async attempt<T>(
    spec: RequestSpec<T>,
    prepared: Prepared,
    ticket: Ticket,
    attempt: number,
  ): Promise<AttemptOutcome<T>> {
    const { method, path } = spec;
    const started = Date.now();
    let res: RawResponse;
    try {
      res = await send({
        dispatcher: this.opts.dispatcher ?? sharedDispatcher(),
        origin: this.opts.origin,
        method,
        path: this.opts.prefix + path,
        displayPath: path,
        headers: prepared.headers,
        body: prepared.body,
        requestTimeoutMs: spec.requestTimeoutMs ?? this.opts.requestTimeoutMs,
        maxResponseBytes: this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        // A read is aborted at once; a write in flight never is (see the top of this file).
        signal: method === "GET" ? spec.signal : undefined,
      });
    } catch (e) {
      this.rate.settle(ticket, { kind: "failed" });
      const ms = Date.now() - started;
      if (e instanceof AbortedError) {
        this.log(`${method} ${path} -> aborted by caller after ${ms}ms (attempt ${attempt + 1})`);
        throw e;
      }
      if (e instanceof NetworkError) {
        this.log(
          `${method} ${path} -> ${e.code} after ${ms}ms (attempt ${attempt + 1}; ${e.mayHaveReachedServer ? "may have reached the server" : "never reached the server"})`,
        );
        return { kind: "failed", failure: e, network: e, acted: false };
      }
      if (!(e instanceof SizeLimitError)) throw e;
      this.log(`${method} ${path} -> ${e.message}`);
      return { kind: "failed", failure: e, status: e.status, acted: (e.status ?? 0) < 300 };
    }

    const requestId = firstHeader(res.headers["x-request-id"]);
    const request = requestId ? `, request ${requestId}` : "";
    this.log(`${method} ${path} -> ${res.status} in ${Date.now() - started}ms (attempt ${attempt + 1}${request})`);
    this.noteServerClock(firstHeader(res.headers.date));
    const retryAfter = firstHeader(res.headers["retry-after"]);
    const retryAfterMs = parseRetryAfter(retryAfter, Date.now(), this.opts.retryAfterCapMs);
    if (res.status === 429) {
      this.rateLimited.push(Date.now());
      // Client-wide: after a 429 everyone waits (retry.ts's rule: the Retry-After, or its floor), and the rate is cut.
      const waitMs = rateLimitPause(retryAfter, Date.now(), this.opts.retryAfterCapMs);
      this.rate.settle(ticket, { kind: "rate_limited", waitMs });
    } else this.rate.settle(ticket, { kind: "success" });
    const failed = { kind: "failed", status: res.status, retryAfter } as const;
    if (res.status < 200 || res.status >= 300) {
      const failure = createApiError({
        status: res.status,
        method,
        path,
        headers: res.headers,
        body: res.body,
        retryAfterMs,
        secrets: this.#secrets,
        sent: {
          bodyBytes: prepared.body === undefined ? 0 : Buffer.byteLength(prepared.body),
          tokenBytes: Buffer.byteLength(this.#token),
        },
      });
      return { ...failed, failure, acted: false };
    }
    try {
      return { kind: "answered", value: this.parse(spec, res, requestId) };
    } catch (e) {
      // A success we cannot read: the server acted (a write's effect is not known), and the same answer would
      // come again.
      if (!(e instanceof ResponseValidationError)) throw e;
      return { ...failed, failure: e, acted: true };
    }
  }

  private aborted(spec: RequestSpec<unknown>, state: LoopState): AbortedError {
    const { method, path } = spec;
    return new AbortedError({ method, path, mayHaveReachedServer: state.mayHaveActed, after: state.lastFailure });
  }

  /** The caller gave up between steps: settle an unknown outcome first, then stop. */
  private async abandon<T>(spec: RequestSpec<T>, state: LoopState): Promise<T> {
    if (spec.method !== "GET" && state.recovering && spec.recover) {
      const found = await this.tryRecover(spec, this.aborted(spec, state)).catch(() => undefined);
      if (found !== undefined) return found.value;
    }
    throw this.aborted(spec, state);
  }

  /** Waits `ms` unless the caller gives up first; true when it did. */
  private gaveUpWaiting(spec: RequestSpec<unknown>, state: LoopState, ms: number): Promise<boolean> {
    return sleep(ms, spec.signal, () => this.aborted(spec, state)).then(
      () => false,
      () => true,
    );
  }

  /**
   * Run the recovery lookup. A lookup that fails for a reason that may pass (a 5xx, which reads
   * are not retried on when it is a 500, or no response) is made again within the retry budget:
   * giving up at once would leave what the earlier attempt may have created unrecorded (the
   * fault-injection soak found that orphan: a create timing out, then its lookup meeting a 500).
   * If the lookup still fails, the original failure stands. It runs without the caller's signal:
   * a cancelled create must still learn whether it created something.
   */
  private async tryRecover<T>(spec: RequestSpec<T>, failure: HostingApiClientError): Promise<{ value: T } | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await spec.recover!({ requestTimeoutMs: spec.requestTimeoutMs });
      } catch (e) {
        const passing = e instanceof ServerError || e instanceof NetworkError;
        const again = passing && attempt < this.opts.maxRetries;
        this.log(
          `${spec.method} ${spec.path}: lookup after unknown outcome failed (${(e as Error).message})${again ? "; looking again" : ""}`,
        );
        if (!again) throw failure;
        const delay = backoffDelay(attempt, {
          baseDelayMs: this.opts.retryBaseDelayMs,
          maxDelayMs: this.opts.retryMaxDelayMs,
          random: this.opts.random,
        });
        await sleep(delay, undefined, () => failure);
      }
    }
  }

  private parse<T>(spec: RequestSpec<T>, res: RawResponse, requestId: string | undefined): T {
    const r = spec.response;
    if (r.kind === "empty") return undefined as T;
    if (r.kind === "text") return res.body as T;
    const ctx = { method: spec.method, path: spec.path, status: res.status, requestId };
    let data: unknown;
    try {
      data = JSON.parse(res.body);
    } catch (e) {
      throw new ResponseValidationError({
        ...ctx,
        problems: [`(root): not valid JSON (${res.body.trim() === "" ? "empty body" : (e as Error).message})`],
      });
    }
    return (r.kind === "list" ? parseList(r.shape, data, ctx) : parseWire(r.schema, data, ctx)) as T;
  }
}

/** A request's headers and body, the same for each of its attempts. */
interface Prepared {
  headers: Record<string, string>;
  body?: string;
}

/** What a request's earlier attempts left for the next decision. */
interface LoopState {
  /** A lookup was made for what an earlier attempt may have created. */
  recovering: boolean;
  /** An earlier attempt failed in a way that may have acted (no answer after sending, or 502/503/504). */
  mayHaveActed: boolean;
  /** Retries spent of `maxRetries` (429s spend none). */
  retriesSpent: number;
  /** When this request was first answered 429. */
  firstRateLimitedAt?: number;
  /** The last attempt's failure: an operation that runs out of time while retrying says what it was (a 503, a
   * reset). */
  lastFailure?: HostingApiClientError;
}

/** What one attempt came to: an answer, or a failure with the facts `nextStep` decides on. */
type AttemptOutcome<T> =
  | { kind: "answered"; value: T }
  | {
      kind: "failed";
      failure: HostingApiClientError;
      status?: number;
      /** There was no HTTP answer. */
      network?: NetworkError;
      retryAfter?: string;
      /** The server said it did it (a success we could not read). */
      acted: boolean;
    };

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  if (signal?.aborted) return Promise.reject(onAbort());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(t);
      reject(onAbort());
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

export function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", abort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", abort);
        reject(e);
      },
    );
  });
}
