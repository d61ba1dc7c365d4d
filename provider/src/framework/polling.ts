// Waiting for the service to finish something asynchronous (a volume provisioning, an app
// rolling out), with many waits on one source served by one poll loop.

/**
 * The delay before the next status read, as a pure function of how long we have waited.
 * Early reads are quick (most waits are short); later ones are spaced at 10% of the time
 * waited so far, so that readiness is noticed within 10% of the provisioning time (and
 * never later than `maxMs`), while a long wait costs few requests.
 */
export function nextPollDelayMs(elapsedMs: number, minMs = 250, maxMs = 15_000, fraction = 0.1): number {
  return Math.min(maxMs, Math.max(minMs, Math.floor(elapsedMs * fraction)));
}

export const formatSeconds = (ms: number) => `${Math.round(ms / 1000)}s`;

export class WaitTimeout extends Error {
  constructor(
    readonly waitedMs: number,
    what: string,
  ) {
    super(`gave up waiting for ${what} after ${formatSeconds(waitedMs)}`);
    this.name = "WaitTimeout";
  }
}

export class WaitCancelled extends Error {
  constructor(what: string) {
    super(`stopped waiting for ${what}: the operation was cancelled`);
    this.name = "WaitCancelled";
  }
}

export interface WaitOptions<T, V> {
  /** What we wait for, as the display says it: "volume data to be running". */
  what: string;
  /** This wait's item in what the source returned (undefined: it is not there). */
  select: (source: T) => V;
  done: (value: V) => boolean;
  /** What the caller already knows (a create's answer): it stands for the first read. */
  initial?: V;
  timeoutMs: number;
  signal: AbortSignal;
  progress?: (message: string) => void;
  /** Called with each value read, done or not (the last one is what a timed-out wait reports). */
  seen?: (value: V) => void;
}

interface Waiter<T> {
  nextDueAt: number;
  deliver(source: T, fetchStartedAt: number): void;
  fail(error: unknown): void;
}

/**
 * Many waits on one source (the volumes of a project), served by one poll loop: every read
 * of the source answers every wait registered before the read began (never one that began
 * later: it must see data fetched after it started), and the loop reads as often as the
 * most demanding wait's schedule asks. So twenty volumes created together cost about the
 * reads of one, and each is still noticed within its own latency rule. A wait that ends
 * (done, timed out, cancelled) leaves the others undisturbed; when the last one ends, the read
 * in flight is told so by its signal: its time was theirs (a read the API rate-limits goes on,
 * paced, for as long as someone waits for it).
 */
export class SharedPoll<T> {
  private readonly waiters = new Set<Waiter<T>>();
  private running = false;
  private wake?: () => void;
  /** Ends the read in flight: no wait is left for it to answer. */
  private reading?: AbortController;

  constructor(
    private readonly fetch: (signal: AbortSignal) => Promise<T>,
    private readonly schedule: (elapsedMs: number) => number = nextPollDelayMs,
  ) {}

  /** Resolves with the selected value once `done`; throws WaitTimeout or WaitCancelled. */
  wait<V>(options: WaitOptions<T, V>): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const started = Date.now();
      const deadline = started + options.timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const finish = (end: () => void) => {
        this.waiters.delete(waiter);
        if (this.waiters.size === 0) this.reading?.abort(new Error(`no one waits for ${options.what} any more`));
        clearTimeout(timer);
        options.signal.removeEventListener("abort", cancelled);
        end();
      };
      const cancelled = () => finish(() => reject(new WaitCancelled(options.what)));
      const timedOut = () => finish(() => reject(new WaitTimeout(Date.now() - started, options.what)));
      const waiter: Waiter<T> = {
        nextDueAt: started,
        deliver: (source, fetchStartedAt) => {
          let value: V;
          try {
            value = options.select(source);
          } catch (error) {
            return finish(() => reject(error)); // this wait's record cannot be read (two with its id): this wait fails
          }
          options.seen?.(value);
          if (options.done(value)) return finish(() => resolve(value));
          const elapsed = fetchStartedAt - started;
          options.progress?.(`waiting for ${options.what} (${formatSeconds(Date.now() - started)})`);
          waiter.nextDueAt = Math.min(deadline, fetchStartedAt + this.schedule(elapsed));
        },
        fail: (error) => finish(() => reject(error)),
      };
      if (options.signal.aborted) return reject(new WaitCancelled(options.what));
      if ("initial" in options) {
        const value = options.initial as V;
        options.seen?.(value);
        if (options.done(value)) return resolve(value);
        waiter.nextDueAt = started + this.schedule(0);
      }
      options.signal.addEventListener("abort", cancelled, { once: true });
      timer = setTimeout(timedOut, Math.max(0, options.timeoutMs));
      this.waiters.add(waiter);
      this.run();
    });
  }

  /** The one loop: sleep until the earliest wait is due, read, answer everyone who was waiting. */
  private run(): void {
    if (this.running) {
      this.wake?.();
      return;
    }
    this.running = true;
    void (async () => {
      while (this.waiters.size > 0) {
        const due = Math.min(...[...this.waiters].map((w) => w.nextDueAt));
        if (due > Date.now()) {
          await this.sleepUntil(due); // or until a new wait arrives; then plan again
          continue;
        }
        const fetchStartedAt = Date.now();
        // Only those waiting now: a wait that arrives during the read began after it.
        const waiting = [...this.waiters];
        const reading = new AbortController();
        this.reading = reading;
        try {
          const source = await this.fetch(reading.signal);
          for (const waiter of waiting) if (this.waiters.has(waiter)) waiter.deliver(source, fetchStartedAt);
        } catch (error) {
          for (const waiter of waiting) if (this.waiters.has(waiter)) waiter.fail(error);
        } finally {
          this.reading = undefined;
        }
      }
      this.running = false;
    })();
  }

  /** Sleeps until `at`, or until a new wait arrives (it may be due sooner). */
  private sleepUntil(at: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, at - Date.now());
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
