// The loader's rule, with no server: a read is only answered by a fetch that began after it,
// reads that wait together share one fetch, and one fetch is in flight at a time.
//
// The loader decides when to send by the clock (quiet milliseconds, turns of the event loop), so
// these tests run it on jest's fake clock: its timers and immediates fire in order as a test
// advances time, however busy the machine is. (On the real clock, a worker held off the CPU for
// 30 ms ran the test's 30 ms timer in the same turn as the loader's 2 ms one, and looked before the
// batch was sent.) The loader reads the time from node:perf_hooks, which jest does not fake: it is
// given the fake clock's.
import { FreshList, FreshLookups, Gathering, chooseLookup, whileWanted } from "../../provider/src/api/loader";

jest.mock("node:perf_hooks", () => ({ performance: { now: () => performance.now() } }));

beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask"] }));
afterEach(() => jest.useRealTimers());

function source() {
  const fetches: Array<{ started: number; resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  let clock = 0;
  const fetch = () =>
    new Promise<number>((resolve, reject) => {
      fetches.push({ started: ++clock, resolve, reject });
    });
  return { fetches, fetch, tick: () => ++clock };
}
/** Long enough for a batch to be sent: the loader waits for a few quiet milliseconds first. */
const turn = () => jest.advanceTimersByTimeAsync(30);
/** One turn of the event loop, no time passing: the immediates due now run. */
const nextTurn = () => jest.advanceTimersByTimeAsync(0);
/** What reads answer once their batch has gone (after a turn) and been answered. */
const answers = async <T>(reads: Promise<T>): Promise<T> => {
  await turn();
  return reads;
};

test("reads that wait at the same time share one fetch, which starts after all of them", async () => {
  const { fetches, fetch } = source();
  const list = new FreshList(fetch);
  const reads = [list.read(), list.read(), list.read()];
  await turn();
  expect(fetches).toHaveLength(1);
  fetches[0].resolve(1);
  expect(await Promise.all(reads)).toEqual([1, 1, 1]);
});

test("a read that begins while a fetch is in flight is answered by the next fetch, never the older one", async () => {
  const { fetches, fetch, tick } = source();
  const list = new FreshList(fetch);
  const early = list.read();
  await turn();
  const lateAt = tick();
  const late = list.read();
  await turn();
  expect(fetches).toHaveLength(1); // one in flight at a time: the late read waits
  fetches[0].resolve(1);
  expect(await early).toBe(1);
  await turn();
  expect(fetches).toHaveLength(2);
  expect(fetches[1].started).toBeGreaterThan(lateAt);
  fetches[1].resolve(2);
  expect(await late).toBe(2);
});

test("a batch that gathered during a fetch waits for the reads that fetch answered to come back, and shares the next fetch with them (16 Reads at a time)", async () => {
  const { fetches, fetch } = source();
  const list = new FreshList(fetch);
  // The engine sends its next Read as each one is answered: it reaches the provider a moment later
  // (here a millisecond and a turn of the event loop; over loopback, with the engine's grpc-go, about that).
  const readAgainOnAnswer = (read: Promise<number>) =>
    read.then(
      () =>
        new Promise<{ next: Promise<number> }>((r) =>
          setTimeout(() => setImmediate(() => r({ next: list.read() })), 1),
        ),
    );
  const first = readAgainOnAnswer(list.read());
  await turn();
  const waiting = list.read(); // joins while the first fetch is in flight
  await turn();
  fetches[0].resolve(1);
  await turn();
  const second = (await first).next;
  fetches[1].resolve(2);
  expect(await waiting).toBe(2);
  await turn();
  expect(fetches).toHaveLength(2); // the read sent again was answered by that same fetch: no third one
  expect(await second).toBe(2);
});

test("a failed fetch fails the reads it would have answered, and the next read fetches again", async () => {
  const { fetches, fetch } = source();
  const list = new FreshList(fetch);
  const failing = list.read();
  await turn();
  fetches[0].reject(new Error("503"));
  await expect(failing).rejects.toThrow("503");
  const next = list.read();
  await turn();
  fetches[1].resolve(7);
  expect(await next).toBe(7);
});

test("reads that keep arriving, turn after turn of the event loop, still share one fetch (a refresh's Reads, decoded one by one)", async () => {
  const { fetches, fetch } = source();
  const list = new FreshList(fetch);
  const reads: Array<Promise<number>> = [];
  for (let i = 0; i < 10; i++) {
    reads.push(list.read());
    await nextTurn();
  }
  await turn();
  expect(fetches).toHaveLength(1);
  fetches[0].resolve(1);
  expect(await Promise.all(reads)).toEqual(Array(10).fill(1));
});

test("readers that wait together share one answer", async () => {
  const list = new FreshList(async () => [{ env: { A: "1" } }]);
  const [a, b] = await answers(Promise.all([list.read(), list.read()]));
  expect(a).toBe(b);
});

describe("Gathering: a batch goes as soon as every read the provider expects is waiting", () => {
  test(
    "with the engine's window of 4 Reads all waiting, the fetch starts at once, " + "without waiting for quiet",
    async () => {
      const { fetches, fetch } = source();
      const gathering = new Gathering({ expected: () => 4 });
      const list = new FreshList(fetch, gathering);
      const reads = [list.read(), list.read(), list.read()];
      await nextTurn();
      expect(fetches).toHaveLength(0); // 3 of 4: it waits
      reads.push(list.read());
      await nextTurn();
      expect(fetches).toHaveLength(1); // the 4th joined: no quiet to wait for
      fetches[0].resolve(1);
      expect(await Promise.all(reads)).toEqual([1, 1, 1, 1]);
    },
  );

  test("reads waiting on another list of the same client count too", async () => {
    const a = source();
    const b = source();
    const gathering = new Gathering({ expected: () => 2 });
    const first = new FreshList(a.fetch, gathering).read();
    await nextTurn();
    expect(a.fetches).toHaveLength(0);
    const second = new FreshList(b.fetch, gathering).read();
    await nextTurn();
    expect([a.fetches.length, b.fetches.length]).toEqual([1, 1]);
    a.fetches[0].resolve(1);
    b.fetches[0].resolve(2);
    expect([await first, await second]).toEqual([1, 2]);
  });

  test("fewer reads than expected still go once quiet (the last batch of a refresh)", async () => {
    const { fetches, fetch } = source();
    const list = new FreshList(fetch, new Gathering({ expected: () => 64 }));
    const read = list.read();
    await turn();
    expect(fetches).toHaveLength(1);
    fetches[0].resolve(5);
    expect(await read).toBe(5);
  });
});

describe("chooseLookup: k reads by id answered by whichever costs less", () => {
  const prices = (listSize: number | undefined, requestMs = 50, recordMs = 0.03) => ({
    requestMs: () => requestMs,
    recordMs,
    listSize,
  });
  test.each<[string, number, ReturnType<typeof prices>, "byId" | "list"]>([
    ["a lone read, the list not known yet: one GET by id", 1, prices(undefined), "byId"],
    ["several reads, the list not known yet: one list", 2, prices(undefined), "list"],
    ["a lone read of a list of 1,000: one GET by id", 1, prices(1000), "byId"],
    ["8 reads of a list of 1,000: one list (1 request against 8)", 8, prices(1000), "list"],
    ["8 reads of a list of 100,000: 8 GETs by id (a list of 3 s of records)", 8, prices(100_000), "byId"],
    ["under a low rate limit (1 s a request), fewer, larger calls win", 2, prices(20_000, 1000), "list"],
  ])("%s", (_name, k, p, expected) => expect(chooseLookup(k, p)).toBe(expected));
});

describe("FreshLookups: reads by id, each batch by GETs or by the list", () => {
  const records = [{ id: "a" }, { id: "b" }, { id: "c" }];
  test(
    "a lone read is a GET by id; reads that wait together share one list, " + "which prices the next batches",
    async () => {
      const gets: string[] = [];
      let lists = 0;
      const prices = { requestMs: () => 50, recordMs: 0.03 } as {
        requestMs: () => number;
        recordMs: number;
        listSize?: number;
      };
      const lookups = new FreshLookups(
        async (id: string) => {
          gets.push(id);
          return records.find((r) => r.id === id);
        },
        async () => {
          lists++;
          return { length: records.length, withId: (id: string) => records.find((r) => r.id === id) };
        },
        prices,
      );
      expect(await answers(lookups.read("a"))).toEqual({ id: "a" });
      expect([gets, lists]).toEqual([["a"], 0]);
      const batch = Promise.all([lookups.read("b"), lookups.read("c"), lookups.read("gone")]);
      expect(await answers(batch)).toEqual([{ id: "b" }, { id: "c" }, undefined]);
      expect([gets, lists, prices.listSize]).toEqual([["a"], 1, 3]);
    },
  );

  test("a read the answer cannot give fails alone: the other reads of its batch are answered", async () => {
    const prices = { requestMs: () => 50, recordMs: 0.03 } as {
      requestMs: () => number;
      recordMs: number;
      listSize?: number;
    };
    const withId = (id: string) => {
      if (id === "bad") throw new Error("[1].id: expected string, received number");
      return records.find((r) => r.id === id);
    };
    const lookups = new FreshLookups(
      async (id: string) => withId(id),
      async () => ({ length: records.length, withId }),
      prices,
    );
    const listed = await answers(Promise.allSettled([lookups.read("a"), lookups.read("bad"), lookups.read("c")]));
    expect(listed.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      { id: "a" },
      "[1].id: expected string, received number",
      { id: "c" },
    ]);
    prices.listSize = 1_000_000;
    const byId = await answers(Promise.allSettled([lookups.read("bad"), lookups.read("b")]));
    expect(byId.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
  });
});

test("a read made alongside another of the same caller is not counted: 8 callers that each read two lists at once send each list once", async () => {
  const services = source();
  const links = source();
  const gathering = new Gathering({ expected: () => 8 });
  const serviceList = new FreshList(services.fetch, gathering);
  const linkList = new FreshList(links.fetch, gathering);
  // Counted twice, 4 of the 8 callers would seem to be every read the provider expects, and go alone.
  const reads = [];
  for (let i = 0; i < 8; i++) {
    // The uncounted read joins first: the counted one may complete the gathering, which sends at once.
    reads.push(Promise.all([linkList.read(false), serviceList.read()]).then(([l, s]) => [s, l]));
    await nextTurn();
  }
  await turn();
  expect([services.fetches.length, links.fetches.length]).toEqual([1, 1]);
  services.fetches[0].resolve(1);
  links.fetches[0].resolve(2);
  expect(await Promise.all(reads)).toEqual(Array.from({ length: 8 }, () => [1, 2]));
});

describe("the signal of a shared fetch: it ends when every reader has given up", () => {
  const signalled = () => {
    const signals: Array<AbortSignal | undefined> = [];
    const fetch = (signal?: AbortSignal) => {
      signals.push(signal);
      return new Promise<number>(() => undefined); // a GET the API keeps answering 429
    };
    return { signals, fetch };
  };

  test("two readers with signals: the fetch goes on while one of them waits", async () => {
    const { signals, fetch } = signalled();
    const list = new FreshList(fetch);
    const [a, b] = [new AbortController(), new AbortController()];
    void list.read(true, a.signal).catch(() => undefined);
    void list.read(true, b.signal).catch(() => undefined);
    await turn();
    expect(signals).toHaveLength(1);
    a.abort();
    expect(signals[0]?.aborted).toBe(false);
    b.abort();
    expect(signals[0]?.aborted).toBe(true);
  });

  test("a reader with no signal waits as long as it takes: the fetch has no signal", async () => {
    const { signals, fetch } = signalled();
    const list = new FreshList(fetch);
    const a = new AbortController();
    void list.read(true, a.signal).catch(() => undefined);
    void list.read().catch(() => undefined);
    await turn();
    expect(signals).toEqual([undefined]);
  });

  test("whileWanted: one caller's signal given twice ends it when that caller gives up", () => {
    const caller = new AbortController();
    const other = new AbortController();
    const wanted = whileWanted([caller.signal, caller.signal, other.signal]);
    other.abort();
    expect(wanted.signal?.aborted).toBe(false);
    caller.abort();
    expect(wanted.signal?.aborted).toBe(true);
  });

  test("whileWanted: aborted readers at the start end it at once; release drops the listeners", () => {
    expect(whileWanted([AbortSignal.abort()]).signal?.aborted).toBe(true);
    const reader = new AbortController();
    const wanted = whileWanted([reader.signal]);
    wanted.release();
    reader.abort();
    expect(wanted.signal?.aborted).toBe(false);
  });
});
