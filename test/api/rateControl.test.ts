import { RateController, RateCore, type Ticket } from "../../provider/src/api/rateControl";
import { FakeClock } from "./fakeClock";

describe("RateCore (pure)", () => {
  test("unpaced before any 429, bounded only by the in-flight window", () => {
    const core = new RateCore({ initialConcurrency: 3 });
    const now = 0;
    const tickets: Ticket[] = [];
    for (let i = 0; i < 3; i++) {
      expect(core.nextReleaseAt(now)).toBe(now);
      tickets.push(core.release(now));
    }
    expect(core.nextReleaseAt(now)).toBe(Infinity); // window full
    core.settle(now, tickets[0], { kind: "success" });
    expect(core.nextReleaseAt(now)).toBe(now);
  });

  test("a 429 pauses until Retry-After, then paces at a cut of the observed rate", () => {
    const core = new RateCore({ initialConcurrency: 64, decreaseFactor: 0.5 });
    let t = 0;
    // 20 successes within one second
    for (let i = 0; i < 20; i++) {
      const k = core.release(t);
      core.settle(t, k, { kind: "success" });
      t += 10;
    }
    const k = core.release(t);
    core.settle(t, k, { kind: "rate_limited", waitMs: 1000 });
    const snap = core.snapshot();
    expect(snap.pausedUntil).toBe(t + 1000);
    // Observed 20/s, cut by half = 10/s; the additive increases of the 20 successes did not
    // apply because no rate was in force then.
    expect(snap.ratePerSecond).toBeCloseTo(10, 5);
    expect(core.nextReleaseAt(t + 1)).toBe(t + 1000);
    // After the pause: one release, then the next must wait 1/rate.
    const first = core.release(t + 1000);
    expect(core.nextReleaseAt(t + 1000)).toBeCloseTo(t + 1100, 0);
    core.settle(t + 1000, first, { kind: "success" });
  });

  test("many 429s from one burst cut once (one congestion epoch)", () => {
    const core = new RateCore({ initialConcurrency: 16, initialRatePerSecond: 16, decreaseFactor: 0.5 });
    const burst = Array.from({ length: 8 }, () => core.release(0));
    for (const k of burst) core.settle(5, k, { kind: "rate_limited", waitMs: 1000 });
    expect(core.snapshot().ratePerSecond).toBe(8);
    expect(core.snapshot().epoch).toBe(1);
    // a request released after the cut, refused again, cuts again
    const later = core.release(2000);
    core.settle(2001, later, { kind: "rate_limited", waitMs: 1000 });
    expect(core.snapshot().ratePerSecond).toBe(4);
  });

  test("additive increase on successes, until pacing is dropped", () => {
    const core = new RateCore({
      initialRatePerSecond: 10,
      increasePerSecond: 5,
      unlimitedAbovePerSecond: 40,
      initialConcurrency: 64,
    });
    let t = 0;
    let rate = core.snapshot().ratePerSecond;
    // about one second of traffic at 10/s adds about 5 req/s
    for (let i = 0; i < 10; i++) {
      const at = core.nextReleaseAt(t);
      t = at;
      core.settle(t, core.release(t), { kind: "success" });
    }
    rate = core.snapshot().ratePerSecond;
    expect(rate).toBeGreaterThan(14);
    expect(rate).toBeLessThan(15.5);
    for (let i = 0; i < 2000 && Number.isFinite(core.snapshot().ratePerSecond); i++) {
      t = core.nextReleaseAt(t);
      core.settle(t, core.release(t), { kind: "success" });
    }
    expect(core.snapshot().ratePerSecond).toBe(Infinity);
  });

  test("by default each second of traffic adds 0.1 req/s and 2% of the rate", () => {
    const secondAt = (rate: number) => {
      const core = new RateCore({ initialRatePerSecond: rate, initialConcurrency: 64 });
      for (let i = 0; i < rate; i++) core.settle(i, core.release(i), { kind: "success" });
      return core.snapshot().ratePerSecond - rate;
    };
    expect(secondAt(2)).toBeCloseTo(0.1 + 0.02 * 2, 1); // a share of a shared limit: mostly the additive part
    expect(secondAt(100)).toBeCloseTo(0.1 + 0.02 * 100, 1); // alone at a high rate: mostly the proportional part
  });

  test("the first request after a pause goes at the Retry-After moment even at a low rate", () => {
    const core = new RateCore();
    const k = core.release(0); // no successes observed: the cut starts from 1 req/s
    core.settle(10, k, { kind: "rate_limited", waitMs: 100 });
    expect(core.snapshot().ratePerSecond).toBeCloseTo(0.75, 5);
    expect(core.nextReleaseAt(10)).toBe(110);
    core.release(110);
    expect(core.nextReleaseAt(110)).toBeCloseTo(110 + 1000 / 0.75, 5);
  });

  test("network failures neither grow nor cut", () => {
    const core = new RateCore({ initialRatePerSecond: 10 });
    core.settle(0, core.release(0), { kind: "failed" });
    expect(core.snapshot().ratePerSecond).toBe(10);
    expect(core.snapshot().inFlight).toBe(0);
  });

  test("the window grows only while it is the limit", () => {
    const core = new RateCore({ initialConcurrency: 4 });
    // one at a time: never window-limited, never grows
    for (let i = 0; i < 50; i++) core.settle(i, core.release(i), { kind: "success" });
    expect(core.snapshot().window).toBe(4);
    // demand beyond the window (others waiting): limited, grows by about 1 per window of successes
    for (let round = 0; round < 10; round++) {
      const ks = Array.from({ length: Math.floor(core.snapshot().window) }, () => core.release(100 + round, 10));
      for (const k of ks) core.settle(100 + round, k, { kind: "success" });
    }
    expect(core.snapshot().window).toBeGreaterThan(8);
  });
});

