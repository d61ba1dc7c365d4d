// Limits of the HTTP front (docs/CONTRACTS.md): the request body limit (switch maxRequestBodyBytes)
// and the request header limit (option maxHeaderBytes).
// Clients are undici's, as the provider's, so "the client reads the 413" means what it says.
import { Readable } from "node:stream";
import { request } from "undici";
import { ALICE, startSimulator } from "../../simulator/src";
import { IMAGE, codeOf, p, useSimulator } from "./helpers";

const MiB = 1024 * 1024;
const auth = { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" };

/** A container create whose JSON body is exactly `bytes` long (padded with an env value). */
function createBodyOf(bytes: number): string {
  const bare = JSON.stringify({ name: "web", image: IMAGE, http_port: 8080, env: { PAD: "" } });
  return JSON.stringify({ name: "web", image: IMAGE, http_port: 8080, env: { PAD: "x".repeat(bytes - bare.length) } });
}

describe("request body limit (maxRequestBodyBytes)", () => {
  const h = useSimulator();
  const url = (path: string) => h.sim.url + path;
  const services = () => h.sim.control.snapshot().services;

  test("the default is 1 MiB", () => {
    expect(h.sim.control.switches().maxRequestBodyBytes).toBe(MiB);
  });

  test("a body of exactly the limit is served; one byte more is 413 PAYLOAD_TOO_LARGE and does not act", async () => {
    const fits = createBodyOf(300);
    h.sim.control.setSwitches({ maxRequestBodyBytes: 300 });
    const over = await h.alice.call("POST", p("/containers"), createBodyOf(301));
    expect([over.status, codeOf(over)]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect(over.body.message).toBe("the request body is larger than 300 bytes");
    expect(over.headers.get("connection")).toBe("close");
    expect(over.headers.get("x-request-id")).toBeTruthy();
    expect(services()).toEqual([]);
    expect((await h.alice.call("POST", p("/containers"), fits)).status).toBe(201);
    expect(h.sim.control.requests().map((entry) => entry.status)).toEqual([413, 201]);
    expect(h.sim.control.requests()[0]).toEqual({
      at: expect.any(Number),
      method: "POST",
      path: p("/containers"),
      status: 413,
      requestId: over.headers.get("x-request-id"),
    });
  });

  test("the 413 takes the errorShape switch", async () => {
    h.sim.control.setSwitches({ maxRequestBodyBytes: 10, errorShape: "error" });
    const res = await h.alice.call("POST", "/v1/registries", JSON.stringify({ name: "r", host: "h" }));
    expect(res.body).toEqual({ error: "PAYLOAD_TOO_LARGE", request_id: res.headers.get("x-request-id") });
  });

  test.each([
    ["with a Content-Length", () => Buffer.alloc(8 * MiB, "x")],
    ["chunked (no Content-Length)", () => Readable.from([Buffer.alloc(4 * MiB, "x"), Buffer.alloc(4 * MiB, "x")])],
  ])("undici reads the 413 for an 8 MiB body %s, not a reset", async (_, body) => {
    const res = await request(url(p("/containers")), { method: "POST", headers: auth, body: body() });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe("close");
    expect(await res.body.json()).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: `the request body is larger than ${MiB} bytes`,
    });
    expect(services()).toEqual([]);
  });

  test("fetch reads the 413 too", async () => {
    const res = await fetch(url(p("/containers")), { method: "POST", headers: auth, body: Buffer.alloc(8 * MiB, "x") });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  test("the 413 comes as soon as the limit is passed, not when the body ends (this one never does)", async () => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const body = new Readable({
      read() {
        sent += chunk.length;
        setImmediate(() => this.push(chunk));
      },
    });
    const res = await request(url(p("/containers")), { method: "POST", headers: auth, body });
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(sent).toBeLessThan(64 * MiB);
    body.destroy();
  });

  test("a refused request never reaches the faults: it consumes none", async () => {
    h.sim.control.setSwitches({ maxRequestBodyBytes: 10 });
    h.sim.control.injectFault({ kind: "status", status: 503 });
    expect((await h.alice.call("POST", "/v1/registries", JSON.stringify({ name: "r", host: "h" }))).status).toBe(413);
    expect(h.sim.control.faults()).toHaveLength(1);
    expect((await h.alice.get("/v1/registries")).status).toBe(503);
  });

  test("nor the rate limit: it takes no token", async () => {
    h.sim.control.setSwitches({ maxRequestBodyBytes: 10, rateLimitPerSecond: 1 });
    expect((await h.alice.call("POST", "/v1/registries", JSON.stringify({ name: "r", host: "h" }))).status).toBe(413);
    expect((await h.alice.get("/v1/registries")).status).toBe(200);
    expect((await h.alice.get("/v1/registries")).status).toBe(429);
  });

  test("POST /_sim/switches changes the limit at run time and rejects a bad one, naming it", async () => {
    expect((await h.admin.post("/_sim/switches", { maxRequestBodyBytes: 64 })).body.maxRequestBodyBytes).toBe(64);
    expect(
      (await h.alice.call("POST", "/v1/registries", JSON.stringify({ name: "r".repeat(64), host: "h" }))).status,
    ).toBe(413);
    for (const bad of [0, 1.5, "1MB", -1]) {
      const res = await h.admin.post("/_sim/switches", { maxRequestBodyBytes: bad });
      expect([res.status, res.body.message]).toEqual([
        400,
        "switches.maxRequestBodyBytes: must be an integer >= 1 (bytes)",
      ]);
    }
    await h.admin.post("/_sim/reset");
    expect(h.sim.control.switches().maxRequestBodyBytes).toBe(MiB);
  });

  test("the admin API has its own limit (16 MiB), not the switch", async () => {
    h.sim.control.setSwitches({ maxRequestBodyBytes: 10 });
    expect((await h.admin.post("/_sim/faults", { kind: "status", status: 500 })).status).toBe(204);
    const res = await request(url("/_sim/faults"), { method: "POST", body: Buffer.alloc(17 * MiB, " ") });
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: `admin request body is larger than ${16 * MiB} bytes`,
    });
    expect(h.sim.control.requests()).toEqual([]);
  });
});

