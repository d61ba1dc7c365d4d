// Fresh, shared reads. A read is only ever answered by a request that started after the read
// began, never by an older answer; reads that wait at the same time share that request.
//
// When the next request starts is the whole art. It starts once the request in flight (if any)
// has ended and its answers have gone out, and then:
//   - at once when every read the provider expects is waiting (`Gathering`): the engine keeps P
//     Reads in flight (4 × CPUs by default), and once all P are waiting nobody else can join
//     before something is answered. This is what a refresh at the engine's parallelism does
//     batch after batch, whatever P is;
//   - else once no read has joined for QUIET_MS (counted from those answers too: the engine sends
//     its next Reads as they come back), longer after a large batch or while reads in flight have
//     not all joined (gaps inside a burst are the engine's connection catching up), judged after a
//     poll phase of the event loop, so that the provider being busy is not mistaken for the engine
//     having nothing more to send;
//   - and never later than GATHER_MAX_MS after its first read.
// The batching is dataloader's; this schedule is its `batchScheduleFn`.
import DataLoader from "dataloader";
import { AsyncLocalStorage } from "node:async_hooks";
import { performance } from "node:perf_hooks";

const QUIET_MS = 2;
const QUIET_IN_A_BURST_MS = 25;
const BURST = 32;
const GATHER_MAX_MS = 500;

/** How many reads the provider has in flight at the peak of this burst of them (the engine's window). */
export interface Demand {
  expected(): number;
}

/**
 * The reads waiting on a client's batches (any list or lookup of it), against how many the
 * provider expects: when all of them wait, every batch armed to go may go at once.
 */
export class Gathering {
  private waiting = 0;
  private readonly armed = new Set<() => void>();

  constructor(private readonly demand?: Demand) {}

  joined(count = 1): void {
    this.waiting += count;
    if (this.allWaiting()) for (const go of [...this.armed]) go();
  }

  left(count: number): void {
    this.waiting -= count;
  }

  allWaiting(): boolean {
    const expected = this.demand?.expected() ?? 0;
    return expected > 0 && this.waiting >= expected;
  }

  /** Whether reads the provider has in flight are still to join: then a quiet moment is the engine catching up. */
  expectsMore(): boolean {
    return this.waiting < (this.demand?.expected() ?? 0);
  }

  /** `go` runs once every expected read waits (at once if they already do), unless disarmed first. */
  arm(go: () => void): () => void {
    if (this.allWaiting()) {
      go();
      return () => undefined;
    }
    this.armed.add(go);
    return () => this.armed.delete(go);
  }
}

/**
 * A signal for a request that several readers share: it aborts once every one of them has given up (each by its own
 * signal), so that a request nobody waits for stops, and with it its retries after 429s (their only bound is the time
 * of whoever waits, transport.ts). Undefined when a reader has no signal: that reader waits as long as it takes.
 * `release` drops the listeners once the request has ended.
 */
export function whileWanted(signals: readonly (AbortSignal | undefined)[]): {
  signal?: AbortSignal;
  release(): void;
} {
  if (signals.length === 0 || signals.some((s) => s === undefined)) return { release: () => undefined };
  const readers = new Set(signals as readonly AbortSignal[]); // one caller may read twice with one signal
  const controller = new AbortController();
  let waiting = readers.size;
  const left = (event?: Event) => {
    if (--waiting === 0) controller.abort((event?.target as AbortSignal | undefined)?.reason);
  };
  for (const s of readers) {
    if (s.aborted) left();
    else s.addEventListener("abort", left, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      for (const s of readers) s.removeEventListener("abort", left);
    },
  };
}

/**
 * A batch of reads with one request in flight at a time: `send` answers the keys that gathered, with a signal that
 * ends when all of their readers have given up (`whileWanted`).
 * Shared by the list reads (one key per read) and the lookups by id (one key per id).
 */
class Batches<K, V> {
  /** Settles when the request in flight (if any) has ended, whatever its outcome, and its answers have gone out. */
  private inFlight: Promise<unknown> = Promise.resolve();
  /** When the last read joined the batch being gathered, or the last request's answers went out, whichever is later. */
  private lastJoin = 0;
  /** How many reads the last request answered. */
  private lastBatch = 0;
  private readonly loader: DataLoader<K, V>;
  /** Keys of reads that another read of the same caller already counts (see `load`). */
  private readonly uncounted = new Set<K>();
  /** The signals of the reads waiting on each key, in the order they joined (a key may be read twice). */
  private readonly readers = new Map<K, (AbortSignal | undefined)[]>();

  constructor(
    send: (keys: readonly K[], signal: AbortSignal | undefined) => Promise<(V | Error)[]>,
    private readonly gathering: Gathering,
  ) {
    this.loader = new DataLoader<K, V>(
      async (keys) => {
        this.lastBatch = keys.length;
        const wanted = whileWanted(keys.map((key) => this.readers.get(key)?.shift()));
        for (const key of keys) if (this.readers.get(key)?.length === 0) this.readers.delete(key);
        const sent = send(keys, wanted.signal);
        void sent.finally(wanted.release).catch(() => undefined);
        const counted = keys.filter((key) => !this.uncounted.delete(key)).length;
        this.inFlight = sent.then(
          () => this.answered(counted),
          () => this.answered(counted),
        );
        return sent;
      },
      { cache: false, batchScheduleFn: (dispatch) => this.schedule(dispatch) },
    );
  }

