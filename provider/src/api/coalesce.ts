// Read coalescing with read-after-write safety.
//
// Concurrent reads of the same key share one in-flight fetch, and a settled result is
// reused for a short TTL. Every scope (a project) has a generation counter that is bumped
// when a write to that scope starts AND when it ends. An entry remembers the generation it
// was started in, and a read may join it (in flight or cached) only when the generations
// match. Hence a read that begins after a write has completed never sees data fetched
// before (or during) that write: the write's end bumped the generation past every entry
// that existed until then.
//
// Each caller gets its own deep copy of the result, so one caller mutating what it got
// cannot change what another caller sees.

interface Entry {
  gen: number;
  promise: Promise<unknown>;
  settledAt: number | undefined;
}

export interface CoalescerStats {
  /** Fetches actually started. */
  fetches: number;
  /** Reads served by joining an in-flight fetch. */
  joined: number;
  /** Reads served from the TTL cache. */
  cached: number;
}

export class ReadCoalescer {
  private readonly gens = new Map<string, number>();
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly now: () => number;
  readonly defaultTtlMs: number;
  readonly stats: CoalescerStats = { fetches: 0, joined: 0, cached: 0 };

  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.defaultTtlMs = opts.ttlMs ?? 2000;
    this.now = opts.now ?? Date.now;
  }

  generation(scope: string): number {
    return this.gens.get(scope) ?? 0;
  }

  private bump(scope: string): void {
    this.gens.set(scope, this.generation(scope) + 1);
    this.entries.delete(scope);
  }

  /** Call when a write to `scope` is about to be sent. */
  beginWrite(scope: string): void {
    this.bump(scope);
  }

  /** Call when that write has finished (successfully or not: a failed write may have acted). */
  endWrite(scope: string): void {
    this.bump(scope);
  }

  /** Run a write bracketed by beginWrite/endWrite. */
  async write<T>(scope: string, run: () => Promise<T>): Promise<T> {
    this.beginWrite(scope);
    try {
      return await run();
    } finally {
      this.endWrite(scope);
    }
  }

  /**
   * Read `key` in `scope`, sharing an in-flight fetch or a result younger than `ttlMs`
   * started in the current generation. `ttlMs: 0` shares in-flight fetches only.
   * `fresh: true` always starts a new fetch (later reads may then join it).
   */
  read<T>(scope: string, key: string, fetch: () => Promise<T>, opts: { ttlMs?: number; fresh?: boolean } = {}): Promise<T> {
    const ttl = opts.ttlMs ?? this.defaultTtlMs;
    const gen = this.generation(scope);
    let byKey = this.entries.get(scope);
    const existing = byKey?.get(key);
    if (!opts.fresh && existing && existing.gen === gen) {
      if (existing.settledAt === undefined) {
        this.stats.joined++;
        return existing.promise.then(clone) as Promise<T>;
      }
      if (this.now() - existing.settledAt < ttl) {
        this.stats.cached++;
        return existing.promise.then(clone) as Promise<T>;
      }
    }
    this.stats.fetches++;
    const entry: Entry = { gen, promise: fetch(), settledAt: undefined };
    if (!byKey) {
      byKey = new Map();
      this.entries.set(scope, byKey);
    }
    byKey.set(key, entry);
    entry.promise.then(
      () => {
        entry.settledAt = this.now();
      },
      () => {
        // Never cache a failure.
        const m = this.entries.get(scope);
        if (m?.get(key) === entry) m.delete(key);
      },
    );
    return entry.promise.then(clone) as Promise<T>;
  }

  /** Drop every cached read of a scope without bumping its generation. */
  invalidate(scope: string): void {
    this.entries.delete(scope);
  }
}

function clone<T>(v: T): T {
  return v === undefined || v === null || typeof v !== "object" ? v : structuredClone(v);
}
