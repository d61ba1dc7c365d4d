// A create whose outcome is unknown looks the resource up; when that lookup itself fails for a
// passing reason it looks again, rather than leave what the create made unrecorded. (Found by
// the fault-injection soak: a POST timing out, then its lookup meeting a 500.)
import { ALICE_PROJECT as P, IMAGE, useApiSimulator } from "./helpers";
import { services } from "../../provider/src/resources/services";

// A request's time limit no loaded machine reaches on a plain request, and a POST whose answer comes ten times later.
const REQUEST_TIMEOUT_MS = 3_000;
const POST_LATENCY_MS = 30_000;

describe("the lookup after an unknown outcome", () => {
  const h = useApiSimulator();
  /** The list every create reads first (what was there before it), which the faults below must let through. */
  const listBeforeTheCreate = () =>
    h.sim.control.injectFault({ kind: "latency", method: "GET", path: "/containers$", latencyMs: 0 });

  test("a first lookup that fails on 500s through all its retries: it looks again and finds the container, with no second POST", async () => {
    const c = h.alice({ requestTimeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 2 });
    h.sim.control.injectFault({ kind: "latency", method: "POST", path: "/containers$", latencyMs: POST_LATENCY_MS });
    listBeforeTheCreate();
    h.sim.control.injectFault({ kind: "status", status: 500, method: "GET", path: "/containers$", times: 3 });
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    expect(s.name).toBe("web");
    expect(h.seen("POST", /\/containers$/)).toBe(1);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
    expect(h.lines.some((l) => l.includes("lookup after unknown outcome failed") && l.includes("looking again"))).toBe(
      true,
    );
  });

  test("a lookup refused for good (401) is not repeated: the original failure stands", async () => {
    const c = h.alice({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
    h.sim.control.injectFault({ kind: "latency", method: "POST", path: "/containers$", latencyMs: POST_LATENCY_MS });
    listBeforeTheCreate();
    h.sim.control.injectFault({ kind: "status", status: 401, method: "GET", path: "/containers$" });
    await expect(c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 })).rejects.toMatchObject({
      code: "ETIMEDOUT",
    });
    expect(h.seen("GET", /\/containers$/)).toBe(2);
  });
});
