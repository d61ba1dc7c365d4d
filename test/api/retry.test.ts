// The retry policy (api/retry.ts `nextStep`): one pure function from the facts of a failed attempt to what the
// transport does next, held to a case table.
import {
  RETRY_AFTER_FLOOR_MS,
  backoffDelay,
  nextStep,
  parseRetryAfter,
  type NextStep,
  type StepInput,
} from "../../provider/src/api/retry";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const half = () => 0.5;

/** A GET's first attempt, nothing known before it. */
const fresh: StepInput = {
  method: "GET",
  attempt: 0,
  retriesSpent: 0,
  maxRetries: 5,
  now: NOW,
  rateLimitedForMs: 0,
  rateLimitPatienceMs: Infinity,
  random: half,
  outcomeUnknown: false,
  acted: false,
  mayHaveActed: false,
  canRecover: false,
  recovering: false,
  emptyAnswer: false,
  notFound: false,
  conflict: false,
};
/** A create: a POST that can look up what it made. */
const create: StepInput = { ...fresh, method: "POST", canRecover: true };

/** A retry after a 429: the rate control pauses the client for `pauseMs` (the Retry-After, or the floor). */
const rateLimitedFor = (pauseMs: number): NextStep => ({
  step: "retry",
  delayMs: 0,
  pauseMs,
  reason: "rate_limited",
  spends: false,
});
const rateLimited = rateLimitedFor(RETRY_AFTER_FLOOR_MS);
/** A retry after a 5xx or a failure with no answer, after the backoff (random 0.5 of 500 ms × 2^spent). */
const again = (reason: "server_unavailable" | "network", delayMs = 250): NextStep => ({
  step: "retry",
  delayMs,
  reason,
  spends: true,
});
const fail: NextStep = { step: "fail" };

