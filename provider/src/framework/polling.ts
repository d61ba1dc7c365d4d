// Waiting for the service to finish something asynchronous (a volume provisioning).

/**
 * The delay before the next status read, as a pure function of how long we have waited.
 * Early reads are quick (most waits are short); later ones are spaced at 10% of the time
 * waited so far, so that readiness is noticed within 10% of the provisioning time (and
 * never later than `maxMs`), while a long wait costs few requests.
 */
export function nextPollDelayMs(elapsedMs: number, minMs = 250, maxMs = 15_000, fraction = 0.1): number {
  return Math.min(maxMs, Math.max(minMs, Math.floor(elapsedMs * fraction)));
}

export class WaitTimeout extends Error {
  constructor(readonly waitedMs: number, what: string) {
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

export const formatSeconds = (ms: number) => `${Math.round(ms / 1000)}s`;

export interface WaitOptions<T> {
  /** What we wait for, as the display says it: "volume data to be running". */
  what: string;
  poll: () => Promise<T>;
  done: (value: T) => boolean;
  /** What the caller already knows (a create's answer): it stands for the first read. */
  initial?: T;
  timeoutMs: number;
  signal: AbortSignal;
  progress?: (message: string) => void;
  schedule?: (elapsedMs: number) => number;
  now?: () => number;
}

/** Polls until `done`; throws WaitTimeout or WaitCancelled, never waits past the deadline. */
export async function waitUntil<T>(options: WaitOptions<T>): Promise<T> {
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? nextPollDelayMs;
  const started = now();
  for (let read = 0; ; read++) {
    if (options.signal.aborted) throw new WaitCancelled(options.what);
    const value = read === 0 && "initial" in options ? (options.initial as T) : await options.poll();
    if (options.done(value)) return value;
    const elapsed = now() - started;
    if (elapsed >= options.timeoutMs) throw new WaitTimeout(elapsed, options.what);
    options.progress?.(`waiting for ${options.what} (${formatSeconds(elapsed)})`);
    const delay = Math.min(schedule(elapsed), options.timeoutMs - elapsed);
    await sleep(delay, options.signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
