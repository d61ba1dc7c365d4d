import {
  SharedPoll,
  WaitCancelled,
  WaitTimeout,
  nextPollDelayMs,
  type WaitOptions,
} from "../../provider/src/framework/polling";

describe("nextPollDelayMs: the schedule as a pure function", () => {
  test.each([
    [0, 250],
    [1_000, 250],
    [5_000, 500],
    [10_000, 1_000],
    [60_000, 6_000],
    [600_000, 15_000],
  ])("after %i ms waited, the next read is %i ms later", (elapsed, delay) =>
    expect(nextPollDelayMs(elapsed)).toBe(delay),
  );

  test("readiness is noticed within max(250 ms, 10% of the time waited)", () => {
    for (let elapsed = 0; elapsed < 150_000; elapsed += 137) {
      expect(nextPollDelayMs(elapsed)).toBeLessThanOrEqual(Math.max(250, elapsed * 0.1));
    }
  });
});

/** A source of volume statuses whose every read is counted and numbered. */
function source(statusOf: (id: string, read: number) => string) {
  const reads: Array<{ started: number; ids: string[] }> = [];
  let clock = 0;
  const fetch = async () => {
    const read = reads.length + 1;
    reads.push({ started: ++clock, ids: [] });
    await new Promise((r) => setTimeout(r, 2));
    return { read, status: (id: string) => statusOf(id, read) };
  };
  return { fetch, reads };
}

type Snapshot = Awaited<ReturnType<ReturnType<typeof source>["fetch"]>>;
const never = () => new AbortController().signal;
type Seen = { read: number; status: string };
const waitFor = (poll: SharedPoll<Snapshot>, id: string, options: Partial<WaitOptions<Snapshot, Seen>> = {}) =>
  poll.wait<Seen>({
    what: `volume ${id} to be running`,
    select: (s) => ({ read: s.read, status: s.status(id) }),
    done: (v) => v.status === "running",
    timeoutMs: 60_000,
    signal: never(),
    ...options,
  });

/** Runs jest's fake clock until `promise` settles: the poll's timers fire in order, however busy the machine. */
async function settled<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) await jest.advanceTimersByTimeAsync(1);
  return promise;
}