describe("nextStep: the whole retry policy", () => {
  type Case = [name: string, input: Partial<StepInput>, step: NextStep];
  const cases: Case[] = [
    // 429: the server did not act; any method; the rate control holds the request, so no delay here
    ["429 GET retries at once, spending no retry", { status: 429, retryAfter: "3" }, rateLimitedFor(3000)],
    // A Retry-After that sets no wait is no header: the same pause (a pause of 0 after every 429 is a storm)
    ...(
      [
        ["none", undefined],
        ["0", "0"],
        ["0.0001", "0.0001"],
        ["0.999", "0.999"],
        ["-5", "-5"],
        ["-0.5", "-0.5"],
        ["a date in the past", new Date(NOW - 4000).toUTCString()],
        ["the date of now", new Date(NOW).toUTCString()],
        ["unreadable", "soon"],
        ["empty", ""],
        ["number with junk", "12abc"],
      ] as const
    ).map(
      ([name, retryAfter]): Case => [
        `429 with Retry-After ${name} pauses as long as with none`,
        { status: 429, retryAfter },
        rateLimited,
      ],
    ),
    ["429 with Retry-After 1 pauses 1 s", { status: 429, retryAfter: "1" }, rateLimitedFor(1000)],
    [
      "429 with a date 4 s ahead pauses 4 s",
      { status: 429, retryAfter: new Date(NOW + 4000).toUTCString() },
      rateLimitedFor(4000),
    ],
    ["429's Retry-After is capped", { status: 429, retryAfter: "3600", retryAfterCapMs: 5000 }, rateLimitedFor(5000)],
    ["429 POST retries (the server did not act)", { ...create, status: 429 }, rateLimited],
    ["429 PATCH retries", { method: "PATCH", status: 429 }, rateLimited],
    ["429 DELETE retries", { method: "DELETE", status: 429 }, rateLimited],
    [
      "429 with every retry spent still retries: maxRetries counts no 429",
      { status: 429, retriesSpent: 5 },
      rateLimited,
    ],
    ["429 with maxRetries 0 still retries", { status: 429, maxRetries: 0 }, rateLimited],
    [
      "429 after an hour of them retries while the caller's signal bounds it (patience Infinity)",
      { status: 429, attempt: 900, rateLimitedForMs: 3_600_000 },
      rateLimited,
    ],
    [
      "429 without a signal retries within the patience",
      { status: 429, rateLimitedForMs: 59_999, rateLimitPatienceMs: 60_000 },
      rateLimited,
    ],
    [
      "429 without a signal fails once the patience is spent",
      { status: 429, rateLimitedForMs: 60_000, rateLimitPatienceMs: 60_000 },
      fail,
    ],
    ["lower-case method is normalised", { method: "post", status: 429 }, rateLimited],
    // 5xx: safe methods only, within maxRetries
    ...([500, 502, 503, 504] as const).flatMap((status): Case[] => [
      [`${status} GET retries after the backoff`, { status }, again("server_unavailable")],
      [`${status} PUT retries`, { method: "PUT", status }, again("server_unavailable")],
      [
        `${status} DELETE retries (deleting twice deletes once)`,
        { method: "DELETE", status },
        again("server_unavailable"),
      ],
      [
        `${status} PATCH retries (whole-field bodies are idempotent)`,
        { method: "PATCH", status },
        again("server_unavailable"),
      ],
      [`${status} POST that cannot look up fails (its outcome is unknown)`, { method: "POST", status }, fail],
    ]),
    ["503 GET honours its Retry-After", { status: 503, retryAfter: "2" }, again("server_unavailable", 2000)],
    ...(["0", "0.0001", "-5", new Date(NOW - 4000).toUTCString(), "soon"] as const).map(
      (retryAfter): Case => [
        `503 GET with Retry-After ${JSON.stringify(retryAfter)} backs off as with none`,
        { status: 503, retryAfter },
        again("server_unavailable"),
      ],
    ),
    [
      "503 GET's Retry-After is capped",
      { status: 503, retryAfter: "3600", retryAfterCapMs: 5000 },
      again("server_unavailable", 5000),
    ],
    [
      "503 GET backs off by the retries spent",
      { status: 503, retriesSpent: 2, attempt: 7 },
      again("server_unavailable", 1000),
    ],
    ["503 GET with every retry spent fails", { status: 503, retriesSpent: 5 }, fail],
    ["503 GET with maxRetries 0 fails", { status: 503, maxRetries: 0 }, fail],
    // no answer at all: reached the server or not
    ["network GET, reached the server: retries", { networkError: true, mayHaveReachedServer: true }, again("network")],
    ["network GET, never reached: retries", { networkError: true, mayHaveReachedServer: false }, again("network")],
    [
      "network PUT, reached: retries",
      { method: "PUT", networkError: true, mayHaveReachedServer: true },
      again("network"),
    ],
    [
      "network PATCH, reached: retries",
      { method: "PATCH", networkError: true, mayHaveReachedServer: true },
      again("network"),
    ],
    [
      "network POST, never reached the server: retries (nothing was made)",
      { method: "POST", networkError: true, mayHaveReachedServer: false },
      again("network"),
    ],
    [
      "network POST, may have reached, no lookup: fails",
      { method: "POST", networkError: true, mayHaveReachedServer: true },
      fail,
    ],
    ["network POST, reach unknown counts as reached", { method: "POST", networkError: true }, fail],
    [
      "network GET with every retry spent fails",
      { networkError: true, mayHaveReachedServer: true, retriesSpent: 5 },
      fail,
    ],
    // a create whose outcome is unknown: looked up before anything is sent again
    [
      "create answered 502 is looked up, then sent again after the backoff",
      { ...create, status: 502, outcomeUnknown: true, mayHaveActed: true },
      { step: "look_up", delayMs: 250, sendAgain: true },
    ],
    [
      "create with no answer after sending is looked up",
      { ...create, networkError: true, mayHaveReachedServer: true, outcomeUnknown: true, mayHaveActed: true },
      { step: "look_up", delayMs: 250, sendAgain: true },
    ],
    [
      "create answered 2xx it could not read is looked up but never sent again",
      { ...create, status: 201, outcomeUnknown: true, acted: true, mayHaveActed: true },
      { step: "look_up", delayMs: 250, sendAgain: false },
    ],
    [
      "create whose outcome is unknown with every retry spent fails",
      { ...create, status: 502, outcomeUnknown: true, retriesSpent: 5 },
      fail,
    ],
    [
      "an unknown outcome without a lookup fails",
      { ...create, status: 502, outcomeUnknown: true, canRecover: false },
      fail,
    ],
    // other answers
    ["400 fails", { status: 400 }, fail],
    ["401 fails", { status: 401 }, fail],
    ["404 GET fails", { status: 404, notFound: true }, fail],
    ["409 to a create with no lookup made fails", { ...create, status: 409, conflict: true }, fail],
    [
      "409 to a create after a lookup looks again (its earlier send may have landed since)",
      { ...create, status: 409, conflict: true, recovering: true, attempt: 1 },
      { step: "look_up_or_fail" },
    ],
    [
      "DELETE answered 404 after an attempt that may have acted is done",
      { method: "DELETE", status: 404, notFound: true, emptyAnswer: true, mayHaveActed: true, attempt: 1 },
      { step: "deleted" },
    ],
    [
      "DELETE answered 404 at its first attempt fails (it was never there)",
      { method: "DELETE", status: 404, notFound: true, emptyAnswer: true, mayHaveActed: true },
      fail,
    ],
    [
      "DELETE answered 404 when nothing before it could delete fails",
      { method: "DELETE", status: 404, notFound: true, emptyAnswer: true, attempt: 1 },
      fail,
    ],
  ];

  test.each(cases)("%s", (_name, input, step) => {
    expect(nextStep({ ...fresh, ...input })).toEqual(step);
  });
});

describe("backoffDelay (full jitter)", () => {
  test.each([
    [0, 1, 500],
    [1, 1, 1000],
    [3, 1, 4000],
    [10, 1, 10_000], // capped by maxDelayMs
    [3, 0, 0],
  ])("attempt %d, random %d -> %d ms ceiling", (attempt, r, expected) => {
    expect(backoffDelay(attempt, { random: () => r })).toBe(expected);
  });

  test("stays within [0, ceiling)", () => {
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(2);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe("parseRetryAfter", () => {
  test.each<[string, string | null | undefined, number | undefined]>([
    ["integer seconds", "1", 1000],
    ["zero sets no wait", "0", undefined],
    ["a fraction of a second sets no wait", "0.0001", undefined],
    ["just under a second sets no wait", "0.999", undefined],
    ["fractional seconds", "1.5", 1500],
    ["surrounding spaces", "  2 ", 2000],
    ["HTTP date in the future", new Date(NOW + 4000).toUTCString(), 4000],
    ["HTTP date in the past sets no wait", new Date(NOW - 4000).toUTCString(), undefined],
    ["HTTP date of now sets no wait", new Date(NOW).toUTCString(), undefined],
    ["garbage", "soon", undefined],
    ["negative number", "-5", undefined],
    ["number with junk", "12abc", undefined],
    ["empty", "", undefined],
    ["missing", undefined, undefined],
    ["null", null, undefined],
    ["huge seconds capped at 30 s", "86400", 30_000],
    ["far HTTP date capped at 30 s", new Date(NOW + 3_600_000).toUTCString(), 30_000],
  ])("%s", (_name, value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  test("custom cap", () => {
    expect(parseRetryAfter("10", NOW, 2500)).toBe(2500);
  });
});
