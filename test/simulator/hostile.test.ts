// The faults and limits that make the simulator a hostile world for the provider's edge tests:
// answers unreadable after acting, huge bodies, redirects, and real 413 and 431 limits. Over
// real HTTP, with undici (the provider's HTTP client), so that what it sees is what a client sees.
import { Agent, request } from "undici";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { ALICE_PROJECT, IMAGE, p, useSimulator } from "./helpers";

const agent = new Agent();
afterAll(() => agent.close());
const call = (sim: Simulator, method: string, path: string, body?: unknown, token = ALICE.token) =>
  request(sim.url + path, {
    dispatcher: agent,
    method: method as "GET",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

describe("faults that answer differently from what the server did", () => {
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
    const res = await call(h.sim, "POST", p("/containers"), createBody);
    expect(res.statusCode).toBe(status);
    expect(await res.body.text()).toBe(body);
    expect(h.sim.control.snapshot().services.map((s) => s.name)).toEqual(["web"]);
    expect(h.sim.control.requests().at(-1)).toMatchObject({ method: "POST", status, fault: "respond_after" });
  });

  test("redirect does not act, and says where it points", async () => {
    h.sim.control.injectFault({ kind: "redirect", status: 307, path: "/containers$" });
    const res = await call(h.sim, "POST", p("/containers"), createBody);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(`https://elsewhere.example.com${p("/containers")}`);
    await res.body.text();
    expect(h.sim.control.snapshot().services).toEqual([]);
  });

  test.each([true, false])("huge_body streams 200 MB (Content-Length said: %s) without building it in memory", async (withLength) => {
    h.sim.control.injectFault({ kind: "huge_body", bytes: 200 * 1024 * 1024, withLength, path: "/containers$" });
    const before = process.memoryUsage().rss;
    const res = await call(h.sim, "GET", p("/containers"));
    expect(res.headers["content-length"]).toBe(withLength ? String(200 * 1024 * 1024) : undefined);
    let received = 0;
    for await (const chunk of res.body) received += (chunk as Buffer).length;
    expect(received).toBe(200 * 1024 * 1024);
    // The simulator runs in this process: streamed, its memory stays far below the body's size.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);

  test("the fault checks say what is wrong", () => {
    expect(() => h.sim.control.injectFault({ kind: "huge_body" })).toThrow(/fault\.bytes: for huge_body, a whole number of bytes/);
    expect(() => h.sim.control.injectFault({ kind: "redirect", status: 200 })).toThrow(/fault\.status: for redirect, one of 301, 302/);
  });
});

describe("limits", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, maxHeaderBytes: 8 * 1024 });
  });
  afterAll(() => sim.close());

  test("a body over maxRequestBodyBytes is answered 413 PAYLOAD_TOO_LARGE, readable by the client, and nothing is made", async () => {
    const body = JSON.stringify({ name: "web", image: IMAGE, http_port: 8080, env: { BIG: "x".repeat(5 * 1024 * 1024) } });
    const res = await call(sim, "POST", p("/containers"), body);
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(sim.control.snapshot().services).toEqual([]);
    sim.control.setSwitches({ maxRequestBodyBytes: 100 });
    expect((await call(sim, "POST", "/v1/registries", { name: "ghcr", host: "ghcr.io", username: "a".repeat(200) })).statusCode).toBe(413);
    sim.control.setSwitches({ maxRequestBodyBytes: 1024 * 1024 });
  });

  test("headers over maxHeaderBytes (a huge token) are answered 431, readable by the client", async () => {
    const res = await call(sim, "GET", p("/containers"), undefined, "t".repeat(64 * 1024));
    expect(res.statusCode).toBe(431);
    await res.body.text();
    expect((await call(sim, "GET", p("/containers"))).statusCode).toBe(200);
  });

  test("answers carry the server's Date, and records its time to the millisecond", async () => {
    const res = await call(sim, "POST", p("/containers"), { name: "dated", image: IMAGE, http_port: 8080 });
    expect(res.headers.date).toBeDefined();
    const created = (await res.body.json()) as { created_at: string };
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(created.created_at) - Date.parse(res.headers.date as string))).toBeLessThan(2_000);
    sim.control.mutate("services", (created as unknown as { id: string }).id, { created_at: "2020-01-01T00:00:00.000Z" });
    expect(sim.control.snapshot().services.find((s) => s.name === "dated")?.created_at).toBe("2020-01-01T00:00:00.000Z");
  });
});

export { ALICE_PROJECT };