describe("SharedPoll: many waits, one read loop", () => {
  // The poll's schedule, its deadlines and these reads' 2 ms run on jest's fake clock: a loaded machine
  // that fired a 3 ms abort after the third read, or an 8 ms deadline before the first, cannot reorder them.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask"] }));
  afterEach(() => jest.useRealTimers());

  test("one read answers every wait registered before it: N waits cost the reads of one", async () => {
    const { fetch, reads } = source((_id, read) => (read >= 4 ? "running" : "provisioning"));
    const poll = new SharedPoll(fetch, () => 5);
    const waits = Array.from({ length: 20 }, (_, i) => waitFor(poll, `v${i}`));
    const answers = await settled(Promise.all(waits));
    expect(answers.every((v) => v.status === "running" && v.read === 4)).toBe(true);
    expect(reads).toHaveLength(4);
  });

  test("every waiting volume is noticed, each when its own status turns", async () => {
    const readyAt: Record<string, number> = { a: 2, b: 5, c: 3 };
    const { fetch, reads } = source((id, read) => (read >= readyAt[id] ? "running" : "provisioning"));
    const poll = new SharedPoll(fetch, () => 5);
    const [a, b, c] = await settled(Promise.all(["a", "b", "c"].map((id) => waitFor(poll, id))));
    expect([a.read, b.read, c.read]).toEqual([2, 5, 3]);
    expect(reads).toHaveLength(5);
  });

  test("a wait is never answered by a read that began before it", async () => {
    const { fetch, reads } = source(() => "running");
    const poll = new SharedPoll(fetch, () => 5);
    const first = waitFor(poll, "a");
    await jest.advanceTimersByTimeAsync(1); // the first read is now in flight (it takes 2 ms)
    const second = waitFor(poll, "b");
    const [a, b] = await settled(Promise.all([first, second]));
    expect(a.read).toBe(1);
    expect(b.read).toBe(2); // read 1 began before the second wait: it may not answer it
    expect(reads).toHaveLength(2);
  });

  test("what the caller already knows stands for the first read", async () => {
    const { fetch, reads } = source(() => "running");
    const poll = new SharedPoll(fetch, () => 5);
    const known = await settled(waitFor(poll, "a", { initial: { read: 0, status: "running" } }));
    expect(known.read).toBe(0);
    expect(reads).toHaveLength(0);
  });

  test("cancelling one wait does not disturb the others", async () => {
    const { fetch } = source((_id, read) => (read >= 3 ? "running" : "provisioning"));
    const poll = new SharedPoll(fetch, () => 5);
    const controller = new AbortController();
    const cancelled = waitFor(poll, "a", { signal: controller.signal });
    const others = [waitFor(poll, "b"), waitFor(poll, "c")];
    setTimeout(() => controller.abort(), 3);
    await expect(settled(cancelled)).rejects.toBeInstanceOf(WaitCancelled);
    for (const other of await settled(Promise.all(others))) expect(other).toMatchObject({ status: "running", read: 3 });
  });

  test("a wait gives up at its deadline with WaitTimeout; the others go on", async () => {
    const { fetch } = source((id, read) => (id === "b" && read >= 4 ? "running" : "provisioning"));
    const poll = new SharedPoll(fetch, () => 5);
    const seen: string[] = [];
    const short = waitFor(poll, "a", { timeoutMs: 8, seen: (v) => seen.push(v.status) });
    const long = waitFor(poll, "b");
    await expect(settled(short)).rejects.toBeInstanceOf(WaitTimeout);
    expect(seen[0]).toBe("provisioning");
    await expect(settled(long)).resolves.toMatchObject({ status: "running" });
  });

  test("progress is reported on each read that finds it not done", async () => {
    const { fetch } = source((_id, read) => (read >= 3 ? "running" : "provisioning"));
    const progress: string[] = [];
    await settled(waitFor(new SharedPoll(fetch, () => 5), "a", { progress: (m) => progress.push(m) }));
    expect(progress).toEqual(["waiting for volume a to be running (0s)", "waiting for volume a to be running (0s)"]);
  });

  test("a failed read fails the waits it would have answered", async () => {
    const poll = new SharedPoll(
      async () => {
        throw new Error("503");
      },
      () => 5,
    );
    await expect(settled(waitFor(poll as any, "a"))).rejects.toThrow("503");
  });

  test("a read's signal ends when the last wait it would answer has ended, not before", async () => {
    const signals: AbortSignal[] = [];
    const poll = new SharedPoll<Snapshot>(
      (signal) =>
        new Promise((_resolve, reject) => {
          signals.push(signal); // a read the API keeps answering 429: it ends only by its signal
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      () => 5,
    );
    const first = new AbortController();
    const second = new AbortController();
    const a = waitFor(poll, "a", { signal: first.signal });
    const b = waitFor(poll, "b", { signal: second.signal });
    await jest.advanceTimersByTimeAsync(1);
    expect(signals).toHaveLength(1);
    first.abort();
    await expect(settled(a)).rejects.toBeInstanceOf(WaitCancelled);
    expect(signals[0].aborted).toBe(false); // b still waits for this read
    second.abort();
    await expect(settled(b)).rejects.toBeInstanceOf(WaitCancelled);
    expect(signals[0].aborted).toBe(true);
  });

  test("a wait whose record cannot be read fails alone; the others are answered", async () => {
    const { fetch } = source(() => "running");
    const poll = new SharedPoll(fetch, () => 5);
    const broken = waitFor(poll, "a", {
      select: () => {
        throw new Error("two records with id a");
      },
    });
    const other = waitFor(poll, "b");
    await expect(settled(broken)).rejects.toThrow("two records with id a");
    await expect(settled(other)).resolves.toMatchObject({ status: "running" });
  });
});
