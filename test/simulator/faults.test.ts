// Injected faults (docs/CONTRACTS.md Fault), the rate limit, and the request log.
import { ALICE_PROJECT, IMAGE, codeOf, createContainer, p, useSimulator } from "./helpers";

describe("injected faults and the request log", () => {
  const h = useSimulator();
  const createBody = { name: "web", image: IMAGE, http_port: 8080 };
  const services = () => h.sim.control.snapshot().services;

  test.each([
    [500, "INTERNAL_ERROR"],
    [502, "BAD_GATEWAY"],
    [503, "SERVICE_UNAVAILABLE"],
    [504, "GATEWAY_TIMEOUT"],
  ])("status %i answers %s without acting", async (status, code) => {
    h.sim.control.injectFault({ kind: "status", status });
    const res = await h.alice.post(p("/containers"), createBody);
    expect([res.status, codeOf(res)]).toEqual([status, code]);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(services()).toHaveLength(0);
  });

  test("a fault hits `times` matching requests, then the API answers normally", async () => {
    h.sim.control.injectFault({ kind: "status", status: 503, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.alice.get("/v1/registries")).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  test("a fault matches only its method and path", async () => {
    h.sim.control.injectFault({ kind: "status", status: 500, method: "POST", path: "/containers$" });
    expect((await h.alice.get(p("/containers"))).status).toBe(200);
    expect((await h.alice.post("/v1/registries", { name: "r", host: "h" })).status).toBe(201);
    expect((await h.alice.post(p("/containers"), createBody)).status).toBe(500);
    expect((await h.alice.post(p("/containers"), createBody)).status).toBe(201);
  });

  test("faults apply in injection order, one per request", async () => {
    h.sim.control.injectFault({ kind: "status", status: 502 });
    h.sim.control.injectFault({ kind: "status", status: 504 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.alice.get("/v1/registries")).status);
    expect(statuses).toEqual([502, 504, 200]);
  });

  test("faults come before authentication", async () => {
    h.sim.control.injectFault({ kind: "status", status: 503 });
    expect((await h.admin.get("/v1/registries")).status).toBe(503);
    expect((await h.admin.get("/v1/registries")).status).toBe(401);
  });

  test("rate_limit answers 429 RATE_LIMITED with the given Retry-After", async () => {
    h.sim.control.injectFault({ kind: "rate_limit", retryAfter: "7" });
    const res = await h.alice.get("/v1/registries");
    expect([res.status, codeOf(res)]).toEqual([429, "RATE_LIMITED"]);
    expect(res.headers.get("retry-after")).toBe("7");
  });

  test("rate_limit without retryAfter omits the header", async () => {
    h.sim.control.injectFault({ kind: "rate_limit", retryAfter: null });
    const res = await h.alice.get("/v1/registries");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeNull();
  });

  test("rate_limit sends any Retry-After a server might (0, a fraction, negative, a date in the past, text)", async () => {
    for (const retryAfter of ["0", "0.0001", "-5", "Thu, 01 Jan 1970 00:00:00 GMT", "soon"]) {
      h.sim.control.injectFault({ kind: "rate_limit", retryAfter });
      expect((await h.alice.get("/v1/registries")).headers.get("retry-after")).toBe(retryAfter);
    }
    expect(() => h.sim.control.injectFault({ kind: "rate_limit", retryAfter: "1\r\nx: y" })).toThrow(
      "fault.retryAfter: must be the Retry-After header's text (no CR, LF or NUL), or null for none",
    );
    expect(() => h.sim.control.injectFault({ kind: "rate_limit", retryAfter: 0 as unknown as string })).toThrow(
      "fault.retryAfter: must be",
    );
  });

  test("reset_before drops the connection without acting", async () => {
    h.sim.control.injectFault({ kind: "reset_before" });
    await expect(h.alice.post(p("/containers"), createBody)).rejects.toThrow();
    expect(services()).toHaveLength(0);
    expect(h.sim.control.requests().map((entry) => [entry.status, entry.fault])).toEqual([["reset", "reset_before"]]);
  });

  test("reset_after acts, then drops the connection instead of answering", async () => {
    h.sim.control.injectFault({ kind: "reset_after", method: "POST" });
    await expect(h.alice.post(p("/containers"), createBody)).rejects.toThrow();
    expect(services().map((service) => service.name)).toEqual(["web"]);
    expect(h.sim.control.requests()[0]).toMatchObject({
      status: "reset",
      fault: "reset_after",
      method: "POST",
      withheldStatus: 201,
    });
    // the retry a careless client would send now meets the name it created itself
    expect(codeOf(await h.alice.post(p("/containers"), createBody))).toBe("NAME_TAKEN");
  });

  test("latency: the server acts at once and answers later", async () => {
    h.sim.control.injectFault({ kind: "latency", latencyMs: 300, method: "POST" });
    let answered = false;
    const slow = h.alice.post(p("/containers"), createBody).then((res) => {
      answered = true;
      return res;
    });
    const seen = await (async () => {
      for (;;) {
        const list = await h.alice.get(p("/containers"));
        if (list.body.length > 0) return answered;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    expect(seen).toBe(false); // created before the create was answered
    expect((await slow).status).toBe(201);
    // The first GET may reach the server before the POST does (another connection of the pool).
    expect(h.sim.control.requests().find((r) => r.method === "POST")).toMatchObject({ status: 201, fault: "latency" });
  });

  test("clearFaults drops pending faults", async () => {
    h.sim.control.injectFault({ kind: "status", status: 500, times: 5 });
    h.sim.control.clearFaults();
    expect((await h.alice.get("/v1/registries")).status).toBe(200);
  });

  test("the request log records method, path, status and the request id of each API request", async () => {
    const ok = await h.alice.get(p("/containers"));
    const denied = await h.admin.get("/v1/registries");
    await h.admin.get("/_sim/state");
    expect(h.sim.control.requests()).toEqual([
      {
        at: expect.any(Number),
        method: "GET",
        path: `/v1/projects/${ALICE_PROJECT}/containers`,
        status: 200,
        requestId: ok.headers.get("x-request-id"),
      },
      {
        at: expect.any(Number),
        method: "GET",
        path: "/v1/registries",
        status: 401,
        requestId: denied.headers.get("x-request-id"),
      },
    ]);
    h.sim.control.clearRequests();
    expect(h.sim.control.requests()).toEqual([]);
  });

  test("injectFault rejects a bad fault", () => {
    expect(() => h.sim.control.injectFault({ kind: "status", status: 200 })).toThrow(/status/);
    expect(() => h.sim.control.injectFault({ kind: "latency" })).toThrow(/latencyMs/);
    expect(() => h.sim.control.injectFault({ kind: "status", status: 500, path: "(" })).toThrow();
  });
});

describe("rate limit switch", () => {
  const h = useSimulator({ rateLimitPerSecond: 1 });

  test("429 RATE_LIMITED once the bucket is empty; the limit covers unauthenticated requests too", async () => {
    expect((await h.admin.get("/v1/registries")).status).toBe(401);
    const res = await h.alice.get("/v1/registries");
    expect([res.status, codeOf(res)]).toEqual([429, "RATE_LIMITED"]);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("the admin API is never rate limited", async () => {
    for (let i = 0; i < 5; i++) expect((await h.admin.get("/_sim/switches")).status).toBe(200);
  });

  test("turning the limit off lets everything through", async () => {
    h.sim.control.setSwitches({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 5; i++) expect((await h.alice.get("/v1/registries")).status).toBe(200);
  });

  test("containers created before a limited request still exist (429 does not act)", async () => {
    await createContainer(h.alice);
    expect((await h.alice.post(p("/containers"), { name: "other", image: IMAGE, http_port: 8080 })).status).toBe(429);
    expect(h.sim.control.snapshot().services.map((s) => s.name)).toEqual(["web"]);
  });
});

describe("faults of a lagging or careless API (issue 30)", () => {
  const h = useSimulator();

  test("omit_record: one list answer leaves out the record of that id (or the first); the next is whole", async () => {
    const a = await createContainer(h.alice, { name: "a" });
    const b = await createContainer(h.alice, { name: "b" });
    h.sim.control.injectFault({ kind: "omit_record", method: "GET", path: "/containers$", id: b.id });
    expect((await h.alice.get(p("/containers"))).body.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await h.alice.get(p("/containers"))).body.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    await createContainer(h.alice, { name: "c" });
    await h.alice.post(p("/service-links"), { consumer_service_id: a.id, provider_service_id: b.id });
    h.sim.control.injectFault({ kind: "omit_record", method: "GET", path: "/service-links$" });
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [] });
  });

  test("duplicate_record: one list answer holds the record of that id (or the first) twice, the copy last", async () => {
    const a = await createContainer(h.alice, { name: "a" });
    const b = await createContainer(h.alice, { name: "b" });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/containers$", id: a.id });
    expect((await h.alice.get(p("/containers"))).body.map((s: { id: string }) => s.id)).toEqual([a.id, b.id, a.id]);
    expect((await h.alice.get(p("/containers"))).body.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    await h.alice.post(p("/service-links"), { consumer_service_id: a.id, provider_service_id: b.id });
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/service-links$" });
    const { links } = (await h.alice.get(p("/service-links"))).body;
    expect(links).toHaveLength(2);
    expect(links[1]).toEqual(links[0]);
    h.sim.control.injectFault({ kind: "duplicate_record", method: "GET", path: "/containers$", id: b.id, copies: 3 });
    expect((await h.alice.get(p("/containers"))).body.map((s: { id: string }) => s.id)).toEqual([
      a.id,
      b.id,
      b.id,
      b.id,
      b.id,
    ]);
    expect(() => h.sim.control.injectFault({ kind: "duplicate_record", copies: 0 })).toThrow(
      "fault.copies: must be an integer from 1 to 1000000",
    );
  });

  test("ignored: a DELETE answered 204 that leaves the record", async () => {
    const a = await createContainer(h.alice);
    h.sim.control.injectFault({ kind: "ignored", method: "DELETE" });
    expect((await h.alice.call("DELETE", p(`/containers/${a.id}`))).status).toBe(204);
    expect(h.sim.control.snapshot().services.map((s) => s.id)).toEqual([a.id]);
  });

  test(
    "respond_after with a 204 and a body sends both, " + "as a broken server does (fetch reads the 204 and no body)",
    async () => {
      const a = await createContainer(h.alice);
      h.sim.control.injectFault({ kind: "respond_after", method: "DELETE", status: 204, body: "oops" });
      const res = await h.alice.call("DELETE", p(`/containers/${a.id}`)).catch((err: Error) => err);
      expect(res instanceof Error || (res as { status: number }).status === 204).toBe(true);
      expect(h.sim.control.snapshot().services).toEqual([]);
    },
  );

  test("echo_env: a 400 VALIDATION_FAILED quoting every env variable of the request, name and value, without acting", async () => {
    const a = await createContainer(h.alice);
    h.sim.control.injectFault({ kind: "echo_env", method: "PATCH" });
    const res = await h.alice.patch(p(`/containers/${a.id}`), { env: { LEDGER_KEY: "v1", "": "empty" } });
    expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
    expect(res.body.message).toBe('env: the platform refuses the variables "LEDGER_KEY" = "v1", "" = "empty"');
    expect(h.sim.control.snapshot().services.find((s) => s.id === a.id)?.env).toEqual({});
    h.sim.control.injectFault({ kind: "echo_env" });
    const none = await h.alice.post("/v1/registries", { name: "r", host: "h" });
    expect(none.body.message).toBe("env: the platform refuses this request's variables (it sent none)");
  });

  test("bad fields are refused, naming them", () => {
    expect(() => h.sim.control.injectFault({ kind: "ignored", status: 500 })).toThrow(
      /fault.status: must be the 2xx status/,
    );
  });
});

describe("normalizesUnicode", () => {
  const h = useSimulator({ normalizesUnicode: true });

  test("a container's env and display_name are stored in NFC, whatever was sent; off, as sent", async () => {
    const a = await createContainer(h.alice, { env: { GREETING: "cafe\u0301" }, display_name: "Cafe\u0301" });
    expect(a).toMatchObject({ env: { GREETING: "caf\u00e9" }, display_name: "Caf\u00e9" });
    h.sim.control.setSwitches({ normalizesUnicode: false });
    const b = await createContainer(h.alice, { name: "b", env: { GREETING: "cafe\u0301" } });
    expect(b.env).toEqual({ GREETING: "cafe\u0301" });
  });
});
