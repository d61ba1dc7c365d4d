// Fresh, shared list reads. A read is only ever answered by a GET that started after the read
// began, never by an older answer; reads that wait at the same time share that GET.
//
// While one GET of a list is in flight, new reads wait for the next one, which starts as soon
// as the first ends; so a burst of reads (a refresh sends every Read at once, up to the
// engine's parallelism) costs a handful of requests, and each read waits at most two list
// round trips. The batching is dataloader's; the schedule above is its `batchScheduleFn`.
import DataLoader from "dataloader";

export class FreshList<T> {
  /** Settles when the GET in flight (if any) has ended, whatever its outcome. */
  private inFlight: Promise<unknown> = Promise.resolve();
  private readonly loader: DataLoader<number, T>;

  constructor(fetch: () => Promise<T>) {
    this.loader = new DataLoader<number, T>(
      async (keys) => {
        const list = fetch();
        this.inFlight = list.catch(() => undefined);
        const answer = deepFreeze(await list);
        return keys.map(() => answer);
      },
      {
        cache: false,
        batchScheduleFn: (dispatch) => {
          // setImmediate: reads that arrive in the same turn of the event loop join this batch.
          void this.inFlight.then(() => setImmediate(dispatch));
        },
      },
    );
  }

  /** The list, from a GET that starts after this call. Shared with other readers, so frozen. */
  read(): Promise<T> {
    return this.loader.load(0);
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
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
