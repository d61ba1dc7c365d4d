// Every endpoint of document section 4 through HostingClient against the simulator over
// real HTTP: one success and one failure each.
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  ResponseValidationError,
  isApiError,
} from "../../provider/src/api/errors";
import { ALICE_PROJECT, IMAGE, IMAGE2, useApiSimulator } from "./helpers";

const P = ALICE_PROJECT;

describe("containers (4.1)", () => {
  const h = useApiSimulator();

  test("list: success, and a project that is not ours reads as 404", async () => {
    const c = h.alice();
    expect(await c.containers.list(P)).toEqual([]);
    await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const list = await c.containers.list(P);
    expect(list.map((s) => s.name)).toEqual(["web"]);
    await expect(c.containers.list("00000000-0000-4000-8000-000000000b0b")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("create: returns the service record; a mutable tag is BAD_IMAGE; a taken name is 409", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080, env: { A: "1" }, replicas: 2 });
    expect(s).toMatchObject({ name: "web", image: IMAGE, port: 8080, replicas: 2, env: { A: "1" }, type: "container", projectId: P });
    expect(typeof s.id).toBe("string");
    expect(s.connection).toBeUndefined(); // null on the wire
    expect(s.marketplaceApp).toBeUndefined();

    const bad = await c.containers.create(P, { name: "web2", image: "registry.sim.hosting.test/acme/web:latest", httpPort: 8080 }).catch((e) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.code).toBe("BAD_IMAGE");
    expect(bad.message).toMatch(/^BAD_IMAGE: .* \(HTTP 400, request [\w-]+\)$/);

    const taken = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 }).catch((e) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
  });

  test("get: finds by id in the list; unknown id is undefined", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    expect((await c.containers.get(P, s.id))?.name).toBe("web");
    expect(await c.containers.get(P, "00000000-0000-4000-8000-00000000dead")).toBeUndefined();
  });

  test("update (PATCH): success; unknown id is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const u = await c.containers.update(P, s.id, { image: IMAGE2, env: { B: "2" }, public: false, displayName: "Web" });
    expect(u).toMatchObject({ image: IMAGE2, env: { B: "2" }, public: false, displayName: "Web" });
    await expect(c.containers.update(P, "00000000-0000-4000-8000-00000000dead", { replicas: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });

  test("update refused by autoscaling is AUTOSCALING_OWNS_REPLICAS", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    h.sim.control.setAutoscaling(s.id, true);
    const e = await c.containers.update(P, s.id, { replicas: 3 }).catch((x) => x);
    expect(isApiError(e, "AUTOSCALING_OWNS_REPLICAS")).toBe(true);
  });

  test("delete: success; again is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    await expect(c.containers.delete(P, s.id)).resolves.toBeUndefined();
    expect(await c.containers.list(P)).toEqual([]);
    await expect(c.containers.delete(P, s.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("logs: text; unknown id is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const logs = await c.containers.logs(P, s.id);
    expect(typeof logs).toBe("string");
    expect(logs).toContain("created");
    await expect(c.containers.logs(P, "00000000-0000-4000-8000-00000000dead")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("restart, stop, start: status follows; on a database they are LIFECYCLE_UNSUPPORTED", async () => {
    const c = h.alice();
    const s = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    await c.containers.stop(P, s.id);
    expect((await c.containers.get(P, s.id))?.status).toBe("stopped");
    await c.containers.start(P, s.id);
    expect((await c.containers.get(P, s.id))?.status).toBe("running");
    await c.containers.restart(P, s.id);
    expect((await c.containers.get(P, s.id))?.status).toBe("running");

    const db = await c.databases.create("redis", P, { name: "cache" });
    for (const verb of ["restart", "stop", "start"] as const) {
      const e = await c.containers[verb](P, db.service.id).catch((x) => x);
      expect(e).toBeInstanceOf(ConflictError);
      expect(e.code).toBe("LIFECYCLE_UNSUPPORTED");
    }
  });

  test("a record of the wrong shape is a ResponseValidationError naming the field path", async () => {
    const c = h.alice();
    await c.containers.create(P, { name: "a", image: IMAGE, httpPort: 8080 });
    const b = await c.containers.create(P, { name: "b", image: IMAGE, httpPort: 8080 });
    h.sim.control.mutate("services", b.id, { replicas: "two" });
    const e = await c.containers.list(P).catch((x) => x);
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.message).toContain(`GET /v1/projects/${P}/containers: [1].replicas: expected number, received string`);
  });
});

describe("managed databases (4.2)", () => {
  const h = useApiSimulator();

  test.each(["postgres", "mysql", "redis"] as const)("%s: create returns {service, connection}", async (kind) => {
    const c = h.alice();
    const r = await c.databases.create(kind, P, { name: `db-${kind}`, resources: { cpuMilli: 500, memoryMb: 512, storageGb: 5 } });
    expect(r.service).toMatchObject({ name: `db-${kind}`, type: kind, cpuMilli: 500, memoryMb: 512, storageGb: 5 });
    expect(r.connection).toMatchObject({ envVar: expect.any(String), port: expect.any(String), requiresAuth: "true" });
    // it is listed with the containers, carrying its connection
    expect((await c.containers.get(P, r.service.id))?.connection?.host).toBe(r.connection.host);
  });

  test("billing gates are typed: 402 INSUFFICIENT_BALANCE, 403 ACCOUNT_SUSPENDED", async () => {
    const c = h.alice();
    h.sim.control.setSwitches({ billing: "insufficient_balance" });
    const e = await c.databases.create("postgres", P, { name: "db" }).catch((x) => x);
    expect(e).toBeInstanceOf(PaymentRequiredError);
    expect(e.code).toBe("INSUFFICIENT_BALANCE");
    h.sim.control.setSwitches({ billing: "suspended" });
    const f = await c.databases.create("postgres", P, { name: "db" }).catch((x) => x);
    expect(f).toBeInstanceOf(ForbiddenError);
    expect(f.code).toBe("ACCOUNT_SUSPENDED");
  });

  test("delete goes through DELETE /containers/{id}", async () => {
    const c = h.alice();
    const r = await c.databases.create("mysql", P, { name: "db" });
    await c.containers.delete(P, r.service.id);
    expect(await c.containers.list(P)).toEqual([]);
  });
});

describe("service links (4.3)", () => {
  const h = useApiSimulator();

  test("create and list; unknown consumer is 404; duplicate is 409", async () => {
    const c = h.alice();
    const web = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const db = await c.databases.create("postgres", P, { name: "db" });
    const link = await c.serviceLinks.create(P, { consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" });
    expect(link).toMatchObject({ consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" });
    expect(Object.keys(link.injectedEnv)).toContain(db.connection.envVar);
    expect((await c.serviceLinks.list(P)).map((l) => l.id)).toEqual([link.id]);

    await expect(
      c.serviceLinks.create(P, { consumerServiceId: "00000000-0000-4000-8000-00000000dead", providerServiceId: db.service.id, linkType: "http" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      c.serviceLinks.create(P, { consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("registries (4.4)", () => {
  const h = useApiSimulator();

  test("create, list, get, replace, delete; failures are typed", async () => {
    const c = h.alice();
    const r = await c.registries.create({ name: "ghcr", host: "ghcr.io", username: "me", password: "s3cret" });
    expect(r).toEqual({ id: expect.any(String), name: "ghcr", host: "ghcr.io", username: "me" });
    expect(await c.registries.list()).toEqual([r]);
    expect(await c.registries.get(r.id)).toEqual(r);
    const replaced = await c.registries.replace(r.id, { name: "ghcr", host: "ghcr.io", username: "you", password: "n3w" });
    expect(replaced.username).toBe("you");
    await expect(c.registries.create({ name: "ghcr", host: "other.io" })).rejects.toBeInstanceOf(ConflictError);
    await c.registries.delete(r.id);
    await expect(c.registries.get(r.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.registries.replace(r.id, { name: "x", host: "y" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.registries.delete(r.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("volumes (4.5)", () => {
  const h = useApiSimulator({ volumeProvisioningMs: 50 });

  test("create, poll to running, list, get, grow, attach, detach, delete", async () => {
    const c = h.alice();
    const v = await c.volumes.create(P, { name: "data", sizeGb: 10 });
    expect(v).toMatchObject({ name: "data", sizeGb: 10, status: "provisioning", attachment: null });
    let got = await c.volumes.get(P, v.id);
    for (let i = 0; i < 50 && got.status !== "running"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      got = await c.volumes.get(P, v.id);
    }
    expect(got.status).toBe("running");
    expect((await c.volumes.list(P)).map((x) => [x.name, x.attached])).toEqual([["data", false]]);

    expect((await c.volumes.resize(P, v.id, 20)).sizeGb).toBe(20);

    const web = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const a = await c.volumes.attach(P, v.id, { containerId: web.id, mountPath: "/data", readOnly: false });
    expect(a).toMatchObject({ volumeId: v.id, containerId: web.id, mountPath: "/data", readOnly: false });
    expect((await c.volumes.get(P, v.id)).attachment).toEqual({ containerId: web.id, mountPath: "/data", readOnly: false });
    expect((await c.volumes.list(P))[0].attached).toBe(true);

    const attachedDelete = await c.volumes.delete(P, v.id).catch((x) => x);
    expect(attachedDelete).toBeInstanceOf(ConflictError);
    expect(attachedDelete.code).toBe("VOLUME_ATTACHED");

    await c.volumes.detach(P, v.id, web.id);
    expect((await c.volumes.get(P, v.id)).attachment).toBeNull();
    await c.volumes.delete(P, v.id);
    await expect(c.volumes.get(P, v.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("create disabled as in production is 403 BLOCK_VOLUME_DISABLED", async () => {
    h.sim.control.setSwitches({ volumesEnabled: false });
    const e = await h.alice().volumes.create(P, { name: "data", sizeGb: 10 }).catch((x) => x);
    expect(e).toBeInstanceOf(ForbiddenError);
    expect(e.code).toBe("BLOCK_VOLUME_DISABLED");
  });

  test("shrink is 400 SHRINK_NOT_SUPPORTED; attach to a 2-replica target is RWO_REPLICA_LIMIT; detach unknown is 404", async () => {
    const c = h.alice();
    const v = await c.volumes.create(P, { name: "data", sizeGb: 10 });
    const shrink = await c.volumes.resize(P, v.id, 5).catch((x) => x);
    expect(shrink).toBeInstanceOf(BadRequestError);
    expect(shrink.code).toBe("SHRINK_NOT_SUPPORTED");
    const web = await c.containers.create(P, { name: "web", image: IMAGE, httpPort: 8080, replicas: 2 });
    const rwo = await c.volumes.attach(P, v.id, { containerId: web.id, mountPath: "/data" }).catch((x) => x);
    expect(isApiError(rwo, "RWO_REPLICA_LIMIT")).toBe(true);
    await expect(c.volumes.detach(P, "00000000-0000-4000-8000-00000000dead", web.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.volumes.delete(P, "00000000-0000-4000-8000-00000000dead")).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.volumes.list("00000000-0000-4000-8000-000000000b0b")).rejects.toBeInstanceOf(NotFoundError);
  });
});
