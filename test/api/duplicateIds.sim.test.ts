// A list answer that holds two records with one id (the simulator's duplicate_record fault): the
// reads that want that id fail naming it, and neither record is picked, for a Read, a lookup by id
// or a write's lookup; reads of other ids in the same answer are answered.
import { ResponseValidationError } from "../../provider/src/api/errors";
import { services } from "../../provider/src/resources/services";
import { volumes } from "../../provider/src/resources/volume";
import { ALICE_PROJECT as P, IMAGE, useApiSimulator } from "./helpers";

const twice = (id: string) => new RegExp(`\\.id: "${id}" is also the id of .*: the answer holds 2 records with one id`);

describe("two records with one id in a list answer", () => {
  const h = useApiSimulator();

  test("a Read of that id fails naming it; a Read of another id in the same answer is answered", async () => {
    const c = h.alice();
    const a = await c.of(services).create(P, { name: "a", image: IMAGE, httpPort: 8080 });
    const b = await c.of(services).create(P, { name: "b", image: IMAGE, httpPort: 8080 });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/containers$", id: a.id });
    const [readA, readB] = await Promise.allSettled([c.of(services).find(P, a.id), c.of(services).find(P, b.id)]);
    expect(h.seen("GET", /\/containers$/)).toBe(3); // two lists before the creates, one shared by both Reads
    expect(readA.status === "rejected" && readA.reason).toBeInstanceOf(ResponseValidationError);
    expect(readA.status === "rejected" && readA.reason.message).toMatch(twice(a.id));
    expect(readB).toMatchObject({ status: "fulfilled", value: { id: b.id, name: "b" } });
  });

  test("lookups by id answered by one list: the duplicated id fails, the other is answered", async () => {
    const c = h.alice();
    const v = await c.of(volumes).create(P, { name: "v", sizeGb: 1 });
    const w = await c.of(volumes).create(P, { name: "w", sizeGb: 1 });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/volumes$", id: w.id });
    const mark = h.sim.control.requests().length;
    const [readV, readW] = await Promise.allSettled([c.of(volumes).find(P, v.id), c.of(volumes).find(P, w.id)]);
    expect(
      h.sim.control
        .requests()
        .slice(mark)
        .map((r) => `${r.method} ${r.path.replace(P, "p")}`),
    ).toEqual(["GET /v1/projects/p/volumes"]);
    expect(readV).toMatchObject({ status: "fulfilled", value: { id: v.id } });
    expect(readW.status === "rejected" && readW.reason.message).toMatch(twice(w.id));
  });

  test("a wait's list (listed) checks only the record it asks for: another id's fault leaves it answered", async () => {
    const c = h.alice();
    const a = await c.of(services).create(P, { name: "a", image: IMAGE, httpPort: 8080 });
    const b = await c.of(services).create(P, { name: "b", image: IMAGE, httpPort: 8080 });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/containers$", id: a.id });
    const answer = await c.of(services).listed(P);
    expect(answer.withId(b.id)).toMatchObject({ id: b.id, name: "b" });
    expect(() => answer.withId(a.id)).toThrow(twice(a.id));
    await expect(c.of(services).listed("00000000-0000-4000-8000-000000000b0b")).rejects.toThrow(/project/);
  });

  test("a create's lookup (what was there before it) fails naming the id, and nothing is sent", async () => {
    const c = h.alice();
    const a = await c.of(services).create(P, { name: "a", image: IMAGE, httpPort: 8080 });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/containers$" });
    const e = await c
      .of(services)
      .create(P, { name: "b", image: IMAGE, httpPort: 8080 })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.message).toMatch(twice(a.id));
    expect(h.seen("POST", /\/containers$/)).toBe(1); // a's
    expect(h.sim.control.snapshot().services.map((s) => s.name)).toEqual(["a"]);
  });
});
