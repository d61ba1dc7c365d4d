// Every endpoint of document section 4 through HostingClient against the simulator over
// real HTTP: one success and one failure each.
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ProjectNotVisibleError,
  PaymentRequiredError,
  ResponseValidationError,
  isApiError,
} from "../../provider/src/api/errors";
import { ALICE_PROJECT, IMAGE, IMAGE2, useApiSimulator, serviceById } from "./helpers";
import { services } from "../../provider/src/resources/services";
import { databaseCreation } from "../../provider/src/resources/database";
import { serviceLinks } from "../../provider/src/resources/links";
import { registries } from "../../provider/src/resources/registry";
import { volumes } from "../../provider/src/resources/volume";
import { AttachmentRecord } from "../../provider/src/resources/volumeAttachment";

const P = ALICE_PROJECT;

describe("containers (4.1)", () => {
  const h = useApiSimulator();

  test("list: success, and a project that is not ours reads as 404", async () => {
    const c = h.alice();
    expect(await c.of(services).list(P)).toEqual([]);
    await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const list = await c.of(services).list(P);
    expect(list.map((s) => s.name)).toEqual(["web"]);
    await expect(c.of(services).list("00000000-0000-4000-8000-000000000b0b")).rejects.toBeInstanceOf(
      ProjectNotVisibleError,
    );
  });

  test("create: returns the service record; a mutable tag is BAD_IMAGE; a taken name is 409", async () => {
    const c = h.alice();
    const s = await c
      .of(services)
      .create(P, { name: "web", image: IMAGE, httpPort: 8080, env: { A: "1" }, replicas: 2 });
    expect(s).toMatchObject({
      name: "web",
      image: IMAGE,
      port: 8080,
      replicas: 2,
      env: { A: "1" },
      type: "container",
      projectId: P,
    });
    expect(typeof s.id).toBe("string");
    expect(s.connection).toBeUndefined(); // null on the wire
    expect(s.marketplaceApp).toBeUndefined();

    const bad = await c
      .of(services)
      .create(P, { name: "web2", image: "registry.sim.hosting.test/acme/web:latest", httpPort: 8080 })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.code).toBe("BAD_IMAGE");
    expect(bad.message).toMatch(/^BAD_IMAGE: .* \(HTTP 400, request [\w-]+\)$/);

    const taken = await c
      .of(services)
      .create(P, { name: "web", image: IMAGE, httpPort: 8080 })
      .catch((e) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
  });

  test("get: finds by id in the list; unknown id is undefined", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    expect((await serviceById(c, P, s.id))?.name).toBe("web");
    expect(await serviceById(c, P, "00000000-0000-4000-8000-00000000dead")).toBeUndefined();
  });

  test("update (PATCH): success; unknown id is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const u = await c
      .of(services)
      .update(P, s.id, { image: IMAGE2, env: { B: "2" }, public: false, displayName: "Web" });
    expect(u).toMatchObject({ image: IMAGE2, env: { B: "2" }, public: false, displayName: "Web" });
    await expect(
      c.of(services).update(P, "00000000-0000-4000-8000-00000000dead", { replicas: 1 }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  test("update refused by autoscaling is AUTOSCALING_OWNS_REPLICAS", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    h.sim.control.setAutoscaling(s.id, true);
    const e = await c
      .of(services)
      .update(P, s.id, { replicas: 3 })
      .catch((x) => x);
    expect(isApiError(e, "AUTOSCALING_OWNS_REPLICAS")).toBe(true);
  });

  test("delete: success; again is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    await expect(c.of(services).delete(P, s.id)).resolves.toBeUndefined();
    expect(await c.of(services).list(P)).toEqual([]);
    await expect(c.of(services).delete(P, s.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("logs: text; unknown id is NotFoundError", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const logs = await c.of(services).text(P, s.id, "logs");
    expect(typeof logs).toBe("string");
    expect(logs).toContain("created");
    await expect(c.of(services).text(P, "00000000-0000-4000-8000-00000000dead", "logs")).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  test("restart, stop, start: status follows; on a database they are LIFECYCLE_UNSUPPORTED", async () => {
    const c = h.alice();
    const s = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    await c.of(services).act(P, s.id, "stop");
    expect((await serviceById(c, P, s.id))?.status).toBe("stopped");
    await c.of(services).act(P, s.id, "start");
    expect((await serviceById(c, P, s.id))?.status).toBe("running");
    await c.of(services).act(P, s.id, "restart");
    expect((await serviceById(c, P, s.id))?.status).toBe("running");

    const db = await c.of(databaseCreation("redis")).create(P, { name: "cache" });
    for (const verb of ["restart", "stop", "start"] as const) {
      const e = await c
        .of(services)
        .act(P, db.service.id, verb)
        .catch((x) => x);
      expect(e).toBeInstanceOf(ConflictError);
      expect(e.code).toBe("LIFECYCLE_UNSUPPORTED");
    }
  });

  test("a record of the wrong shape is a ResponseValidationError naming the field path", async () => {
    const c = h.alice();
    await c.of(services).create(P, { name: "a", image: IMAGE, httpPort: 8080 });
    const b = await c.of(services).create(P, { name: "b", image: IMAGE, httpPort: 8080 });
    h.sim.control.mutate("services", b.id, { replicas: "two" });
    const e = await c
      .of(services)
      .list(P)
      .catch((x) => x);
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.message).toContain(`GET /v1/projects/${P}/containers: [1].replicas: expected number, received string`);
  });
});

describe("managed databases (4.2)", () => {
  const h = useApiSimulator();

  test.each(["postgres", "mysql", "redis"] as const)("%s: create returns {service, connection}", async (kind) => {
    const c = h.alice();
    const r = await c
      .of(databaseCreation(kind))
      .create(P, { name: `db-${kind}`, resources: { cpu_milli: 500, memory_mb: 512, storage_gb: 5 } });
    expect(r.service).toMatchObject({ name: `db-${kind}`, type: kind, cpuMilli: 500, memoryMb: 512, storageGb: 5 });
    expect(r.connection).toMatchObject({ envVar: expect.any(String), port: expect.any(String), requiresAuth: "true" });
    // it is listed with the containers, carrying its connection
    expect((await serviceById(c, P, r.service.id))?.connection?.host).toBe(r.connection.host);
  });

  test("billing gates are typed: 402 INSUFFICIENT_BALANCE, 403 ACCOUNT_SUSPENDED", async () => {
    const c = h.alice();
    h.sim.control.setSwitches({ billing: "insufficient_balance" });
    const e = await c
      .of(databaseCreation("postgres"))
      .create(P, { name: "db" })
      .catch((x) => x);
    expect(e).toBeInstanceOf(PaymentRequiredError);
    expect(e.code).toBe("INSUFFICIENT_BALANCE");
    h.sim.control.setSwitches({ billing: "suspended" });
    const f = await c
      .of(databaseCreation("postgres"))
      .create(P, { name: "db" })
      .catch((x) => x);
    expect(f).toBeInstanceOf(ForbiddenError);
    expect(f.code).toBe("ACCOUNT_SUSPENDED");
  });

  test("delete goes through DELETE /containers/{id}", async () => {
    const c = h.alice();
    const r = await c.of(databaseCreation("mysql")).create(P, { name: "db" });
    await c.of(services).delete(P, r.service.id);
    expect(await c.of(services).list(P)).toEqual([]);
  });
});

describe("service links (4.3)", () => {
  const h = useApiSimulator();

  test("create and list; unknown consumer is 404; duplicate is 409", async () => {
    const c = h.alice();
    const web = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const db = await c.of(databaseCreation("postgres")).create(P, { name: "db" });
    const link = await c
      .of(serviceLinks)
      .create(P, { consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" });
    expect(link).toMatchObject({ consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" });
    expect(Object.keys(link.injectedEnv)).toContain(db.connection.envVar);
    expect((await c.of(serviceLinks).list(P)).map((l) => l.id)).toEqual([link.id]);

    await expect(
      c.of(serviceLinks).create(P, {
        consumerServiceId: "00000000-0000-4000-8000-00000000dead",
        providerServiceId: db.service.id,
        linkType: "http",
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      c.of(serviceLinks).create(P, { consumerServiceId: web.id, providerServiceId: db.service.id, linkType: "http" }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("registries (4.4)", () => {
  const h = useApiSimulator();

  test("create, list, get, replace, delete; failures are typed", async () => {
    const c = h.alice();
    const r = await c
      .of(registries)
      .create(undefined, { name: "ghcr", host: "ghcr.io", username: "me", password: "s3cret" });
    expect(r).toEqual({ id: expect.any(String), name: "ghcr", host: "ghcr.io", username: "me" });
    expect(await c.of(registries).list(undefined)).toEqual([r]);
    expect(await c.of(registries).get(undefined, r.id)).toEqual(r);
    const replaced = await c
      .of(registries)
      .update(undefined, r.id, { name: "ghcr", host: "ghcr.io", username: "you", password: "n3w" });
    expect(replaced.username).toBe("you");
    await expect(c.of(registries).create(undefined, { name: "ghcr", host: "other.io" })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await c.of(registries).delete(undefined, r.id);
    await expect(c.of(registries).get(undefined, r.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.of(registries).update(undefined, r.id, { name: "x", host: "y" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(c.of(registries).delete(undefined, r.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("volumes (4.5)", () => {
  const h = useApiSimulator({ volumeProvisioningMs: 50 });

  test("create, poll to running, list, get, grow, attach, detach, delete", async () => {
    const c = h.alice();
    const v = await c.of(volumes).create(P, { name: "data", sizeGb: 10 });
    expect(v).toMatchObject({ name: "data", sizeGb: 10, status: "provisioning", attachment: null });
    let got = await c.of(volumes).get(P, v.id);
    for (let i = 0; i < 50 && got.status !== "running"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      got = await c.of(volumes).get(P, v.id);
    }
    expect(got.status).toBe("running");
    expect((await c.of(volumes).list(P)).map((x) => [x.name, x.attached])).toEqual([["data", false]]);

    expect((await c.of(volumes).update(P, v.id, { sizeGb: 20 })).sizeGb).toBe(20);

    const web = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080 });
    const a = await c.of(volumes).act(P, v.id, "attach", {
      body: { containerId: web.id, mountPath: "/data", readOnly: false },
      answer: AttachmentRecord,
    });
    expect(a).toMatchObject({ volumeId: v.id, containerId: web.id, mountPath: "/data", readOnly: false });
    expect((await c.of(volumes).get(P, v.id)).attachment).toEqual({
      containerId: web.id,
      mountPath: "/data",
      readOnly: false,
    });
    expect((await c.of(volumes).list(P))[0].attached).toBe(true);

    const attachedDelete = await c
      .of(volumes)
      .delete(P, v.id)
      .catch((x) => x);
    expect(attachedDelete).toBeInstanceOf(ConflictError);
    expect(attachedDelete.code).toBe("VOLUME_ATTACHED");

    await c.of(volumes).act(P, v.id, "detach", { body: { containerId: web.id } });
    expect((await c.of(volumes).get(P, v.id)).attachment).toBeNull();
    await c.of(volumes).delete(P, v.id);
    await expect(c.of(volumes).get(P, v.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("findRecord: the record as its GET answers it, gone only after a second look, and never for a project the token cannot see", async () => {
    const c = h.alice();
    const v = await c.of(volumes).create(P, { name: "looked-for", sizeGb: 1 });
    const gets = () =>
      h.sim.control.requests().filter((r) => r.method === "GET" && r.path.endsWith(`/volumes/${v.id}`));
    h.sim.control.injectFault({ kind: "status", status: 404, method: "GET", path: `/volumes/${v.id}$` });
    expect(await c.of(volumes).findRecord(P, v.id)).toMatchObject({ id: v.id, attachment: null });
    expect(gets().map((r) => r.status)).toEqual([404, 200]);
    const gone = "00000000-0000-4000-8000-00000000dead";
    expect(await c.of(volumes).findRecord(P, gone)).toBeUndefined();
    await expect(h.bob().of(volumes).findRecord(P, v.id)).rejects.toBeInstanceOf(ProjectNotVisibleError);
  });

  test("create disabled as in production is 403 BLOCK_VOLUME_DISABLED", async () => {
    h.sim.control.setSwitches({ volumesEnabled: false });
    const e = await h
      .alice()
      .of(volumes)
      .create(P, { name: "data", sizeGb: 10 })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ForbiddenError);
    expect(e.code).toBe("BLOCK_VOLUME_DISABLED");
  });

  test(
    "shrink is 400 SHRINK_NOT_SUPPORTED; attach to a 2-replica target is RWO_REPLICA_LIMIT; " + "detach unknown is 404",
    async () => {
      const c = h.alice();
      const v = await c.of(volumes).create(P, { name: "data", sizeGb: 10 });
      const shrink = await c
        .of(volumes)
        .update(P, v.id, { sizeGb: 5 })
        .catch((x) => x);
      expect(shrink).toBeInstanceOf(BadRequestError);
      expect(shrink.code).toBe("SHRINK_NOT_SUPPORTED");
      const web = await c.of(services).create(P, { name: "web", image: IMAGE, httpPort: 8080, replicas: 2 });
      const rwo = await c
        .of(volumes)
        .act(P, v.id, "attach", { body: { containerId: web.id, mountPath: "/data" }, answer: AttachmentRecord })
        .catch((x) => x);
      expect(isApiError(rwo, "RWO_REPLICA_LIMIT")).toBe(true);
      await expect(
        c.of(volumes).act(P, "00000000-0000-4000-8000-00000000dead", "detach", { body: { containerId: web.id } }),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(c.of(volumes).delete(P, "00000000-0000-4000-8000-00000000dead")).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(c.of(volumes).list("00000000-0000-4000-8000-000000000b0b")).rejects.toBeInstanceOf(
        ProjectNotVisibleError,
      );
    },
  );
});
