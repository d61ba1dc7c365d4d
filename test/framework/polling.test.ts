import { WaitCancelled, WaitTimeout, nextPollDelayMs, waitUntil } from "../../provider/src/framework/polling";

describe("nextPollDelayMs: the schedule as a pure function", () => {
  test.each([
    [0, 250],
    [1_000, 250],
    [5_000, 500],
    [10_000, 1_000],
    [60_000, 6_000],
    [600_000, 15_000],
  ])("after %i ms waited, the next read is %i ms later", (elapsed, delay) => expect(nextPollDelayMs(elapsed)).toBe(delay));

  test("readiness is noticed within max(250 ms, 10% of the time waited)", () => {
    for (let elapsed = 0; elapsed < 150_000; elapsed += 137) {
      expect(nextPollDelayMs(elapsed)).toBeLessThanOrEqual(Math.max(250, elapsed * 0.1));
    }
  });
});

describe("waitUntil", () => {
  const never = new AbortController().signal;

  test("returns the first value that is done, reporting progress meanwhile", async () => {
    let reads = 0;
    const progress: string[] = [];
    const value = await waitUntil({
      what: "thing to be ready",
      poll: async () => ++reads,
      done: (n) => n === 3,
      timeoutMs: 10_000,
      signal: never,
      schedule: () => 1,
      progress: (m) => progress.push(m),
    });
    expect(value).toBe(3);
    expect(progress).toEqual(["waiting for thing to be ready (0s)", "waiting for thing to be ready (0s)"]);
  });

  test("what the caller already knows stands for the first read", async () => {
    const polled: number[] = [];
    const ready = await waitUntil({ what: "x", initial: 1, poll: async () => (polled.push(2), 2), done: (n) => n === 2, timeoutMs: 1000, signal: never, schedule: () => 1 });
    expect(ready).toBe(2);
    expect(polled).toEqual([2]);
    const already = await waitUntil({ what: "x", initial: 2, poll: async () => (polled.push(3), 3), done: (n) => n === 2, timeoutMs: 1000, signal: never });
    expect(already).toBe(2);
    expect(polled).toEqual([2]); // no read at all
  });

  test("gives up at the deadline with WaitTimeout", async () => {
    await expect(
      waitUntil({ what: "x", poll: async () => 0, done: () => false, timeoutMs: 30, signal: never, schedule: () => 10 }),
    ).rejects.toBeInstanceOf(WaitTimeout);
  });

  test("stops at once when cancelled", async () => {
    const controller = new AbortController();
    const waiting = waitUntil({ what: "x", poll: async () => 0, done: () => false, timeoutMs: 60_000, signal: controller.signal, schedule: () => 60_000 });
    setTimeout(() => controller.abort(), 10);
    await expect(waiting).rejects.toBeInstanceOf(WaitCancelled);
  });
});
