// Cancel and SIGTERM stop an operation at once, except for a write already on its way.
//
// Aborting a create's POST in flight would not undo it on the server: the resource would exist
// with no id ever reaching the engine (a half-recorded create, an orphan). So while one of the
// operation's writes is in flight, the abort waits for it to settle (it is bounded by the
// request timeout); its answer, the id, then reaches the engine, and the abort takes effect
// on the next step (a wait, a read, another write), which ends as a partial failure that
// keeps the id. Reads and waits are aborted at once.
import type { HostingClient } from "../api/client";

/** Methods of the API groups that only read; every other method writes. */
const READS = new Set(["list", "get", "findByName", "logs"]);
const GROUPS = new Set(["containers", "databases", "serviceLinks", "registries", "volumes"]);

export interface WriteGuard {
  /** The client to give the operation: the same client, with its writes counted. */
  client: HostingClient;
  /** Runs `abort` now if none of the operation's writes is in flight, else once the last one settles. */
  abortWhenIdle(abort: () => void): void;
  /** The operation is over: forget a pending abort. */
  release(): void;
}

export function guardWrites(client: HostingClient): WriteGuard {
  let inFlight = 0;
  let pending: (() => void) | undefined;
  const settled = () => {
    inFlight -= 1;
    if (inFlight === 0 && pending) {
      const abort = pending;
      pending = undefined;
      abort();
    }
  };
  const counted = (group: object) =>
    new Proxy(group, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function" || typeof prop !== "string" || READS.has(prop)) return value;
        return (...args: unknown[]) => {
          inFlight += 1;
          let result: unknown;
          try {
            result = value.apply(target, args);
          } catch (err) {
            settled();
            throw err;
          }
          return Promise.resolve(result).finally(settled);
        };
      },
    });
  const groups = new Map<string, object>();
  const guarded = new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof prop !== "string" || !GROUPS.has(prop) || typeof value !== "object" || value === null) return value;
      if (!groups.has(prop)) groups.set(prop, counted(value));
      return groups.get(prop);
    },
  });
  return {
    client: guarded,
    abortWhenIdle(abort) {
      if (inFlight === 0) abort();
      else pending = abort;
    },
    release() {
      pending = undefined;
    },
  };
}
