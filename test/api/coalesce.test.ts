import { ReadCoalescer } from "../../provider/src/api/coalesce";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("ReadCoalescer", () => {
  test("concurrent reads of a key share one fetch", async () => {
    const c = new ReadCoalescer({ ttlMs: 2000 });
    let fetches = 0;
    const d = deferred<{ n: number }>();
    const reads = Array.from({ length: 50 }, () => c.read("p", "k", () => (fetches++, d.promise)));
    d.resolve({ n: 1 });
    const results = await Promise.all(reads);
    expect(fetches).toBe(1);
    expect(results.every((r) => r.n === 1)).toBe(true);
    // each caller has its own copy
    results[0].n = 99;
    expect(results[1].n).toBe(1);
  });

  test("a settled result is reused within the TTL, refetched after it", async () => {
    let t = 0;
    const c = new ReadCoalescer({ ttlMs: 2000, now: () => t });
    let fetches = 0;
    const f = () => Promise.resolve(++fetches);
    expect(await c.read("p", "k", f)).toBe(1);
    t = 1999;
    expect(await c.read("p", "k", f)).toBe(1);
    t = 2000;
    expect(await c.read("p", "k", f)).toBe(2);
  });

  test("read-after-write: a read that begins after a write completed never sees pre-write data", async () => {
    const c = new ReadCoalescer({ ttlMs: 60_000 });
    let version = 1;
    const slow = deferred<number>();
    let calls = 0;
    const fetch = () => {
      calls++;
      return calls === 1 ? slow.promise : Promise.resolve(version);
    };

    // A read starts before the write and is still in flight (it will return v1).
    const before = c.read("p", "k", fetch);
    // The write runs and completes.
    await c.write("p", async () => {
      version = 2;
    });
    // A read that begins now must not join the stale in-flight read.
    const after = c.read("p", "k", fetch);
    slow.resolve(1);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    // ... nor be served the stale result from the cache later.
    expect(await c.read("p", "k", fetch)).toBe(2);
  });

  test("a read during a write does not serve reads after the write", async () => {
    const c = new ReadCoalescer({ ttlMs: 60_000 });
    let version = 1;
    const gate = deferred<void>();
    const writing = c.write("p", async () => {
      await gate.promise;
      version = 2;
    });
    const during = await c.read("p", "k", () => Promise.resolve(version)); // may see either; here v1
    expect(during).toBe(1);
    gate.resolve();
    await writing;
    expect(await c.read("p", "k", () => Promise.resolve(version))).toBe(2);
  });

  test("a failed write still invalidates (it may have acted)", async () => {
    const c = new ReadCoalescer({ ttlMs: 60_000 });
    await c.read("p", "k", () => Promise.resolve(1));
    const g = c.generation("p");
    await expect(c.write("p", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(c.generation("p")).toBe(g + 2);
    expect(await c.read("p", "k", () => Promise.resolve(2))).toBe(2);
  });

  test("scopes are independent", async () => {
    const c = new ReadCoalescer({ ttlMs: 60_000 });
    await c.read("p1", "k", () => Promise.resolve("a"));
    await c.write("p2", async () => undefined);
    expect(await c.read("p1", "k", () => Promise.resolve("b"))).toBe("a");
  });

  test("failures are not cached", async () => {
    const c = new ReadCoalescer({ ttlMs: 60_000 });
    await expect(c.read("p", "k", () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await c.read("p", "k", () => Promise.resolve(5))).toBe(5);
  });

  test("ttl 0 shares in-flight reads only; fresh always fetches", async () => {
    const c = new ReadCoalescer({ ttlMs: 2000 });
    let n = 0;
    const f = () => Promise.resolve(++n);
    const [a, b] = await Promise.all([c.read("p", "v", f, { ttlMs: 0 }), c.read("p", "v", f, { ttlMs: 0 })]);
    expect([a, b]).toEqual([1, 1]);
    expect(await c.read("p", "v", f, { ttlMs: 0 })).toBe(2);
    expect(await c.read("p", "v", f, { fresh: true })).toBe(3);
  });

  describe("reads of one item need only the writes that may have touched it", () => {
    const list = (n: number) => () => Promise.resolve(n);

    test("a write to another item does not stale a fetch for this item, but does for the whole list", async () => {
      const c = new ReadCoalescer({ ttlMs: 60_000 });
      expect(await c.read("p", "list", list(1), { item: "a" })).toBe(1);
      await c.write("p", async () => "b", "b");
      expect(await c.read("p", "list", list(2), { item: "a" })).toBe(1); // shared: b cannot affect a
      expect(await c.read("p", "list", list(3))).toBe(3); // the whole list must show b
    });

    test("a write to this item stales every fetch that started before it completed", async () => {
      const c = new ReadCoalescer({ ttlMs: 60_000 });
      expect(await c.read("p", "list", list(1), { item: "a" })).toBe(1);
      await c.write("p", async () => ({ id: "a" }), (r) => r.id);
      expect(await c.read("p", "list", list(2), { item: "a" })).toBe(2);
    });

    test("a write with no known item, or one that failed, counts for every item", async () => {
      const c = new ReadCoalescer({ ttlMs: 60_000 });
      expect(await c.read("p", "list", list(1), { item: "a" })).toBe(1);
      await c.write("p", async () => undefined);
      expect(await c.read("p", "list", list(2), { item: "a" })).toBe(2);
      await expect(c.write("p", () => Promise.reject(new Error("lost")), "b")).rejects.toThrow("lost");
      expect(await c.read("p", "list", list(3), { item: "a" })).toBe(3);
    });

    test("a fetch that started during this item's write is not used after the write", async () => {
      const c = new ReadCoalescer({ ttlMs: 60_000 });
      const writing = deferred<string>();
      const write = c.write("p", () => writing.promise, (id) => id);
      const during = c.read("p", "list", list(1), { item: "a" });
      writing.resolve("a");
      await write;
      expect(await during).toBe(1);
      expect(await c.read("p", "list", list(2), { item: "a" })).toBe(2);
    });
  });
});
