// Document section 5 (authentication) and section 7 (errors), row by row, plus the gate order
// of container create and the two error body shapes.
import { startSimulator } from "../../simulator/src";
import { ALICE_PROJECT, BOB_PROJECT, Client, IMAGE, codeOf, createContainer, p, useSimulator } from "./helpers";

describe("§5 authentication and §7 errors", () => {
  const h = useSimulator();

  describe("§7 401 UNAUTHORIZED", () => {
    test("§5.3 missing bearer credential", async () => {
      const res = await h.admin.get(p("/containers"));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
    });

    test("§5.3 unknown token", async () => {
      const res = await new Client(h.sim.url, "not-a-token").get("/v1/registries");
      expect(res.status).toBe(401);
      expect(codeOf(res)).toBe("UNAUTHORIZED");
    });

    test("§5.1 a credential not sent as Bearer is rejected", async () => {
      const res = await h.admin.call("GET", "/v1/registries", undefined, { authorization: "Basic sim-token-alice" });
      expect(res.status).toBe(401);
    });

    test("401 comes before routing: an unknown path without a token is 401, not 404", async () => {
      expect((await h.admin.get("/v1/nothing-here")).status).toBe(401);
    });
  });

  describe("§7 402 and 403 billing gates on create", () => {
    test("§7 402 INSUFFICIENT_BALANCE on container create", async () => {
      h.sim.control.setSwitches({ billing: "insufficient_balance" });
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
      expect(res.status).toBe(402);
      expect(codeOf(res)).toBe("INSUFFICIENT_BALANCE");
      expect(h.sim.control.snapshot().services).toHaveLength(0);
    });

    test("§7 402 ACCOUNT_NOT_INITIALIZED on container create", async () => {
      h.sim.control.setSwitches({ billing: "not_initialized" });
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
      expect(res.status).toBe(402);
      expect(codeOf(res)).toBe("ACCOUNT_NOT_INITIALIZED");
    });

    test("§7 403 ACCOUNT_SUSPENDED on container create", async () => {
      h.sim.control.setSwitches({ billing: "suspended" });
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe("ACCOUNT_SUSPENDED");
    });

    test.each(["postgres", "mysql", "redis"])("§7 402 INSUFFICIENT_BALANCE on %s create", async (kind) => {
      h.sim.control.setSwitches({ billing: "insufficient_balance" });
      const res = await h.alice.post(p(`/${kind}`), { name: "db" });
      expect(res.status).toBe(402);
      expect(codeOf(res)).toBe("INSUFFICIENT_BALANCE");
    });

    test("billing does not gate reads, updates or deletes of what exists", async () => {
      const web = await createContainer(h.alice);
      h.sim.control.setSwitches({ billing: "suspended" });
      expect((await h.alice.get(p("/containers"))).status).toBe(200);
      expect((await h.alice.patch(p(`/containers/${web.id}`), { env: { A: "1" } })).status).toBe(200);
      expect((await h.alice.delete(p(`/containers/${web.id}`))).status).toBe(204);
    });
  });

  describe("§7 403 FORBIDDEN", () => {
    test("a read-only user may read but not write", async () => {
      const sim = await startSimulator({
        users: [{ token: "viewer", userId: "viewer", projects: [ALICE_PROJECT], readOnly: true }],
      });
      try {
        const viewer = new Client(sim.url, "viewer");
        expect((await viewer.get(p("/containers"))).status).toBe(200);
        expect((await viewer.get("/v1/registries")).status).toBe(200);
        for (const [method, path] of [
          ["POST", p("/containers")],
          ["POST", p("/volumes")],
          ["POST", "/v1/registries"],
          ["PUT", "/v1/registries/x"],
          ["DELETE", p("/containers/x")],
          ["PATCH", p("/volumes/x")],
        ]) {
          const res = await viewer.call(method, path, {});
          expect([method, path, res.status, codeOf(res)]).toEqual([method, path, 403, "FORBIDDEN"]);
        }
      } finally {
        await sim.close();
      }
    });
  });

  describe("§7 404 NOT_FOUND", () => {
    const missing = "11111111-1111-4111-8111-111111111111";

    test.each([
      ["PATCH", `/containers/${missing}`, {}],
      ["DELETE", `/containers/${missing}`, undefined],
      ["GET", `/containers/${missing}/logs`, undefined],
      ["POST", `/containers/${missing}/restart`, undefined],
      ["POST", `/containers/${missing}/stop`, undefined],
      ["POST", `/containers/${missing}/start`, undefined],
    ])("%s %s on a missing container", async (method, rest, body) => {
      const res = await h.alice.call(method, p(rest), body);
      expect(res.status).toBe(404);
      expect(codeOf(res)).toBe("NOT_FOUND");
    });

    test("a project the caller does not own reads as 404 on every project-scoped path", async () => {
      for (const rest of ["/containers", "/volumes", "/service-links"]) {
        const res = await h.alice.get(p(rest, BOB_PROJECT));
        expect([rest, res.status, codeOf(res)]).toEqual([rest, 404, "NOT_FOUND"]);
      }
      const res = await h.alice.post(p("/containers", BOB_PROJECT), { name: "web", image: IMAGE, http_port: 8080 });
      expect(res.status).toBe(404);
    });

    test("a project nobody owns reads as 404", async () => {
      expect((await h.alice.get(p("/containers", missing))).status).toBe(404);
    });
  });

  describe("§7 409 a name is already taken (code NAME_TAKEN)", () => {
    test("container name taken in the project", async () => {
      await createContainer(h.alice);
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
      expect(res.status).toBe(409);
      expect(codeOf(res)).toBe("NAME_TAKEN");
    });

    test("containers and managed databases share one name space", async () => {
      await createContainer(h.alice, { name: "shared" });
      const res = await h.alice.post(p("/postgres"), { name: "shared" });
      expect(res.status).toBe(409);
      expect(codeOf(res)).toBe("NAME_TAKEN");
    });

    test("the same name in another user's project is free", async () => {
      await createContainer(h.alice);
      await expect(createContainer(h.bob, {}, BOB_PROJECT)).resolves.toMatchObject({ name: "web" });
    });

    test("registry name taken for the same user, free for another", async () => {
      expect((await h.alice.post("/v1/registries", { name: "ghcr", host: "ghcr.io" })).status).toBe(201);
      const res = await h.alice.post("/v1/registries", { name: "ghcr", host: "ghcr.io" });
      expect([res.status, codeOf(res)]).toEqual([409, "NAME_TAKEN"]);
      expect((await h.bob.post("/v1/registries", { name: "ghcr", host: "ghcr.io" })).status).toBe(201);
    });
  });

  describe("§7 409 AUTOSCALING_OWNS_REPLICAS", () => {
    test("PATCH replicas on a container with autoscaling on", async () => {
      const web = await createContainer(h.alice);
      h.sim.control.setAutoscaling(web.id, true);
      const res = await h.alice.patch(p(`/containers/${web.id}`), { replicas: 3 });
      expect(res.status).toBe(409);
      expect(codeOf(res)).toBe("AUTOSCALING_OWNS_REPLICAS");
    });

    test("other fields still update while autoscaling is on", async () => {
      const web = await createContainer(h.alice);
      h.sim.control.setAutoscaling(web.id, true);
      const res = await h.alice.patch(p(`/containers/${web.id}`), { env: { MODE: "prod" } });
      expect(res.status).toBe(200);
      expect(res.body.env).toEqual({ MODE: "prod" });
    });
  });

  describe("§7 409 LIFECYCLE_UNSUPPORTED", () => {
    test.each([
      ["PATCH", "", { replicas: 2 }],
      ["POST", "/restart", undefined],
      ["POST", "/stop", undefined],
      ["POST", "/start", undefined],
    ])("%s container%s on a managed database", async (method, suffix, body) => {
      const db = (await h.alice.post(p("/postgres"), { name: "db" })).body.service;
      const res = await h.alice.call(method, p(`/containers/${db.id}${suffix}`), body);
      expect(res.status).toBe(409);
      expect(codeOf(res)).toBe("LIFECYCLE_UNSUPPORTED");
    });
  });

  describe("§7 429 RATE_LIMITED", () => {
    test("beyond the rate limit, with Retry-After in whole seconds", async () => {
      h.sim.control.setSwitches({ rateLimitPerSecond: 2 });
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<Client["get"]>> | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await h.alice.get("/v1/registries");
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(limited).toBeDefined();
      expect(codeOf(limited!)).toBe("RATE_LIMITED");
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(limited!.headers.get("retry-after")))).toBe(true);
    });
  });

  describe("§7 400 BAD_IMAGE (rejected at deploy time)", () => {
    test.each([
      ["no tag", "registry.sim.hosting.test/acme/web"],
      ["the mutable tag latest", "registry.sim.hosting.test/acme/web:latest"],
      ["a digest without a tag", `registry.sim.hosting.test/acme/web@sha256:${"a".repeat(64)}`],
      ["a registry port but no tag", "localhost:5000/acme/web"],
    ])("container create with %s", async (_what, image) => {
      const res = await h.alice.post(p("/containers"), { name: "web", image, http_port: 8080 });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe("BAD_IMAGE");
    });

    test.each([
      ["a unique tag", "registry.sim.hosting.test/acme/web:2024-06-01.3"],
      ["a tag and a digest", `registry.sim.hosting.test/acme/web:1.0@sha256:${"b".repeat(64)}`],
      ["a registry port and a tag", "localhost:5000/acme/web:1.2.3"],
    ])("container create accepts %s", async (_what, image) => {
      expect((await h.alice.post(p("/containers"), { name: "web", image, http_port: 8080 })).status).toBe(201);
    });

    test("container PATCH to :latest is BAD_IMAGE and changes nothing", async () => {
      const web = await createContainer(h.alice);
      const res = await h.alice.patch(p(`/containers/${web.id}`), {
        image: "registry.sim.hosting.test/acme/web:latest",
      });
      expect([res.status, codeOf(res)]).toEqual([400, "BAD_IMAGE"]);
      expect(h.sim.control.snapshot().services[0].image).toBe(IMAGE);
    });
  });

  describe("§7.3 other 400s: VALIDATION_FAILED naming the field", () => {
    test.each([
      [{ image: IMAGE, http_port: 8080 }, "name"],
      [{ name: "Web_App", image: IMAGE, http_port: 8080 }, "name"],
      [{ name: "web", http_port: 8080 }, "image"],
      [{ name: "web", image: IMAGE }, "http_port"],
      [{ name: "web", image: IMAGE, http_port: 0 }, "http_port"],
      [{ name: "web", image: IMAGE, http_port: "8080" }, "http_port"],
      [{ name: "web", image: IMAGE, http_port: 8080, env: { A: 1 } }, "env.A"],
      [{ name: "web", image: IMAGE, http_port: 8080, env: { ["K".repeat(254)]: "1" } }, "env: the variable name"],
      [{ name: "web", image: IMAGE, http_port: 8080, httpPort: 8080 }, "httpPort"],
    ])("container create %j names %s", async (body, field) => {
      const res = await h.alice.post(p("/containers"), body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.message).toContain(field);
    });

    test("an env variable name of 253 bytes is taken, one of 254 is not (a Kubernetes ConfigMap or Secret key's limit)", async () => {
      const created = await h.alice.post(p("/containers"), {
        name: "web",
        image: IMAGE,
        http_port: 8080,
        env: { ["K".repeat(253)]: "1" },
      });
      expect(created.status).toBe(201);
      const res = await h.alice.patch(p(`/containers/${created.body.id}`), { env: { ["K".repeat(254)]: "1" } });
      expect([res.status, res.body.code]).toEqual([400, "VALIDATION_FAILED"]);
    });

    test("a body that is not JSON", async () => {
      const res = await h.alice.post(p("/containers"), "{not json");
      expect([res.status, res.body.code]).toEqual([400, "VALIDATION_FAILED"]);
    });
  });

  describe("gate order on container create: validation, billing, name taken, BAD_IMAGE", () => {
    test("validation comes before billing", async () => {
      h.sim.control.setSwitches({ billing: "insufficient_balance" });
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE });
      expect(res.status).toBe(400);
    });

    test("billing comes before name taken", async () => {
      await createContainer(h.alice);
      h.sim.control.setSwitches({ billing: "not_initialized" });
      const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
      expect(codeOf(res)).toBe("ACCOUNT_NOT_INITIALIZED");
    });

    test("name taken comes before BAD_IMAGE", async () => {
      await createContainer(h.alice);
      const res = await h.alice.post(p("/containers"), { name: "web", image: "acme/web:latest", http_port: 8080 });
      expect(codeOf(res)).toBe("NAME_TAKEN");
    });
  });

  describe("§7 error body shapes and the request id", () => {
    test('errorShape "code": {code, message} and an x-request-id header', async () => {
      const res = await h.alice.get(p("/containers", BOB_PROJECT));
      expect(res.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });

    test('errorShape "error": {error, request_id} matching the x-request-id header', async () => {
      h.sim.control.setSwitches({ errorShape: "error" });
      const res = await h.alice.get(p("/containers", BOB_PROJECT));
      expect(res.body).toEqual({ error: "NOT_FOUND", request_id: res.headers.get("x-request-id") });
    });

    test("every response carries a distinct x-request-id, successes too", async () => {
      const a = await h.alice.get("/v1/registries");
      const b = await h.alice.get("/v1/registries");
      expect(a.headers.get("x-request-id")).toBeTruthy();
      expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    });
  });
});
