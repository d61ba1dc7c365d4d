// Client-wide adaptive rate control (AIMD).
//
// Every request of a client is admitted through one RateController, which bounds two
// things: the request RATE (pacing) and the number of requests IN FLIGHT (a window).
//
// Rate. Until the server first answers 429 nothing is paced. After a 429:
//   - the whole client pauses until the Retry-After moment (requests already queued wait
//     too, not only the one that was refused);
//   - the permitted rate is cut multiplicatively. If no rate was in force yet, the cut
//     starts from the success rate observed over the last `windowMs`: a good estimate of
//     what the server just allowed;
//   - later successes raise it, for each second of successful traffic, by a little
//     (`increasePerSecond`, 0.1 req/s) plus a small share of itself (`growthPerSecond`, 2%),
//     until it is high enough to drop pacing altogether.
//
// Why the increase is that slow. The client cannot know whether it has the API to itself or
// shares the account's limit with other processes (a drift job refreshing twenty stacks at
// once, a monorepo's CI running several `pulumi up`): the API says only 429 and Retry-After
// (whole seconds), nothing of its limit or of what is left. So each process probes, and every
// probe past the limit costs a 429, a Retry-After pause of its own and a cut. With N processes
// the cuts fall on one process at a time, each giving back only a quarter of its 1/N share,
// while all N probe at once: the 429s come about N × increase / (a quarter of a share) times a
// second. At the earlier 3 req/s per second, 8 plugins sharing 20 req/s met 20% 429s; at 0.1
// (plus 2%) about 7% (bench row 11; test/api/sharedLimit.test.ts models it). The additive part
// makes the shares converge (fairness, as in TCP); the proportional part lets one client that
// is alone after all recover at a pace that grows with its rate (75 to 1000 req/s in about two
// minutes after a single stray 429). A client alone on a 20 req/s limit gives little away: the
// server's burst covers the time spent below it (row 9: 1.00× ideal). Jitter on the pause was
// tried in the model and changed nothing: a 429 already falls on one process at a time, so the
// processes do not move in step.
//
// Why home-made: Bottleneck and p-limit pace at a rate they are given, within one process
// (Bottleneck's clustering shares a Redis, which independent plugin processes do not have); what
// is needed here is a rate learned from 429s, and an in-flight window, in each process alone.
//
// Window. A server's rate limit usually allows a burst; when the burst is spent, EVERY
// request then in flight is refused, because none of their 429s has come back yet to slow
// the client down. The in-flight window bounds that damage: it starts at
// `initialConcurrency`, grows by about one per window's worth of successes while it is the
// limiting factor (TCP congestion avoidance), and is cut with the rate.
//
// Several 429s answering requests that were all sent before a cut count as one congestion
// event (one cut), like TCP's once-per-window decrease: each ticket carries the epoch it
// was released in, and only a 429 on a ticket of the current epoch cuts again.
//
// `RateCore` is the pure scheduling core (time is always passed in), so unit tests can
// drive it with a fake clock; `RateController` is the thin async FIFO queue around it.

export interface RateControlOptions {
  /** Multiplicative decrease of rate and window on a congestion event. Default 0.75. */
  decreaseFactor?: number;
  /** Additive increase, in req/s gained per second of successful traffic. Default 0.1. */
  increasePerSecond?: number;
  /** Proportional increase: the share of its rate the rate gains per second of successful traffic. Default 0.02. */
  growthPerSecond?: number;
  /** Floor of the permitted rate. Default 0.5 req/s. */
  minRatePerSecond?: number;
  /** Once the rate recovers above this, pacing is dropped (unlimited). Default 1000 req/s. */
  unlimitedAbovePerSecond?: number;
  /** Window over which the success rate is observed. Default 1000 ms. */
  windowMs?: number;
  /** Rate in force before any 429. Default Infinity (unpaced). */
  initialRatePerSecond?: number;
  /** In-flight window at start. Default 6. */
  initialConcurrency?: number;
  /** Largest in-flight window. Default 64 (the shared pool has 32 connections per origin). */
  maxConcurrency?: number;
}

