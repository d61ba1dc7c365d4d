// The simple alternative to the client's AIMD RateController, for the benchmark that compares
// them (row 10): at most `window` requests in flight; after a 429 every request waits until the
// Retry-After moment; no pacing otherwise. Same interface as RateController (an Admission),
// passed to the client through `HostingClientOptions.rateController`.
import { realClock, type Admission, type Clock, type Outcome, type Ticket } from "../provider/src/api/rateControl";

/** A window-plus-pause control has no epochs and never grows its window: every ticket is alike. */
const TICKET: Ticket = Object.freeze({ epoch: 0, windowLimited: false });

interface Waiter {
  admit(): void;
}

export class WindowPause implements Admission {
  private inFlight = 0;
  private pausedUntil = -Infinity;
  private readonly queue: Waiter[] = [];
  private timer: unknown = undefined;

  constructor(
    readonly window = 6,
    private readonly clock: Clock = realClock,
  ) {}

  snapshot() {
    return { window: this.window, inFlight: this.inFlight, pausedUntil: this.pausedUntil, queued: this.queue.length };
  }

  acquire(signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Ticket>((resolve, reject) => {
      const gaveUp = () => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener("abort", gaveUp);
          resolve(TICKET);
        },
      };
      signal?.addEventListener("abort", gaveUp, { once: true });
      this.queue.push(waiter);
      this.admit();
    });
  }

  settle(_ticket: Ticket, outcome: Outcome): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (outcome.kind === "rate_limited")
      this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + outcome.waitMs);
    this.admit();
  }

  /** Let waiting requests go, in order, while the window has room and no pause is on. */
  private admit(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const pauseLeft = this.pausedUntil - this.clock.now();
    if (pauseLeft > 0 && this.queue.length > 0) {
      this.timer = this.clock.setTimeout(() => this.admit(), Math.ceil(pauseLeft));
      return;
    }
    while (this.queue.length > 0 && this.inFlight < this.window) {
      this.inFlight += 1;
      this.queue.shift()!.admit();
    }
  }
}
