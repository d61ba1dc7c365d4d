// Seeded random faults, for soak runs: a fault source the simulator consults for every API
// request that no armed fault matches (control.setFaultSource).
//
// Whether a request meets a fault, and which, is a pure function of the seed, the current
// `epoch` (the soak sets it to the operation's number), and the request's place in it: its
// method, its path with ids blanked out, and how many such requests the epoch saw before. So a
// run replays from its seed even though ids are random and timing varies (a poll more or less,
// a list read served from the client's cache, shift nothing else).
import type { Fault } from "./types";

export type FaultSource = (method: string, path: string) => Fault | undefined;

/** The faults a random source chooses from, each with its weight. */
export type RandomFaultName =
  | "429+retry-after"
  | "429"
  | "500"
  | "502"
  | "503"
  | "504"
  | "reset-before"
  | "reset-after"
  | "latency"
  | "garbled-after";

/**
 * The default weights. A new fault joins at weight 0 and at the end, so that the default set, and
 * what a seed draws, stay the same (test/simulator/chaos.test.ts pins two seeds).
 */
export const RANDOM_FAULTS: Readonly<Record<RandomFaultName, number>> = {
  "429+retry-after": 1,
  "429": 1,
  "500": 1,
  "502": 1,
  "503": 1,
  "504": 1,
  "reset-before": 1,
  "reset-after": 1,
  latency: 1,
  // Acts, then answers a body no client can read. Off unless weighted in: a run's seeded sequence
  // stays what it was without it.
  "garbled-after": 0,
};

export interface RandomFaultOptions {
  seed: number;
  /** Probability that one request gets a fault, 0..1. */
  rate: number;
  /** Delay of a "latency" fault (the server acts, then answers this late): choose it beyond the client's timeout. */
  latencyMs: number;
  /** Weights of the faults (default: all equal). A fault left out never happens. */
  weights?: Partial<Record<RandomFaultName, number>>;
}

export interface RandomFaults {
  source: FaultSource;
  /** Faults chosen so far, by name. */
  readonly chosen: Record<RandomFaultName, number>;
  /** Stop (false) or resume (true) injecting. */
  enabled: boolean;
  /** The unit of replay (an operation's number); setting it starts counting requests afresh. */
  epoch: number;
}

/** mulberry32: a small, fast, seedable PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function faultFor(name: RandomFaultName, latencyMs: number): Fault {
  switch (name) {
    case "429+retry-after":
      return { kind: "rate_limit", retryAfter: "1" };
    case "429":
      return { kind: "rate_limit", retryAfter: null };
    case "reset-before":
      return { kind: "reset_before" };
    case "reset-after":
      return { kind: "reset_after" };
    case "latency":
      return { kind: "latency", latencyMs };
    case "garbled-after":
      return { kind: "respond_after", status: 200, body: "{not json" };
    default:
      return { kind: "status", status: Number(name) };
  }
}

/** A 32-bit hash of a string (cyrb53, folded). */
function hash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export function randomFaults(options: RandomFaultOptions): RandomFaults {
  let seen = new Map<string, number>();
  let epoch = 0;
  const weights = Object.entries({ ...RANDOM_FAULTS, ...options.weights }).filter(([, w]) => (w ?? 0) > 0) as Array<
    [RandomFaultName, number]
  >;
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const chosen = Object.fromEntries(Object.keys(RANDOM_FAULTS).map((k) => [k, 0])) as Record<RandomFaultName, number>;
  const faults: RandomFaults = {
    chosen,
    enabled: true,
    get epoch() {
      return epoch;
    },
    set epoch(value: number) {
      epoch = value;
      seen = new Map();
    },
    source: (method, path) => {
      if (!faults.enabled || total === 0) return undefined;
      const shape = `${method} ${path.replace(ID, ":id")}`;
      const occurrence = (seen.get(shape) ?? 0) + 1;
      seen.set(shape, occurrence);
      const random = seededRandom(hash(`${options.seed}|${epoch}|${shape}|${occurrence}`));
      if (random() >= options.rate) return undefined;
      let pick = random() * total;
      for (const [name, weight] of weights) {
        pick -= weight;
        if (pick < 0) {
          chosen[name] += 1;
          return faultFor(name, options.latencyMs);
        }
      }
      return undefined;
    },
  };
  return faults;
}