export interface Ticket {
  /** Congestion epoch the request was released in. */
  readonly epoch: number;
  /** The window was full, or requests were waiting, when this one was released (so its success may grow it). */
  readonly windowLimited: boolean;
}

export type Outcome =
  | { kind: "success" } // any HTTP answer other than 429: the server is not pushing back
  | { kind: "rate_limited"; waitMs: number }
  | { kind: "failed" }; // no answer (network failure, timeout, abort): neither grow nor cut

/**
 * What the transport needs of a client-wide admission control: `RateController` below is the
 * client's; a benchmark or a test may pass another through `HostingClientOptions.rateController`.
 */
export interface Admission {
  /** Resolves when the request may be sent. Rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<Ticket>;
  /** Report how a released request ended (exactly once per ticket). */
  settle(ticket: Ticket, outcome: Outcome): void;
  /** State, for diagnostics. */
  snapshot(): object;
}

export interface RateSnapshot {
  ratePerSecond: number;
  pausedUntil: number;
  epoch: number;
  window: number;
  inFlight: number;
}

export class RateCore {
  readonly decreaseFactor: number;
  readonly increasePerSecond: number;
  readonly growthPerSecond: number;
  readonly minRate: number;
  readonly unlimitedAbove: number;
  readonly windowMs: number;
  readonly maxConcurrency: number;

  private rate: number;
  private window: number;
  private inFlight = 0;
  private pausedUntil = -Infinity;
  private lastReleaseAt = -Infinity;
  private epoch = 0;
  private successes: number[] = [];

  constructor(opts: RateControlOptions = {}) {
    this.decreaseFactor = opts.decreaseFactor ?? 0.75;
    this.increasePerSecond = opts.increasePerSecond ?? 0.1;
    this.growthPerSecond = opts.growthPerSecond ?? 0.02;
    this.minRate = opts.minRatePerSecond ?? 0.5;
    this.unlimitedAbove = opts.unlimitedAbovePerSecond ?? 1000;
    this.windowMs = opts.windowMs ?? 1000;
    this.rate = opts.initialRatePerSecond ?? Infinity;
    this.maxConcurrency = opts.maxConcurrency ?? 64;
    this.window = Math.min(this.maxConcurrency, Math.max(1, opts.initialConcurrency ?? 6));
  }

  snapshot(): RateSnapshot {
    return {
      ratePerSecond: this.rate,
      pausedUntil: this.pausedUntil,
      epoch: this.epoch,
      window: this.window,
      inFlight: this.inFlight,
    };
  }

  private interval(): number {
    return Number.isFinite(this.rate) ? 1000 / this.rate : 0;
  }

  /**
   * Earliest moment the next request may start: `now` if it may start at once, a later
   * time if it must wait for the pause or the pacing, Infinity if it must wait for a
   * request in flight to finish.
   */
  nextReleaseAt(now: number): number {
    if (this.inFlight >= Math.floor(this.window)) return Infinity;
    const at = Math.max(this.pausedUntil, this.lastReleaseAt + this.interval());
    return Math.max(at, now);
  }

  /**
   * Book the next slot; call only when nextReleaseAt(now) <= now. `queued` is how many
   * requests are still waiting behind this one (demand beyond what is released).
   */
  release(now: number, queued = 0): Ticket {
    const interval = this.interval();
    if (interval > 0) {
      // Keep the cadence exact when a timer fires a little late, but never let an idle
      // period build up credit for a burst (at most half an interval of catch-up).
      const slot = Math.max(this.pausedUntil, this.lastReleaseAt + interval);
      this.lastReleaseAt = Math.max(Math.min(slot, now), now - interval / 2);
    } else {
      this.lastReleaseAt = now;
    }
    this.inFlight += 1;
    return { epoch: this.epoch, windowLimited: queued > 0 || this.inFlight >= Math.floor(this.window) };
  }