describe("request header limit (option maxHeaderBytes)", () => {
  const token = (bytes: number) => `Bearer ${"t".repeat(bytes)}`;

  describe("default: 16 KiB, as Node's", () => {
    const h = useSimulator();

    test.each([
      ["GET", undefined],
      ["POST", JSON.stringify({ name: "r", host: "h" })],
    ])("a %s with a 64 KiB bearer token gets a 431 that undici reads as a response", async (method, body) => {
      const res = await request(`${h.sim.url}/v1/registries`, {
        method: method as "GET" | "POST",
        headers: { authorization: token(64 * 1024), "content-type": "application/json" },
        body,
      });
      expect(res.statusCode).toBe(431);
      expect(res.headers.connection).toBe("close");
      expect(await res.body.text()).toBe("");
      expect(h.sim.control.requests()).toEqual([]); // Node's HTTP layer answered; the API never saw it
    });

    test("fetch reads it too", async () => {
      const res = await fetch(`${h.sim.url}/v1/registries`, { headers: { authorization: token(64 * 1024) } });
      expect(res.status).toBe(431);
    });

    test("a 15 KiB token is read (and refused as unknown: 401)", async () => {
      const res = await request(`${h.sim.url}/v1/registries`, { headers: { authorization: token(15 * 1024) } });
      expect(res.statusCode).toBe(401);
      await res.body.dump();
    });
  });

  describe("raised to 128 KiB", () => {
    const h = useSimulator({ maxHeaderBytes: 128 * 1024 });

    test("a 64 KiB token reaches the API (401: unknown token); a 200 KiB one gets 431", async () => {
      const read = await request(`${h.sim.url}/v1/registries`, { headers: { authorization: token(64 * 1024) } });
      expect(read.statusCode).toBe(401);
      await read.body.dump();
      const refused = await request(`${h.sim.url}/v1/registries`, { headers: { authorization: token(200 * 1024) } });
      expect(refused.statusCode).toBe(431);
      await refused.body.dump();
    });
  });

  test("a bad maxHeaderBytes is refused at start, naming it", async () => {
    await expect(startSimulator({ maxHeaderBytes: 0 })).rejects.toThrow(
      "maxHeaderBytes: must be an integer >= 1 (bytes)",
    );
  });
});