  /**
   * `counted`: whether this read is one the gathering expects. A caller that waits on two batches
   * at once (a Container's Read: its project's services and their links) counts once, or every
   * read would seem to wait when half of them do. It joins the uncounted batch first: joining
   * the counted one may complete the gathering, which sends every armed batch at once.
   */
  load(key: K, counted = true, signal?: AbortSignal): Promise<V> {
    this.lastJoin = performance.now();
    const readers = this.readers.get(key);
    if (readers) readers.push(signal);
    else this.readers.set(key, [signal]);
    const answer = this.loader.load(key);
    if (counted) this.gathering.joined();
    else this.uncounted.add(key);
    return answer;
  }

  /**
   * Resolves once the readers this request answered have run on (dataloader resolves them, and
   * they answer the engine, in the same turn of the event loop), and counts quiet from then.
   */
  private answered(count: number): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        this.gathering.left(count);
        this.lastJoin = Math.max(this.lastJoin, performance.now());
        resolve();
      }),
    );
  }

  private schedule(dispatch: () => void): void {
    const gathering = performance.now();
    void this.inFlight.then(() => {
      let sent = false;
      let disarm: (() => void) | undefined;
      const go = () => {
        if (sent) return;
        sent = true;
        disarm?.();
        dispatch();
      };
      disarm = this.gathering.arm(go);
      if (!sent) this.whenQuiet(go, gathering);
    });
  }

  private whenQuiet(go: () => void, gathering: number): void {
    const quiet = this.lastBatch >= BURST || this.gathering.expectsMore() ? QUIET_IN_A_BURST_MS : QUIET_MS;
    const wait = Math.max(0, quiet - (performance.now() - this.lastJoin));
    setTimeout(
      () =>
        setImmediate(() => {
          const now = performance.now();
          if (now - this.lastJoin >= quiet || now - gathering >= GATHER_MAX_MS) go();
          else this.whenQuiet(go, gathering);
        }),
      wait,
    );
  }
}

/** A list, read fresh and shared: every read is answered by one GET that began after it. */
export class FreshList<T> {
  private readonly batches: Batches<number, T>;
  /** Each read its own key, so that the uncounted ones are told apart. */
  private nextKey = 0;

  /** `fetch`'s signal ends when every read it answers has given up (`whileWanted`). */
  constructor(fetch: (signal?: AbortSignal) => Promise<T>, gathering = new Gathering()) {
    this.batches = new Batches(async (keys, signal) => {
      const answer = await fetch(signal);
      return keys.map(() => answer);
    }, gathering);
  }

  /**
   * The list, from a GET that starts after this call, shared with other readers (wire.ts `ListAnswer` freezes what they
   * read). `signal`: when this reader gives up (the shared GET goes on for the others; it stops when none is left).
   */
  read(counted = true, signal?: AbortSignal): Promise<T> {
    return this.batches.load(this.nextKey++, counted, signal);
  }
}

/** One value per key (a project), made on first use. */
export class PerKey<T> {
  private readonly made = new Map<string, T>();

  constructor(private readonly make: (key: string) => T) {}

  get(key: string): T {
    let value = this.made.get(key);
    if (value === undefined) {
      value = this.make(key);
      this.made.set(key, value);
    }
    return value;
  }
}

/** What a read of one record costs, to choose between reading k records by id and reading the list. */
export interface ReadPrices {
  /** What a request costs against the API's budget of requests, in milliseconds. */
  requestMs(): number;
  /** What one record of a list costs to carry and read, in milliseconds. */
  recordMs: number;
  /** How many records the last list held (what a list would carry now), if one was read. */
  listSize?: number;
}

/**
 * k reads by id, answered by whichever costs less: k GETs by id, or one list of the whole
 * collection (found by id in it). Both start after every read of the batch began.
 */
export function chooseLookup(k: number, prices: ReadPrices): "byId" | "list" {
  if (prices.listSize === undefined) return k === 1 ? "byId" : "list";
  const request = prices.requestMs();
  const byId = k * (request + prices.recordMs);
  const list = request + prices.listSize * prices.recordMs;
  return byId <= list ? "byId" : "list";
}

/** A list answer as lookups use it (wire.ts `ListAnswer`): its size, and a record by id. */
export interface Listed<T> {
  readonly length: number;
  withId(id: string): T | undefined;
}

/** Lookups by id, batched: each batch is answered by GETs by id or by one list (`chooseLookup`). */
export class FreshLookups<T extends { id: string }> {
  private readonly batches: Batches<string, T | undefined>;

  constructor(
    getOne: (id: string, signal?: AbortSignal) => Promise<T | undefined>,
    getList: (signal?: AbortSignal) => Promise<Listed<T>>,
    prices: ReadPrices,
    gathering = new Gathering(),
  ) {
    // Each read gets its own answer or its own error: one bad record fails the reads that may want it, not the batch.
    this.batches = new Batches(async (ids, signal) => {
      if (chooseLookup(ids.length, prices) === "byId")
        return Promise.all(ids.map((id) => getOne(id, signal).catch(asError)));
      const started = performance.now();
      const list = await getList(signal);
      prices.listSize = list.length;
      if (list.length > 0) prices.recordMs = (performance.now() - started) / list.length;
      return ids.map((id) => {
        try {
          return list.withId(id);
        } catch (e) {
          return asError(e);
        }
      });
    }, gathering);
  }

  /** The record with this id, from a request that starts after this call, or undefined when there is none. */
  read(id: string, signal?: AbortSignal): Promise<T | undefined> {
    return this.batches.load(id, true, signal);
  }
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

/**
 * Whether a read may be answered by a snapshot of this run (`snapshot`: one list per collection,
 * dropped on any write), or must be fresh (`fresh`, the default). The provider runs a refresh's
 * Reads under `snapshot` when configured so; everything else reads fresh.
 */
export const readConsistency = new AsyncLocalStorage<"fresh" | "snapshot">();
