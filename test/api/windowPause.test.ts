// The benchmark's window-plus-pause admission control (bench/windowPause.ts), and the client's
// injection point for it: `HostingClientOptions.rateController` replaces the adaptive control.
import { RateController, type Outcome, type Ticket } from "../../provider/src/api/rateControl";
import { WindowPause } from "../../bench/windowPause";
import { FakeClock, flush } from "./fakeClock";
import { ALICE_PROJECT as P, IMAGE, useApiSimulator } from "./helpers";
import { services } from "../../provider/src/resources/services";

// The contract of an admission control, whichever it is (an `Admission`).
test.each([
  [
    "RateController (adaptive)",
    (window: number, clock: FakeClock) => new RateController({ clock, initialConcurrency: window }),
  ],
  ["WindowPause", (window: number, clock: FakeClock) => new WindowPause(window, clock)],
])(
  "%s: at most `window` requests in flight; the next goes when one settles, in order (FIFO)",
  async (_name, admission) => {
    const control = admission(2, new FakeClock());
    const first = await control.acquire();
    await control.acquire();
    const order: string[] = [];
    const c = control.acquire().then((t) => {
      order.push("c");
      return t;
    });
    const d = control.acquire().then((t) => {
      order.push("d");
      return t;
    });
    await flush();
    expect(order).toEqual([]);
    control.settle(first, { kind: "success" });
    await flush();
    expect(order).toEqual(["c"]);
    control.settle(await c, { kind: "failed" });
    await flush();
    expect(order).toEqual(["c", "d"]);
    await d;
  },
);

describe("WindowPause with a fake clock", () => {
  test("no pacing: within the window, requests go at once", async () => {
    const clock = new FakeClock();
    const wp = new WindowPause(8, clock);
    const start = clock.now();
    const released: number[] = [];
    await Promise.all(Array.from({ length: 8 }, () => wp.acquire().then(() => released.push(clock.now()))));
    expect(released).toEqual(Array(8).fill(start));
  });

  test("after a 429 every request waits until the Retry-After moment, then the window's worth go", async () => {
    const clock = new FakeClock();
    const wp = new WindowPause(3, clock);
    const start = clock.now();
    const refused = await wp.acquire();
    const times: number[] = [];
    const queued = Array.from({ length: 4 }, async () => {
      const ticket = await wp.acquire();
      times.push(clock.now() - start);
      return ticket;
    });
    await flush();
    expect(times).toEqual([0, 0]); // the window had room for two more before the 429 came back
    wp.settle(refused, { kind: "rate_limited", waitMs: 1000 });
    await clock.advance(999);
    expect(times).toEqual([0, 0]);
    await clock.advance(1);
    expect(times).toEqual([0, 0, 1000]); // two still in flight: one slot free
    const tickets: Ticket[] = await Promise.all(queued.slice(0, 3));
    wp.settle(tickets[0], { kind: "success" });
    await flush();
    expect(times).toEqual([0, 0, 1000, 1000]);
  });

  test("a later 429 with a shorter wait does not shorten the pause", async () => {
    const clock = new FakeClock();
    const wp = new WindowPause(4, clock);
    const [a, b] = [await wp.acquire(), await wp.acquire()];
    wp.settle(a, { kind: "rate_limited", waitMs: 2000 });
    wp.settle(b, { kind: "rate_limited", waitMs: 500 });
    let admittedAt = -1;
    const next = wp.acquire().then(() => (admittedAt = clock.now()));
    await clock.advance(1999);
    expect(admittedAt).toBe(-1);
    await clock.advance(1);
    await next;
    expect(admittedAt).toBe(1_002_000);
  });

  test("an aborted waiter leaves the queue", async () => {
    const wp = new WindowPause(1, new FakeClock());
    const first = await wp.acquire();
    const ac = new AbortController();
    const waiting = wp.acquire(ac.signal);
    ac.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(wp.snapshot().queued).toBe(0);
    wp.settle(first, { kind: "success" });
  });
});

describe("HostingClientOptions.rateController: the transport admits every request through it", () => {
  const h = useApiSimulator();

  /** An Admission that lets everything through and records what the transport tells it. */
  function recording() {
    const settled: Outcome[] = [];
    let acquired = 0;
    return {
      settled,
      acquired: () => acquired,
      acquire: async (): Promise<Ticket> => {
        acquired++;
        return { epoch: 0, windowLimited: false };
      },
      settle: (_ticket: Ticket, outcome: Outcome) => void settled.push(outcome),
      snapshot: () => ({ acquired }),
    };
  }

  test("each attempt acquires and settles once; a 429 settles as rate_limited with its Retry-After", async () => {
    h.sim.control.injectFault({ kind: "rate_limit", method: "POST", path: "/containers$", retryAfter: "1", times: 1 });
    const admission = recording();
    const c = h.alice({ rateController: admission });
    await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    // The list before the create (what was there before it), the 429, the create.
    expect(admission.acquired()).toBe(3);
    expect(admission.settled).toEqual([
      { kind: "success" },
      { kind: "rate_limited", waitMs: 1000 },
      { kind: "success" },
    ]);
    expect(c.transport.rate).toBe(admission);
  });

  test("without the option the client keeps its adaptive RateController", () => {
    expect(h.alice().transport.rate).toBeInstanceOf(RateController);
  });
});
