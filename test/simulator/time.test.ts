// The server's clock as a client sees it: a Date header on every answer, created_at to the
// millisecond, and created_at set into the past out of band (another stack's app, an hour old).
import { request } from "undici";
import { ALICE, type Fault } from "../../simulator/src";
import { IMAGE, createContainer, createVolume, p, useSimulator } from "./helpers";

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR = 3600_000;

describe("Date and created_at", () => {
  const h = useSimulator();

  /** One request as alice; its status, its Date header, and the moments before and after it. */
  async function timed(method: "GET" | "POST" | "DELETE", path: string, body?: unknown) {
    const before = Date.now();
    const res = await request(h.sim.url + path, {
      method,
      headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, date: res.headers.date as string | undefined, text, before, after: Date.now() };
  }

  test.each<[string, Fault | undefined, "GET" | "POST", string, unknown, number]>([
    ["a list", undefined, "GET", p("/containers"), undefined, 200],
    ["a create", undefined, "POST", p("/containers"), { name: "web", image: IMAGE, http_port: 8080 }, 201],
    ["a refusal", undefined, "POST", p("/containers"), { name: "web" }, 400],
    ["a 404", undefined, "GET", "/v1/registries/00000000-0000-4000-8000-000000000000", undefined, 404],
    ["a status fault", { kind: "status", status: 503 }, "GET", "/v1/registries", undefined, 503],
    ["a rate_limit fault", { kind: "rate_limit", retryAfter: "1" }, "GET", "/v1/registries", undefined, 429],
    ["respond_after", { kind: "respond_after", body: "{" }, "GET", "/v1/registries", undefined, 200],
    ["huge_body", { kind: "huge_body", bytes: 100 }, "GET", "/v1/registries", undefined, 200],
    ["redirect", { kind: "redirect" }, "GET", "/v1/registries", undefined, 302],
    ["the admin API", undefined, "GET", "/_sim/switches", undefined, 200],
  ])("%s carries the server's Date", async (_, fault, method, path, body, status) => {
    if (fault) h.sim.control.injectFault(fault);
    const res = await timed(method, path, body);
    expect(res.status).toBe(status);
    expect(res.date).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    const date = Date.parse(res.date!);
    expect(date).toBeGreaterThanOrEqual(Math.floor(res.before / 1000) * 1000 - 1000); // Node caches it per second
    expect(date).toBeLessThanOrEqual(res.after);
  });

  test("the 413 of the body limit carries it too", async () => {
    h.sim.control.setSwitches({ maxRequestBodyBytes: 10 });
    const res = await timed("POST", "/v1/registries", { name: "registry", host: "h" });
    expect(res.status).toBe(413);
    expect(Date.parse(res.date!)).toBeLessThanOrEqual(res.after);
  });

  test("created_at is the server's time at creation, to the millisecond, not before its answer's Date", async () => {
    const res = await timed("POST", p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
    const createdAt = JSON.parse(res.text).created_at as string;
    expect(createdAt).toMatch(ISO_MS);
    const created = Date.parse(createdAt);
    expect(created).toBeGreaterThanOrEqual(res.before);
    expect(created).toBeLessThanOrEqual(res.after);
    expect(created - Date.parse(res.date!)).toBeGreaterThanOrEqual(0);
    expect(created - Date.parse(res.date!)).toBeLessThan(2000);
  });

  test("so do volumes, attachments and databases", async () => {
    const before = Date.now();
    const web = await createContainer(h.alice);
    const volume = await createVolume(h.alice);
    const attachment = (
      await h.alice.post(p(`/volumes/${volume.id}/attach`), { container_id: web.id, mount_path: "/data" })
    ).body;
    const db = (await h.alice.post(p("/postgres"), { name: "db" })).body.service;
    for (const record of [volume, attachment, db]) {
      expect(record.created_at).toMatch(ISO_MS);
      expect(Date.parse(record.created_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(record.created_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  test("control.mutate sets created_at into the past; updated_at moves to now unless also set", async () => {
    const web = await createContainer(h.alice);
    const hourAgo = new Date(Date.now() - HOUR).toISOString();
    const before = Date.now();
    h.sim.control.mutate("services", web.id, { created_at: hourAgo });
    const [listed] = (await h.alice.get(p("/containers"))).body;
    expect(listed.created_at).toBe(hourAgo);
    expect(Date.parse(listed.updated_at)).toBeGreaterThanOrEqual(before);
    h.sim.control.mutate("services", web.id, { created_at: hourAgo, updated_at: hourAgo });
    expect((await h.alice.get(p("/containers"))).body[0]).toMatchObject({ created_at: hourAgo, updated_at: hourAgo });
  });

  test("PATCH /_sim/volumes/{id} does the same over HTTP", async () => {
    const volume = await createVolume(h.alice);
    const dayAgo = new Date(Date.now() - 24 * HOUR).toISOString();
    expect((await h.admin.patch(`/_sim/volumes/${volume.id}`, { created_at: dayAgo })).status).toBe(204);
    expect((await h.alice.get(p(`/volumes/${volume.id}`))).body.created_at).toBe(dayAgo);
  });
});
