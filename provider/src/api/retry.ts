// The retry policy: one pure function, `nextStep`, from the facts of a failed attempt to what the
// transport does next (no clock, no randomness unless injected). `parseRetryAfter` and
// `backoffDelay` are the arithmetic it uses.
//
// Rules:
//  - 429: the server did not act, so any method is sent again. Not counted by `maxRetries`: the
//    client-wide rate control paces the retry (every request waits `pauseMs`, and the rate is cut),
//    and the request's time bounds it: its caller's signal (an operation's customTimeouts, a
//    function's limit), or, for a request no caller can cut short, `rateLimitPatienceMs` after its
//    first 429. A stack sharing a tight limit with others meets many 429s; none of them may fail an
//    operation that still has time. The pause is the Retry-After, or RETRY_AFTER_FLOOR_MS when it
//    sets no wait of at least that (missing, unreadable, zero, a fraction of a second, negative, a
//    date in the past): a pause of 0 ms after every 429 was a storm of requests (31,015 POSTs in 10 s).
//  - 5xx and transport failures: sent again only where repeating is safe, up to `maxRetries` times:
//      GET, HEAD, PUT, DELETE: idempotent by HTTP semantics.
//      PATCH: NOT idempotent in general, but every PATCH this client sends sets whole
//        fields to absolute values (`{image}`, `{env: {...full map...}}`, `{size_gb}`),
//        so sending it twice leaves the same state as sending it once: treated as safe.
//      POST: safe only when the request never reached the server (connect refused, DNS
//        failure, socket closed before the request was written, timed out while still
//        queued). Otherwise the outcome is unknown: a request that can look for what it made
//        (a create's `recover`, transport.ts) looks before it ever sends the POST again; one
//        that cannot fails.
//    A 500 may well have acted, which is why only what is safe to repeat is repeated.
//    A Retry-After on a 5xx is honoured (capped) instead of the backoff; one that sets no wait of at
//    least RETRY_AFTER_FLOOR_MS is no header: the backoff.
//  - Other statuses: not retried (a 4xx will not change), with two exceptions after an attempt
//    that may have acted: a DELETE answered 404 is done, and a create answered 409 looks again.

export const DEFAULT_RETRY_AFTER_CAP_MS = 30_000;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 10_000;
/**
 * The least wait a Retry-After sets, and the client-wide pause after a 429 without one: HTTP's Retry-After counts whole
 * seconds, so anything less (0, 0.0001, a date in the past) says "now", which, after every 429, is a storm.
 */
export const RETRY_AFTER_FLOOR_MS = 1000;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);

/** Methods we may repeat after an unknown outcome (see the PATCH note above). */
export function isRepeatableMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Parse a Retry-After header into a wait in milliseconds, capped at `capMs`. Returns undefined for a
 * value that sets no wait of at least RETRY_AFTER_FLOOR_MS: missing, unparsable, zero, negative, a
 * fraction of a second, a date in the past (then the caller waits as if there were no header).
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
  if (!Number.isFinite(ms) || ms < RETRY_AFTER_FLOOR_MS) return undefined;
  return Math.min(ms, capMs);
}

/** How long every request of the client waits after a 429: its Retry-After, or the floor when it sets no wait. */
export const rateLimitPause = (retryAfter: string | null | undefined, now: number, capMs?: number): number =>
  parseRetryAfter(retryAfter, now, capMs) ?? RETRY_AFTER_FLOOR_MS;

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

/** The request whose attempt failed: what it is, whatever its attempts came to. */
export interface RetriedRequest {
  method: string;
  /** The request can look for what an earlier attempt made (a create's `recover`). */
  canRecover: boolean;
  /** The request expects no body (a DELETE's answer). */
  emptyAnswer: boolean;
}

/** What the attempt that just failed came to, in facts (no error classes). */
export interface FailedAttempt {
  /** Zero-based number of the attempt that just failed (0 = the first send). */
  attempt: number;
  status?: number;
  /** True when there was no HTTP response at all. */
  networkError?: boolean;
  /** For network errors: false only if the request certainly never reached the server. */
  mayHaveReachedServer?: boolean;
  /** Raw Retry-After header value. */
  retryAfter?: string | null;
  /** This failure may have acted on the server (errors.ts `outcomeUnknown`). */
  outcomeUnknown: boolean;
  /** The server answered that it did it (a 2xx that could not be read): not to be sent again. */
  acted: boolean;
  notFound: boolean;
  conflict: boolean;
}