  /** Successes per second over the last window. */
  observedRate(now: number): number {
    this.prune(now);
    return (this.successes.length * 1000) / this.windowMs;
  }

  /** Report how a released request ended. Call exactly once per ticket. */
  settle(now: number, ticket: Ticket, outcome: Outcome): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (outcome.kind === "success") this.onSuccess(now, ticket);
    else if (outcome.kind === "rate_limited") this.onRateLimited(now, ticket, outcome.waitMs);
  }

  private onSuccess(now: number, ticket: Ticket): void {
    this.successes.push(now);
    this.prune(now);
    if (Number.isFinite(this.rate)) {
      // Per success, so per second of traffic at this rate: increasePerSecond + growthPerSecond × rate.
      this.rate += this.increasePerSecond / this.rate + this.growthPerSecond;
      if (this.rate > this.unlimitedAbove) this.rate = Infinity;
    }
    if (ticket.windowLimited) this.window = Math.min(this.maxConcurrency, this.window + 1 / this.window);
  }

  /** A 429: pause everyone until now + waitMs; cut rate and window once per congestion epoch. */
  private onRateLimited(now: number, ticket: Ticket, waitMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, waitMs));
    if (ticket.epoch !== this.epoch) return; // already cut for this burst
    const base = Number.isFinite(this.rate) ? this.rate : Math.max(this.observedRate(now), 1000 / this.windowMs);
    this.rate = Math.max(this.minRate, base * this.decreaseFactor);
    this.window = Math.max(1, this.window * this.decreaseFactor);
    this.epoch += 1;
    // The pause itself is the spacing before the next request: the first one goes at the
    // Retry-After moment, pacing applies from there.
    this.lastReleaseAt = -Infinity;
  }

  private prune(now: number): void {
    const from = now - this.windowMs;
    let i = 0;
    while (i < this.successes.length && this.successes[i] < from) i++;
    if (i > 0) this.successes.splice(0, i);
  }
}

// ---------------------------------------------------------------------------------------

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  // Not unref'd: while requests wait in the queue the process must stay alive for them.
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface Waiter {
  resolve(t: Ticket): void;
  cleanup(): void;
}

/** FIFO admission queue around RateCore. */
export class RateController implements Admission {
  readonly core: RateCore;
  private readonly clock: Clock;
  private readonly queue: Waiter[] = [];
  private timer: unknown = undefined;

  constructor(opts: RateControlOptions & { clock?: Clock } = {}) {
    this.core = new RateCore(opts);
    this.clock = opts.clock ?? realClock;
  }

  get queued(): number {
    return this.queue.length;
  }

  snapshot(): RateSnapshot & { queued: number } {
    return { ...this.core.snapshot(), queued: this.queue.length };
  }

  /** Resolves when the request may be sent. Rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.clock.now();
    if (this.queue.length === 0 && this.core.nextReleaseAt(now) <= now) {
      return Promise.resolve(this.core.release(now));
    }
    return new Promise<Ticket>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = { resolve, cleanup: () => signal?.removeEventListener("abort", onAbort) };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Report how a released request ended (exactly once per ticket). */
  settle(ticket: Ticket, outcome: Outcome): void {
    this.core.settle(this.clock.now(), ticket, outcome);
    this.pump(); // a slot may have freed, or a pause begun: re-plan
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const now = this.clock.now();
      const at = this.core.nextReleaseAt(now);
      if (at === Infinity) return; // window full: the next settle() pumps again
      if (at > now) {
        this.timer = this.clock.setTimeout(
          () => {
            this.timer = undefined;
            this.pump();
          },
          Math.ceil(at - now),
        );
        return;
      }
      const w = this.queue.shift()!;
      w.cleanup();
      w.resolve(this.core.release(now, this.queue.length));
    }
  }
}
