// Read coalescing with read-after-write safety.
//
// Concurrent reads of the same key share one in-flight fetch, and a settled result is
// reused for a short TTL. Every scope (a project) counts its write events: the counter
// moves when a write starts and when it ends. A fetch remembers the count at which it
// started, and a read may use it (in flight or cached) only if it started after every
// write that had completed when the read began. Hence a read that begins after a write has
// completed never sees data fetched before (or during) that write.
//
// A read about one item (a container, in the project's list) needs only the writes that
// may have touched that item: a write that names its item (PATCH /containers/{id}, or a
// create whose answer names the new id) counts for that item alone; any other write, and
// any write that failed, counts for every item. So the wait of one create after its own
// POST may share a list that a neighbouring create started, while a read of the whole
// list still sees every completed write.
//
// Each caller gets its own deep copy of the result, so one caller mutating what it got
// cannot change what another caller sees.

interface Entry {
  /** The scope's write count when the fetch started. */
  startedAt: number;
  promise: Promise<unknown>;
  settledAt: number | undefined;
}

/** Where each scope's writes stand: counts at which writes completed. */
interface ScopeWrites {
  count: number;
  /** The last completion of any write. */
  anyDone: number;
  /** The last completion of a write that may have touched any item. */
  everyItemDone: number;
  /** The last completion of a write to one known item. */
  itemDone: Map<string, number>;
}

/** Which single item a write touched, if it is known (from the request or its answer). */
export type WriteItem<T> = string | ((result: T) => string | undefined);

export interface CoalescerStats {
  /** Fetches actually started. */
  fetches: number;
  /** Reads served by joining an in-flight fetch. */
  joined: number;
  /** Reads served from the TTL cache. */
  cached: number;
}

export class ReadCoalescer {
  private readonly scopes = new Map<string, ScopeWrites>();
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly now: () => number;
  readonly defaultTtlMs: number;
  readonly stats: CoalescerStats = { fetches: 0, joined: 0, cached: 0 };

  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.defaultTtlMs = opts.ttlMs ?? 2000;
    this.now = opts.now ?? Date.now;
  }

  private writes(scope: string): ScopeWrites {
    let writes = this.scopes.get(scope);
    if (!writes) {
      writes = { count: 0, anyDone: 0, everyItemDone: 0, itemDone: new Map() };
      this.scopes.set(scope, writes);
    }
    return writes;
  }

  /** The scope's write count; it moves by one when a write starts and when it ends. */
  generation(scope: string): number {
    return this.scopes.get(scope)?.count ?? 0;
  }

  /** Call when a write to `scope` is about to be sent. */
  beginWrite(scope: string): void {
    this.writes(scope).count++;
  }

  /**
   * Call when that write has finished. `item` names the one item it touched; without it
   * (or when the write failed: it may have acted anywhere) it counts for every item.
   */
  endWrite(scope: string, item?: string): void {
    const writes = this.writes(scope);
    const done = ++writes.count;
    writes.anyDone = done;
    if (item === undefined) writes.everyItemDone = done;
    else writes.itemDone.set(item, done);
  }

  /** Run a write bracketed by beginWrite/endWrite. */
  async write<T>(scope: string, run: () => Promise<T>, item?: WriteItem<T>): Promise<T> {
    this.beginWrite(scope);
    let touched: string | undefined;
    try {
      const result = await run();
      touched = typeof item === "function" ? item(result) : item;
      return result;
    } finally {
      this.endWrite(scope, touched);
    }
  }

  /** The write count a fetch must have started at, to be fresh enough for this read. */
  private required(scope: string, item: string | undefined): number {
    const writes = this.scopes.get(scope);
    if (!writes) return 0;
    if (item === undefined) return writes.anyDone;
    return Math.max(writes.everyItemDone, writes.itemDone.get(item) ?? 0);
  }

  /**
   * Read `key` in `scope`, sharing an in-flight fetch or a result younger than `ttlMs` that
   * is fresh enough (see above). `item` says the caller needs only that item of the result.
   * `ttlMs: 0` shares in-flight fetches only. `fresh: true` always starts a new fetch (later
   * reads may then join it).
   */
  read<T>(
    scope: string,
    key: string,
    fetch: () => Promise<T>,
    opts: { ttlMs?: number; fresh?: boolean; item?: string } = {},
  ): Promise<T> {
    const ttl = opts.ttlMs ?? this.defaultTtlMs;
    let byKey = this.entries.get(scope);
    const existing = byKey?.get(key);
    if (!opts.fresh && existing && existing.startedAt >= this.required(scope, opts.item)) {
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
    const entry: Entry = { startedAt: this.generation(scope), promise: fetch(), settledAt: undefined };
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

  /** Drop every cached read of a scope. */
  invalidate(scope: string): void {
    this.entries.delete(scope);
  }
}

function clone<T>(v: T): T {
  return v === undefined || v === null || typeof v !== "object" ? v : structuredClone(v);
}
