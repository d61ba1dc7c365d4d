// The faults that make the simulator a hostile world for the provider's edge tests: answers
// unreadable after acting, huge bodies, redirects (the 413 and 431 limits: limits.test.ts; Date and
// created_at: time.test.ts). Over real HTTP, with undici (the provider's HTTP client), so that
// what it sees is what a client sees.
import { Agent, request } from "undici";
import { ALICE, type Simulator } from "../../simulator/src";
import { IMAGE, createContainer, p, useSimulator } from "./helpers";

const auth = { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" };
const agent = new Agent();
afterAll(() => agent.close());
const call = (sim: Simulator, method: string, path: string, body?: unknown, token = ALICE.token) =>
  request(sim.url + path, {
    dispatcher: agent,
    method: method as "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

/** One request as alice, its answer taken as it came (the helpers' client would parse it). */
async function answer(sim: Simulator, method: string, path: string, body?: unknown) {
  const res = await call(sim, method, path, body);
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe("respond_after: the API acts, the client gets the chosen answer", () => {
  const h = useSimulator();
  const createBody = { name: "web", image: IMAGE, http_port: 8080 };

  test.each([
    ["{not json", 200],
    ["{}", 201],
    ['{"id": 5}', 201],
    ["", 200],
    ['{"code":"INTERNAL_ERROR","message":"it broke after writing"}', 500],
  ])("respond_after acts, then answers %j with %i", async (body, status) => {
    h.sim.control.injectFault({ kind: "respond_after", method: "POST", path: "/containers$", status, body });
    const res = await answer(h.sim, "POST", p("/containers"), createBody);
    expect([res.status, res.text]).toEqual([status, body]);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(h.sim.control.snapshot().services.map((s) => s.name)).toEqual(["web"]);
    expect(h.sim.control.requests().at(-1)).toEqual({
      at: expect.any(Number),
      method: "POST",
      path: p("/containers"),
      status,
      requestId: res.headers["x-request-id"],
      fault: "respond_after",
      withheldStatus: 201,
    });
  });

  test("respond_after's status defaults to 200", async () => {
    h.sim.control.injectFault({ kind: "respond_after", body: "{}" });
    expect(await answer(h.sim, "GET", "/v1/registries")).toMatchObject({ status: 200, text: "{}" });
  });

  test("respond_after on a PATCH: the container changes; the client reads a 500", async () => {
    const web = await createContainer(h.alice);
    const body = JSON.stringify({ code: "INTERNAL_ERROR", message: "upstream timed out" });
    h.sim.control.injectFault({ kind: "respond_after", method: "PATCH", status: 500, body });
    const res = await answer(h.sim, "PATCH", p(`/containers/${web.id}`), { replicas: 3 });
    expect([res.status, JSON.parse(res.text)]).toEqual([
      500,
      { code: "INTERNAL_ERROR", message: "upstream timed out" },
    ]);
    expect(h.sim.control.snapshot().services[0].replicas).toBe(3);
    expect(h.sim.control.requests().at(-1)).toMatchObject({ status: 500, fault: "respond_after", withheldStatus: 200 });
  });

  test("respond_after on a DELETE: the container is gone; the client reads 503 with an empty body", async () => {
    const web = await createContainer(h.alice);
    h.sim.control.injectFault({ kind: "respond_after", method: "DELETE", status: 503 });
    const res = await answer(h.sim, "DELETE", p(`/containers/${web.id}`));
    expect([res.status, res.text]).toEqual([503, ""]);
    expect(h.sim.control.snapshot().services).toEqual([]);
    expect(h.sim.control.requests().at(-1)).toMatchObject({ status: 503, withheldStatus: 204 });
  });

  test("the API's own refusal is withheld too: the log says what it was", async () => {
    await createContainer(h.alice);
    h.sim.control.injectFault({
      kind: "respond_after",
      method: "POST",
      body: '{"id": "00000000-0000-4000-8000-000000000001"}',
    });
    expect((await answer(h.sim, "POST", p("/containers"), createBody)).status).toBe(200);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
    expect(h.sim.control.requests().at(-1)).toMatchObject({ status: 200, withheldStatus: 409 });
  });

  test(
    "respond_after's headers are sent, by any case, and may replace content-type, " + "Date and x-request-id",
    async () => {
      h.sim.control.injectFault({
        kind: "respond_after",
        body: "<html>bad gateway</html>",
        status: 502,
        headers: {
          "Content-Type": "text/html",
          Date: "Mon, 01 Jan 2024 00:00:00 GMT",
          "X-Request-Id": "fixed",
          "x-extra": "1",
        },
      });
      const res = await answer(h.sim, "GET", "/v1/registries");
      expect([res.status, res.text]).toEqual([502, "<html>bad gateway</html>"]);
      expect(res.headers).toMatchObject({
        "content-type": "text/html",
        date: "Mon, 01 Jan 2024 00:00:00 GMT",
        "x-request-id": "fixed",
        "x-extra": "1",
      });
    },
  );

  test("respond_after hits `times` matching requests, by method and path, then the API answers", async () => {
    await h.admin.post("/_sim/faults", {
      kind: "respond_after",
      method: "GET",
      path: "/registries$",
      body: "[",
      times: 2,
    });
    expect((await h.admin.get("/_sim/faults")).body).toEqual([
      { kind: "respond_after", method: "GET", path: "/registries$", body: "[", times: 2 },
    ]);
    expect((await h.alice.get(p("/containers"))).text).toBe("[]");
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await answer(h.sim, "GET", "/v1/registries")).text);
    expect(texts).toEqual(["[", "[", "[]"]);
  });

  test.each([
    [{ status: 100 }, "fault.status: must be the HTTP status to send (200-599; default 200)"],
    [{ status: "200" }, "fault.status: must be the HTTP status to send (200-599; default 200)"],
    [{ body: { id: 5 } }, "fault.body: must be a string, sent as is"],
    [{ headers: ["x: 1"] }, "fault.headers: must be an object of header names to string values"],
    [{ headers: { "x-n": 1 } }, 'fault.headers["x-n"]: must be a string'],
    [{ headers: { "bad name": "v" } }, 'fault.headers["bad name"]: not a valid HTTP header'],
    [{ headers: { "x-split": "a\r\nset-cookie: b" } }, 'fault.headers["x-split"]: not a valid HTTP header'],
  ])("POST /_sim/faults refuses respond_after with %j, saying why", async (fields, message) => {
    const res = await h.admin.post("/_sim/faults", { kind: "respond_after", ...fields });
    expect([res.status, res.body.code]).toEqual([400, "BAD_REQUEST"]);
    expect(res.body.message).toContain(message);
    expect(() => h.sim.control.injectFault({ kind: "respond_after", ...(fields as object) })).toThrow(message);
    expect(h.sim.control.faults()).toEqual([]);
  });
});

describe("huge_body: more JSON than a client should read, without acting", () => {
  const h = useSimulator();
  const MiB = 1024 * 1024;

  /** Read a body to its end, keeping its size and its first and last bytes only. */
  async function measure(body: AsyncIterable<Buffer>): Promise<{ size: number; head: string; tail: string }> {
    let size = 0;
    let head = "";
    let tail = "";
    for await (const chunk of body) {
      if (head.length < 4096) head += chunk.toString("latin1", 0, 4096);
      tail = (tail + chunk.toString("latin1", Math.max(0, chunk.length - 64))).slice(-64);
      size += chunk.length;
    }
    return { size, head, tail };
  }

  test("256 MiB with its Content-Length: an array of service records that never closes", async () => {
    const web = await createContainer(h.alice);
    h.sim.control.injectFault({ kind: "huge_body", bytes: 256 * MiB, method: "GET" });
    const res = await call(h.sim, "GET", p("/containers"));
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ "content-length": String(256 * MiB), "content-type": "application/json" });
    expect(res.headers["x-request-id"]).toBeTruthy();
    const { size, head, tail } = await measure(res.body);
    expect(size).toBe(256 * MiB);
    expect(head.startsWith('[{"id":"')).toBe(true);
    const first = JSON.parse(head.slice(1, head.indexOf("},{") + 1));
    expect(Object.keys(first).sort()).toEqual(Object.keys(web).sort());
    expect(tail.trimEnd().endsWith("]")).toBe(false);
    expect(h.sim.control.requests().at(-1)).toEqual({
      at: expect.any(Number),
      method: "GET",
      path: p("/containers"),
      status: 200,
      requestId: res.headers["x-request-id"],
      fault: "huge_body",
    });
  });

  test("withLength: false sends it chunked, with no length to refuse it by", async () => {
    h.sim.control.injectFault({ kind: "huge_body", bytes: 3 * MiB + 7, withLength: false });
    const res = await call(h.sim, "GET", "/v1/registries");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect((await measure(res.body)).size).toBe(3 * MiB + 7);
  });

  test("a client may refuse it on its Content-Length and go; the simulator carries on", async () => {
    h.sim.control.injectFault({ kind: "huge_body", bytes: 1024 * MiB });
    const res = await call(h.sim, "GET", "/v1/registries");
    expect(Number(res.headers["content-length"])).toBe(1024 * MiB);
    res.body.destroy();
    expect((await h.alice.get("/v1/registries")).status).toBe(200);
  });

  test("it does not act: a create meets it and nothing is created", async () => {
    h.sim.control.injectFault({ kind: "huge_body", bytes: 10, method: "POST" });
    const res = await answer(h.sim, "POST", p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
    expect([res.status, res.text]).toEqual([200, '[{"id":"00']);
    expect(h.sim.control.snapshot().services).toEqual([]);
  });

  test.each([
    [0, ""],
    [1, "["],
  ])("%i bytes is %j, with that status", async (bytes, text) => {
    h.sim.control.injectFault({ kind: "huge_body", bytes, status: 503 });
    const res = await answer(h.sim, "GET", "/v1/registries");
    expect([res.status, res.text, res.headers["content-length"]]).toEqual([503, text, String(bytes)]);
    expect(h.sim.control.requests()[0]).toMatchObject({ status: 503, fault: "huge_body" });
  });

  test.each([
    [{}, "fault.bytes: must be an integer >= 0, the size of the body"],
    [{ bytes: -1 }, "fault.bytes: must be an integer >= 0"],
    [{ bytes: 1.5 }, "fault.bytes: must be an integer >= 0"],
    [{ bytes: "10" }, "fault.bytes: must be an integer >= 0"],
    [
      { bytes: 10, withLength: "no" },
      "fault.withLength: must be a boolean (false: no Content-Length, the body goes chunked; default true)",
    ],
    [{ bytes: 10, status: 99 }, "fault.status: must be the HTTP status to send (200-599; default 200)"],
  ])("POST /_sim/faults refuses huge_body with %j, saying why", async (fields, message) => {
    const res = await h.admin.post("/_sim/faults", { kind: "huge_body", ...fields });
    expect([res.status, res.body.code]).toEqual([400, "BAD_REQUEST"]);
    expect(res.body.message).toContain(message);
    expect(h.sim.control.faults()).toEqual([]);
  });
});

describe("redirect: sent elsewhere, without acting", () => {
  const h = useSimulator();
  const createBody = { name: "web", image: IMAGE, http_port: 8080 };

  test("by default a 302 to the same path and query on another host, with no body", async () => {
    h.sim.control.injectFault({ kind: "redirect" });
    const res = await answer(h.sim, "POST", p("/containers?limit=5"), createBody);
    expect([res.status, res.headers.location, res.text]).toEqual([
      302,
      `https://elsewhere.example.com${p("/containers?limit=5")}`,
      "",
    ]);
    expect(res.headers["x-request-id"]).toBeTruthy();
    expect(h.sim.control.snapshot().services).toEqual([]);
    expect(h.sim.control.requests()).toEqual([
      {
        at: expect.any(Number),
        method: "POST",
        path: p("/containers"),
        status: 302,
        requestId: res.headers["x-request-id"],
        fault: "redirect",
      },
    ]);
  });

  test.each([301, 303, 307, 308])("status %i, to the location given", async (status) => {
    await h.admin.post("/_sim/faults", { kind: "redirect", status, location: "/v2/registries" });
    const res = await fetch(`${h.sim.url}/v1/registries`, { redirect: "manual", headers: auth });
    expect([res.status, res.headers.get("location")]).toEqual([status, "/v2/registries"]);
  });

  test("a client that follows a 307 back to the simulator sends the create again, and it happens once", async () => {
    h.sim.control.injectFault({
      kind: "redirect",
      status: 307,
      method: "POST",
      location: h.sim.url + p("/containers"),
    });
    const res = await fetch(h.sim.url + p("/containers"), {
      method: "POST",
      headers: auth,
      body: JSON.stringify(createBody),
    });
    expect([res.status, res.redirected]).toEqual([201, true]);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
    expect(h.sim.control.requests().map((entry) => [entry.status, entry.fault])).toEqual([
      [307, "redirect"],
      [201, undefined],
    ]);
  });

  test.each([
    [{ status: 200 }, "fault.status: must be a redirect status, one of 301, 302, 303, 307, 308 (default 302)"],
    [{ status: 304 }, "fault.status: must be a redirect status"],
    [
      { location: "" },
      "fault.location: must be a URL or a path for the Location header (default: the same path on https://elsewhere.example.com)",
    ],
    [{ location: 5 }, "fault.location: must be a URL or a path"],
    [{ location: "/a\r\nset-cookie: x" }, "fault.location: must be a URL or a path"],
  ])("POST /_sim/faults refuses redirect with %j, saying why", async (fields, message) => {
    const res = await h.admin.post("/_sim/faults", { kind: "redirect", ...fields });
    expect([res.status, res.body.code]).toEqual([400, "BAD_REQUEST"]);
    expect(res.body.message).toContain(message);
    expect(h.sim.control.faults()).toEqual([]);
  });
});
