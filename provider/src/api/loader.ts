// Fresh, shared list reads. A read is only ever answered by a GET that started after the read
// began, never by an older answer; reads that wait at the same time share that GET.
//
// When the next GET starts is the whole art. It starts once the GET in flight (if any) has
// ended and its answers have gone out, and once no read has joined it for QUIET_MS (counted from
// those answers too: the engine sends its next Reads as they come back), but never later than
// GATHER_MAX_MS after its first read. Quiet is judged after a poll phase of the event loop: when
// the provider has been busy (answering the last batch), the calls waiting on the engine's
// connection are read first, so that being busy is not mistaken for the engine having nothing more
// to send. A lone read so waits a few milliseconds; a refresh, whose Reads reach the provider one
// after another as fast as it can decode them, is answered by one or a few GETs rather than one
// every list round trip (each of which the provider must also parse); a refresh at the engine's
// default parallelism (16 Reads at a time) pays the few milliseconds per batch. Counting quiet from the
// answers keeps such a refresh at one batch of 16 per GET: counted from the last join alone, a
// batch that gathered while the GET was in flight went the moment it ended, before the Reads that
// GET answered were sent again, and the two halves then took turns (at 5,000 containers, twice the
// GETs and the time). The batching is dataloader's; this schedule is its `batchScheduleFn`.
import DataLoader from "dataloader";
import { performance } from "node:perf_hooks";

/**
 * A batch is sent once no read has joined it for this long: longer after a large batch (a burst
 * of Reads is under way, and gaps in it are the engine's connection catching up, or the sender
 * paused: with the benchmarks' stand-in engine, a Node.js process, on a busy two-core machine,
 * 10 ms split a refresh of 1,000 into up to six GETs and 25 ms into one or two), short after a
 * small one (a lone read, or the engine's few Reads at a time, pay little)…
 */
const QUIET_MS = 2;
const QUIET_IN_A_BURST_MS = 25;
const BURST = 32;
/** …or this long after its first read (beyond the GET still in flight), whichever comes first. */
const GATHER_MAX_MS = 500;

export class FreshList<T> {
  /** Settles when the GET in flight (if any) has ended, whatever its outcome, and its answers have gone out. */
  private inFlight: Promise<unknown> = Promise.resolve();
  /** When the last read joined the batch being gathered, or the last GET's answers went out, whichever is later. */
  private lastJoin = 0;
  /** How many reads the last GET answered. */
  private lastBatch = 0;
  private readonly loader: DataLoader<number, T>;

  constructor(fetch: () => Promise<T>) {
    this.loader = new DataLoader<number, T>(
      async (keys) => {
        this.lastBatch = keys.length;
        const list = fetch();
        this.inFlight = list.then(
          () => this.answered(),
          () => this.answered(),
        );
        const answer = deepFreeze(await list);
        return keys.map(() => answer);
      },
      {
        cache: false,
        batchScheduleFn: (dispatch) => {
          const gathering = performance.now();
          void this.inFlight.then(() => this.whenQuiet(dispatch, gathering));
        },
      },
    );
  }

  /**
   * Resolves once the readers this GET answered have run on (dataloader resolves them, and they
   * answer the engine, in the same turn of the event loop), and counts quiet from then.
   */
  private answered(): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        this.lastJoin = Math.max(this.lastJoin, performance.now());
        resolve();
      }),
    );
  }

  /** The list, from a GET that starts after this call. Shared with other readers, so frozen. */
  read(): Promise<T> {
    this.lastJoin = performance.now();
    return this.loader.load(0);
  }

  private whenQuiet(dispatch: () => void, gathering: number): void {
    const quiet = this.lastBatch >= BURST ? QUIET_IN_A_BURST_MS : QUIET_MS;
    const wait = Math.max(0, quiet - (performance.now() - this.lastJoin));
    setTimeout(
      () =>
        setImmediate(() => {
          const now = performance.now();
          if (now - this.lastJoin >= quiet || now - gathering >= GATHER_MAX_MS) dispatch();
          else this.whenQuiet(dispatch, gathering);
        }),
      wait,
    );
  }
}

/** One FreshList per key (a project), made on first use. */
export class FreshLists<T> {
  private readonly lists = new Map<string, FreshList<T>>();

  constructor(private readonly fetch: (key: string) => Promise<T>) {}

  read(key: string): Promise<T> {
    let list = this.lists.get(key);
    if (!list) {
      list = new FreshList(() => this.fetch(key));
      this.lists.set(key, list);
    }
    return list.read();
  }
}

/** Readers share one answer: freezing it (once, O(n)) keeps any of them from changing another's. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for…in, not Object.values: a list of 1,000 records is frozen on every read, without garbage.
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const indexes = new WeakMap<readonly { id: string }[], ReadonlyMap<string, { id: string }>>();

/**
 * A list's records by id, made once per answer (answers are shared and frozen): a refresh of
 * N resources looks N ids up in one answer, which a scan would make quadratic.
 */
export function byId<T extends { id: string }>(list: readonly T[]): ReadonlyMap<string, T> {
  let index = indexes.get(list);
  if (!index) {
    index = new Map(list.map((record) => [record.id, record]));
    indexes.set(list, index);
  }
  return index as ReadonlyMap<string, T>;
}