/** What the request's attempts so far left. */
export interface AttemptsSoFar {
  /** Retries this request has spent of `maxRetries` (a retry after a 429 spends none). */
  retriesSpent: number;
  /** How long this request has been answered 429, from its first 429 (0 at the first). */
  rateLimitedForMs: number;
  /** An earlier attempt, or this one, may have acted. */
  mayHaveActed: boolean;
  /** A lookup was already made for this request. */
  recovering: boolean;
}

/** The client's limits on retrying, and its clock and dice (given, so that `nextStep` stays pure). */
export interface RetryLimits {
  maxRetries: number;
  /** How long a request may go on being answered 429: Infinity when its caller's signal bounds it. */
  rateLimitPatienceMs: number;
  /** Cap for any wait taken from Retry-After. Default 30 s. */
  retryAfterCapMs?: number;
  /** Backoff base (first retry waits up to this). Default 500 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling. Default 10 s. */
  maxDelayMs?: number;
  /** Epoch ms, for HTTP-date Retry-After. */
  now: number;
  /** Injected randomness in [0, 1) for full jitter. Default Math.random. */
  random?: () => number;
}

/** What a failed attempt came to, with what the request's earlier attempts left: `nextStep`'s facts. */
export type StepInput = RetriedRequest & FailedAttempt & AttemptsSoFar & RetryLimits;

export type NextStep =
  /**
   * Send again after `delayMs`; `spends`: it counts against `maxRetries`. After a 429 the delay is 0 and nothing is
   * spent: the rate control holds every request of the client, this one included, for `pauseMs` (the transport
   * settles the 429 with `rateLimitPause`, the same rule), and waiting here as well would wait twice.
   */
  | { step: "retry"; delayMs: 0; pauseMs: number; reason: "rate_limited"; spends: false }
  | { step: "retry"; delayMs: number; reason: "server_unavailable" | "network"; spends: true }
  /**
   * Look up what an earlier attempt may have made: found, it is the answer; else send again after `delayMs` (a retry
   * spent), unless the server acted.
   */
  | { step: "look_up"; delayMs: number; sendAgain: boolean }
  /** A DELETE answered 404 after an attempt that may have deleted it: that attempt took effect. */
  | { step: "deleted" }
  /** A 409 after a lookup: our earlier attempt may have landed since; found, it is the answer, else the 409 stands. */
  | { step: "look_up_or_fail" }
  | { step: "fail" };

const isServerError = (status: number | undefined) => status !== undefined && status >= 500 && status <= 599;

/** What comes after a failed attempt: the whole retry policy, pure (see the rules at the top of this file). */
export function nextStep(input: StepInput): NextStep {
  const method = input.method.toUpperCase();
  if (input.status === 429) {
    const pauseMs = rateLimitPause(input.retryAfter, input.now, input.retryAfterCapMs);
    return input.rateLimitedForMs < input.rateLimitPatienceMs
      ? { step: "retry", delayMs: 0, pauseMs, reason: "rate_limited", spends: false }
      : { step: "fail" };
  }
  const budgetLeft = input.retriesSpent < input.maxRetries;
  const delayMs = () =>
    parseRetryAfter(input.retryAfter, input.now, input.retryAfterCapMs) ?? backoffDelay(input.retriesSpent, input);
  const neverReached = input.networkError && input.mayHaveReachedServer === false;
  const transient = input.networkError || isServerError(input.status);
  if (transient && (neverReached || isRepeatableMethod(method))) {
    const reason = input.networkError ? "network" : "server_unavailable";
    return budgetLeft ? { step: "retry", delayMs: delayMs(), reason, spends: true } : { step: "fail" };
  }
  if (input.outcomeUnknown && input.canRecover && budgetLeft)
    return { step: "look_up", delayMs: delayMs(), sendAgain: !input.acted };
  const deleteDone = input.mayHaveActed && input.attempt > 0 && input.notFound && input.emptyAnswer;
  if (method === "DELETE" && deleteDone) return { step: "deleted" };
  if (input.recovering && input.canRecover && input.conflict) return { step: "look_up_or_fail" };
  return { step: "fail" };
}