describe("RateController with a fake clock", () => {
  test("a 429 slows every queued request, not only the refused one", async () => {
    const clock = new FakeClock();
    const rc = new RateController({ clock, initialConcurrency: 64, decreaseFactor: 0.5 });
    const start = clock.now();

    // a burst of 10 successes establishes an observed rate of 10/s
    for (let i = 0; i < 10; i++) rc.settle(await rc.acquire(), { kind: "success" });

    const refused = await rc.acquire();
    const released: number[] = [];
    const waiting = Array.from({ length: 5 }, async () => {
      const ticket = await rc.acquire();
      released.push(clock.now());
      return ticket;
    });
    // The five above were admitted at once (no pause yet): settle them later.
    const early = await Promise.all(waiting);
    expect(released.every((t) => t === start)).toBe(true);

    // Now the 429 arrives: everything that asks afterwards waits for Retry-After.
    rc.settle(refused, { kind: "rate_limited", waitMs: 2000 });
    for (const k of early) rc.settle(k, { kind: "rate_limited", waitMs: 2000 }); // same burst: no second cut
    expect(rc.core.snapshot().ratePerSecond).toBeCloseTo(5, 5); // observed 10/s * 0.5

    const times: number[] = [];
    const queued = Array.from({ length: 4 }, async () => {
      const ticket = await rc.acquire();
      times.push(clock.now() - start);
      return ticket;
    });
    await clock.advance(1999);
    expect(times).toEqual([]); // all held by the pause
    await clock.advance(1);
    expect(times).toEqual([2000]); // first one at the Retry-After moment
    await clock.advance(1000);
    // then paced at 5/s: every 200 ms
    expect(times).toEqual([2000, 2200, 2400, 2600]);
    for (const k of await Promise.all(queued)) rc.settle(k, { kind: "success" });
  });

  test("recovery: successes raise the rate again", async () => {
    const clock = new FakeClock();
    const rc = new RateController({ clock, initialRatePerSecond: 4, increasePerSecond: 4, initialConcurrency: 64 });
    const before = rc.core.snapshot().ratePerSecond;
    for (let i = 0; i < 20; i++) {
      const p = rc.acquire();
      await clock.advance(1000);
      rc.settle(await p, { kind: "success" });
    }
    expect(rc.core.snapshot().ratePerSecond).toBeGreaterThan(before * 2);
  });

  test("an aborted waiter leaves the queue", async () => {
    const clock = new FakeClock();
    const rc = new RateController({ clock, initialConcurrency: 1 });
    const first = await rc.acquire();
    const ac = new AbortController();
    const p = rc.acquire(ac.signal);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    expect(rc.queued).toBe(0);
    rc.settle(first, { kind: "success" });
  });
});
