// The retry policy, as small pure functions (no clock, no randomness unless injected).
//
// Rules:
//  - 429: the server did not act, so any method may be repeated. Wait for Retry-After
//    (delta-seconds or an HTTP date), capped at `retryAfterCapMs` (default 30 s); without
//    the header, exponential backoff with full jitter.
//  - 5xx and transport failures: repeat only where repeating is safe:
//      GET, HEAD, PUT, DELETE: idempotent by HTTP semantics.
//      PATCH: NOT idempotent in general, but every PATCH this client sends sets whole
//        fields to absolute values (`{image}`, `{env: {...full map...}}`, `{size_gb}`),
//        so sending it twice leaves the same state as sending it once: treated as safe.
//      POST: safe only when the request never reached the server (connect refused, DNS
//        failure, socket closed before the request was written, timed out while still
//        queued). Otherwise the outcome is unknown: the decision is "no retry" with
//        reason "outcome_unknown", and a request that knows how to look for what it made
//        (a create's `recover`, transport.ts) does so before it ever sends the POST again.
//    A 500 may well have acted, which is why only what is safe to repeat is repeated: a create
//    that met one is looked up as above (errors.ts `outcomeUnknown`).
//  - Other statuses: not retried (a 4xx will not change).
//  - 503 with a Retry-After header honours it (capped) instead of the backoff.

export type RetryReason =
  | "rate_limited"
  | "server_unavailable"
  | "network"
  | "not_retryable"
  | "outcome_unknown"
  | "exhausted";

export interface RetryInput {
  method: string;
  /** Zero-based number of the attempt that just failed (0 = the first send). */
  attempt: number;
  maxRetries: number;
  status?: number;
  /** True when there was no HTTP response at all. */
  networkError?: boolean;
  /** For network errors: false only if the request certainly never reached the server. */
  mayHaveReachedServer?: boolean;
  /** Raw Retry-After header value. */
  retryAfter?: string | null;
  /** Epoch ms, for HTTP-date Retry-After. */
  now: number;
  /** Cap for any wait taken from Retry-After. Default 30 s. */
  retryAfterCapMs?: number;
  /** Backoff base (first retry waits up to this). Default 500 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling. Default 10 s. */
  maxDelayMs?: number;
  /** Injected randomness in [0, 1) for full jitter. Default Math.random. */
  random?: () => number;
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  reason: RetryReason;
}

export const DEFAULT_RETRY_AFTER_CAP_MS = 30_000;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 10_000;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);

/** Methods we may repeat after an unknown outcome (see the PATCH note above). */
export function isRepeatableMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Parse a Retry-After header into a wait in milliseconds, capped at `capMs`.
 * Returns undefined for a missing or unparsable value (then the caller backs off).
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number,
  capMs: number = DEFAULT_RETRY_AFTER_CAP_MS,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(v)) {
    ms = Math.round(Number(v) * 1000);
  } else {
    // HTTP-date (IMF-fixdate and the obsolete forms Date.parse understands). Require a
    // letter so "12abc" or "-5" are not read as dates.
    if (!/[a-z]/i.test(v)) return undefined;
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, ms), capMs);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^attempt)). */
export function backoffDelay(
  attempt: number,
  opts: { baseDelayMs?: number; maxDelayMs?: number; random?: () => number } = {},
): number {
  const base = opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const max = opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempt));
  const r = (opts.random ?? Math.random)();
  return Math.floor(ceiling * Math.min(Math.max(r, 0), 1));
}

export function retryDecision(input: RetryInput): RetryDecision {
  const method = input.method.toUpperCase();
  const backoff = () => backoffDelay(input.attempt, input);
  const exhausted = input.attempt >= input.maxRetries;

  let reason: RetryReason;
  let delayMs = 0;

  if (input.networkError) {
    if (input.mayHaveReachedServer === false || isRepeatableMethod(method)) {
      reason = "network";
      delayMs = backoff();
    } else {
      reason = "outcome_unknown";
      delayMs = backoff();
    }
  } else if (input.status === 429) {
    reason = "rate_limited";
    delayMs = parseRetryAfter(input.retryAfter, input.now, input.retryAfterCapMs) ?? backoff();
  } else if (input.status !== undefined && input.status >= 500 && input.status <= 599) {
    reason = isRepeatableMethod(method) ? "server_unavailable" : "outcome_unknown";
    delayMs = parseRetryAfter(input.retryAfter, input.now, input.retryAfterCapMs) ?? backoff();
  } else {
    return { retry: false, delayMs: 0, reason: "not_retryable" };
  }

  if (reason === "outcome_unknown") return { retry: false, delayMs, reason };
  if (exhausted) return { retry: false, delayMs: 0, reason: "exhausted" };
  return { retry: true, delayMs, reason };
}

/** What a failed attempt came to, in facts (no error classes), with what the request's earlier attempts left. */
export interface StepInput extends RetryInput {
  /** This failure may have acted on the server (errors.ts `outcomeUnknown`). */
  outcomeUnknown: boolean;
  /** The server answered that it did it (a 2xx that could not be read): not to be sent again. */
  acted: boolean;
  /** An earlier attempt, or this one, may have acted. */
  mayHaveActed: boolean;
  /** The request can look for what an earlier attempt made (a create's `recover`). */
  canRecover: boolean;
  /** A lookup was already made for this request. */
  recovering: boolean;
  /** The request expects no body (a DELETE's answer). */
  emptyAnswer: boolean;
  notFound: boolean;
  conflict: boolean;
}

export type NextStep =
  /**
   * Send again after `delayMs`. After a 429 that is 0: the rate control holds every request of the
   * client, this one included, until the Retry-After moment, and waiting here as well would wait twice.
   */
  | { step: "retry"; delayMs: number; reason: RetryReason }
  /** Look up what an earlier attempt may have made: found, it is the answer; else send again after `delayMs`, unless
   * the server acted. */
  | { step: "look_up"; delayMs: number; sendAgain: boolean }
  /** A DELETE answered 404 after an attempt that may have deleted it: that attempt took effect. */
  | { step: "deleted" }
  /** A 409 after a lookup: our earlier attempt may have landed since; found, it is the answer, else the 409 stands. */
  | { step: "look_up_or_fail" }
  | { step: "fail" };

/** What comes after a failed attempt: the whole policy of the transport's loop, pure. */
export function nextStep(input: StepInput): NextStep {
  const decision = retryDecision(input);
  if (decision.retry) {
    return { step: "retry", delayMs: input.status === 429 ? 0 : decision.delayMs, reason: decision.reason };
  }
  if (input.outcomeUnknown && input.canRecover && input.attempt < input.maxRetries) {
    return { step: "look_up", delayMs: decision.delayMs, sendAgain: !input.acted };
  }
  const method = input.method.toUpperCase();
  const deleteDone = input.mayHaveActed && input.attempt > 0 && input.notFound && input.emptyAnswer;
  if (method === "DELETE" && deleteDone) return { step: "deleted" };
  if (input.recovering && input.canRecover && input.conflict) return { step: "look_up_or_fail" };
  return { step: "fail" };
}
