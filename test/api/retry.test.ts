import {
  backoffDelay,
  nextStep,
  parseRetryAfter,
  retryDecision,
  type RetryInput,
  type StepInput,
} from "../../provider/src/api/retry";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const half = () => 0.5;

describe("retryDecision", () => {
  type Case = [name: string, input: Partial<RetryInput>, retry: boolean, reason: string];
  const base: RetryInput = { method: "GET", attempt: 0, maxRetries: 5, now: NOW, random: half };

  const cases: Case[] = [
    // 429: the server did not act; any method
    ["429 GET retries", { method: "GET", status: 429 }, true, "rate_limited"],
    ["429 POST retries (server did not act)", { method: "POST", status: 429 }, true, "rate_limited"],
    ["429 PATCH retries", { method: "PATCH", status: 429 }, true, "rate_limited"],
    ["429 DELETE retries", { method: "DELETE", status: 429 }, true, "rate_limited"],
    // 502/503/504: safe methods only
    ...([502, 503, 504] as const).flatMap((status): Case[] => [
      [`${status} GET retries`, { method: "GET", status }, true, "server_unavailable"],
      [`${status} PUT retries`, { method: "PUT", status }, true, "server_unavailable"],
      [`${status} DELETE retries`, { method: "DELETE", status }, true, "server_unavailable"],
      [
        `${status} PATCH retries (whole-field bodies are idempotent)`,
        { method: "PATCH", status },
        true,
        "server_unavailable",
      ],
      [`${status} POST is outcome-unknown, not retried blindly`, { method: "POST", status }, false, "outcome_unknown"],
    ]),
    // never retried
    ["500 GET retried (a read is safe to repeat)", { method: "GET", status: 500 }, true, "server_unavailable"],
    [
      "500 DELETE retried, like a GET (deleting twice deletes once)",
      { method: "DELETE", status: 500 },
      true,
      "server_unavailable",
    ],
    ["500 POST not retried: its outcome is unknown", { method: "POST", status: 500 }, false, "outcome_unknown"],
    ["400 not retried", { method: "GET", status: 400 }, false, "not_retryable"],
    ["401 not retried", { method: "GET", status: 401 }, false, "not_retryable"],
    ["404 not retried", { method: "DELETE", status: 404 }, false, "not_retryable"],
    ["409 not retried", { method: "POST", status: 409 }, false, "not_retryable"],
    // network failures: reached server or not
    [
      "network GET, reached server: retries",
      { method: "GET", networkError: true, mayHaveReachedServer: true },
      true,
      "network",
    ],
    [
      "network GET, never reached: retries",
      { method: "GET", networkError: true, mayHaveReachedServer: false },
      true,
      "network",
    ],
    [
      "network PUT, reached server: retries",
      { method: "PUT", networkError: true, mayHaveReachedServer: true },
      true,
      "network",
    ],
    [
      "network DELETE, reached server: retries",
      { method: "DELETE", networkError: true, mayHaveReachedServer: true },
      true,
      "network",
    ],
    [
      "network PATCH, reached server: retries",
      { method: "PATCH", networkError: true, mayHaveReachedServer: true },
      true,
      "network",
    ],
    [
      "network POST, never reached server: retries",
      { method: "POST", networkError: true, mayHaveReachedServer: false },
      true,
      "network",
    ],
    [
      "network POST, may have reached server: outcome unknown",
      { method: "POST", networkError: true, mayHaveReachedServer: true },
      false,
      "outcome_unknown",
    ],
    [
      "network POST, reach unknown (undefined) counts as reached",
      { method: "POST", networkError: true },
      false,
      "outcome_unknown",
    ],
    // budget
    ["429 with the budget spent: exhausted", { method: "GET", status: 429, attempt: 5 }, false, "exhausted"],
    ["503 GET with the budget spent: exhausted", { method: "GET", status: 503, attempt: 5 }, false, "exhausted"],
    [
      "network GET with maxRetries 0: exhausted",
      { method: "GET", networkError: true, mayHaveReachedServer: true, maxRetries: 0 },
      false,
      "exhausted",
    ],
    ["lower-case method is normalised", { method: "post", status: 429 }, true, "rate_limited"],
  ];

  test.each(cases)("%s", (_name, input, retry, reason) => {
    const d = retryDecision({ ...base, ...input });
    expect(d.retry).toBe(retry);
    expect(d.reason).toBe(reason);
    expect(d.delayMs).toBeGreaterThanOrEqual(0);
  });

  test("429 honours Retry-After seconds", () => {
    expect(retryDecision({ ...base, status: 429, retryAfter: "2" }).delayMs).toBe(2000);
  });

  test("429 honours Retry-After as an HTTP date", () => {
    const at = new Date(NOW + 7000).toUTCString();
    expect(retryDecision({ ...base, status: 429, retryAfter: at }).delayMs).toBe(7000);
  });

  test("429 Retry-After is capped (default 30 s, configurable)", () => {
    expect(retryDecision({ ...base, status: 429, retryAfter: "3600" }).delayMs).toBe(30_000);
    expect(retryDecision({ ...base, status: 429, retryAfter: "3600", retryAfterCapMs: 5000 }).delayMs).toBe(5000);
  });

  test("429 without Retry-After backs off with jitter", () => {
    // 0.5 * 500 * 2^2
    expect(retryDecision({ ...base, status: 429, attempt: 2, random: () => 0.5 }).delayMs).toBe(1000);
  });

  test("503 with Retry-After honours it", () => {
    expect(retryDecision({ ...base, status: 503, retryAfter: "3" }).delayMs).toBe(3000);
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
    ["zero", "0", 0],
    ["fractional seconds", "1.5", 1500],
    ["surrounding spaces", "  2 ", 2000],
    ["HTTP date in the future", new Date(NOW + 4000).toUTCString(), 4000],
    ["HTTP date in the past clamps to 0", new Date(NOW - 4000).toUTCString(), 0],
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

describe("nextStep (what the transport does after a failed attempt)", () => {
  const fresh: StepInput = {
    method: "GET",
    attempt: 0,
    maxRetries: 5,
    now: NOW,
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
  const create: StepInput = { ...fresh, method: "POST", canRecover: true };

  test("a 429 retries at once: the rate control already holds the request until the Retry-After moment", () => {
    const step = nextStep({ ...create, status: 429, retryAfter: "3" });
    expect(step).toEqual({ step: "retry", delayMs: 0, reason: "rate_limited" });
  });

  test("a 503 on a read retries after its Retry-After", () => {
    const step = nextStep({ ...fresh, status: 503, retryAfter: "2" });
    expect(step).toEqual({ step: "retry", delayMs: 2000, reason: "server_unavailable" });
  });

  test("a create whose outcome is unknown is looked up, then sent again after the backoff", () => {
    expect(nextStep({ ...create, status: 502, outcomeUnknown: true, mayHaveActed: true })).toEqual({
      step: "look_up",
      delayMs: 250,
      sendAgain: true,
    });
  });

  test("a success that could not be read is looked up but never sent again", () => {
    expect(nextStep({ ...create, status: 201, outcomeUnknown: true, acted: true, mayHaveActed: true })).toMatchObject({
      step: "look_up",
      sendAgain: false,
    });
  });

  test("an unknown outcome with the budget spent, or with no lookup, fails", () => {
    expect(nextStep({ ...create, status: 502, outcomeUnknown: true, attempt: 5 })).toEqual({ step: "fail" });
    expect(nextStep({ ...create, status: 502, outcomeUnknown: true, canRecover: false })).toEqual({ step: "fail" });
  });

  test("a DELETE that meets 404 after an attempt that may have acted is done", () => {
    const gone: StepInput = { ...fresh, method: "DELETE", status: 404, notFound: true, emptyAnswer: true };
    Object.assign(gone, { mayHaveActed: true, attempt: 1 });
    expect(nextStep(gone)).toEqual({ step: "deleted" });
    expect(nextStep({ ...gone, attempt: 0 })).toEqual({ step: "fail" }); // the first attempt: it was never there
    expect(nextStep({ ...gone, mayHaveActed: false })).toEqual({ step: "fail" }); // nothing before it could delete it
  });

  test("a 409 after a lookup looks again (our earlier send may have landed since); without one it fails", () => {
    const afterLookUp = nextStep({ ...create, status: 409, conflict: true, recovering: true, attempt: 1 });
    expect(afterLookUp).toEqual({ step: "look_up_or_fail" });
    expect(nextStep({ ...create, status: 409, conflict: true })).toEqual({ step: "fail" });
  });

  test("a 4xx fails", () => {
    expect(nextStep({ ...fresh, status: 400 })).toEqual({ step: "fail" });
  });
});
