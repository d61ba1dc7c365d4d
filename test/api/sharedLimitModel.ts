// A discrete-event model of several plugins sharing one account's rate limit, in simulated time: each
// plugin's real RateCore (rateControl.ts) admits its requests, the simulator's real TokenBucket
// (simulator/src/ratelimit.ts) answers them. A plugin runs `parallelism` creates at a time, each a POST,
// then a wait for the app to run, which one list read every `pollDelayMs` serves for all the plugin's
// creates (polling.ts); a 429 sends the request again through the rate control. So the whole algorithm
// is tested in milliseconds of real time, with no process, socket or timer (bench/sharedLimit.ts
// measures the real thing).
import { RateCore, type Outcome, type RateControlOptions, type Ticket } from "../../provider/src/api/rateControl";
import { TokenBucket } from "../../simulator/src/ratelimit";

export interface ModelOptions {
  plugins: number;
  createsEach: number;
  limitPerSecond: number;
  parallelism?: number;
  /** From a request's release to its answer. */
  latencyMs?: number;
  pollDelayMs?: number;
  rateControl?: RateControlOptions;
}

export interface ModelResult {
  wallMs: number;
  accepted: number;
  limited: number;
  /** Each plugin's completion time. */
  pluginMs: number[];
  /** When each 429 was answered. */
  limitedAt: number[];
  /** The most 429s one request met (the client gives up after its retry budget, 5 by default). */
  mostRefused: number;
}

/** Jain's fairness index: (Σx)² / (n·Σx²), from 1/n (one takes all) to 1 (all equal). */
export function jainIndex(xs: number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  const squares = xs.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (xs.length * squares);
}

/** A request waiting to be sent: what to do once the server accepts it, and how often it was refused. */
interface Pending {
  accepted: () => void;
  refused: number;
}

export function runModel(o: ModelOptions): ModelResult {
  const parallelism = o.parallelism ?? 16;
  const latencyMs = o.latencyMs ?? 5;
  const pollDelayMs = o.pollDelayMs ?? 250;
  const events: Array<{ at: number; seq: number; fn: () => void }> = [];
  let seq = 0;
  let now = 0;
  const at = (time: number, fn: () => void) => {
    const e = { at: time, seq: seq++, fn };
    let i = events.length;
    while (i > 0 && (events[i - 1].at > e.at || (events[i - 1].at === e.at && events[i - 1].seq > e.seq))) i--;
    events.splice(i, 0, e);
  };
  const bucket = new TokenBucket(o.limitPerSecond, 0);
  let accepted = 0;
  const limitedAt: number[] = [];
  let mostRefused = 0;
  const pluginMs: number[] = new Array(o.plugins).fill(NaN);

  for (let p = 0; p < o.plugins; p++) {
    const core = new RateCore(o.rateControl);
    const queue: Pending[] = [];
    let timerAt = Infinity;
    let started = 0;
    let done = 0;
    const pump = () => {
      while (queue.length > 0) {
        const next = core.nextReleaseAt(now);
        if (next === Infinity) return;
        if (next > now) {
          if (next < timerAt) {
            timerAt = next;
            at(next, () => {
              timerAt = Infinity;
              pump();
            });
          }
          return;
        }
        const request = queue.shift()!;
        const ticket: Ticket = core.release(now, queue.length);
        at(now + latencyMs / 2, () => {
          const wait = bucket.take(now);
          at(now + latencyMs / 2, () => {
            const outcome: Outcome =
              wait === undefined ? { kind: "success" } : { kind: "rate_limited", waitMs: wait * 1000 };
            core.settle(now, ticket, outcome);
            if (wait === undefined) {
              accepted++;
              request.accepted();
            } else {
              limitedAt.push(now);
              mostRefused = Math.max(mostRefused, ++request.refused);
              queue.push(request); // sent again when the rate control lets it
            }
            pump();
          });
        });
      }
    };
    const send = (then: () => void) => {
      queue.push({ accepted: then, refused: 0 });
      pump();
    };
    // The creates waiting to see their app running, and the one list read that serves them all (polling.ts).
    let waiting: Array<() => void> = [];
    let polling = false;
    const poll = () => {
      if (polling || waiting.length === 0) return;
      polling = true;
      at(now + pollDelayMs, () => {
        const served = waiting;
        waiting = [];
        send(() => {
          polling = false;
          for (const done of served) done();
          poll();
        });
      });
    };
    const create = () => {
      if (started >= o.createsEach) return;
      started++;
      send(() => {
        waiting.push(() => {
          done++;
          if (done === o.createsEach) pluginMs[p] = now;
          create();
        });
        poll();
      });
    };
    at(0, () => {
      for (let i = 0; i < parallelism; i++) create();
    });
  }
  while (events.length > 0) {
    const e = events.shift()!;
    now = e.at;
    e.fn();
  }
  return { wallMs: Math.max(...pluginMs), accepted, limited: limitedAt.length, pluginMs, limitedAt, mostRefused };
}
