// Containers, managed databases, service links and registries (document sections 2 and 4),
// and ownership (section 5.4: another user's resource reads as 404).
import {
  ALICE_PROJECT,
  BOB_PROJECT,
  IMAGE,
  codeOf,
  createContainer,
  createVolume,
  eventually,
  findService,
  p,
  useSimulator,
} from "./helpers";

describe("§4.1 containers", () => {
  const h = useSimulator();

  test("§2.1 create returns a service record with the defaults, status provisioning", async () => {
    const res = await h.alice.post(p("/containers"), { name: "web", image: IMAGE, http_port: 8080 });
    expect(res.status).toBe(201);
    const web = res.body;
    expect(web).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: ALICE_PROJECT,
      name: "web",
      display_name: "web",
      type: "container",
      runtime: "docker",
      image: IMAGE,
      port: 8080,
      replicas: 1,
      status: "provisioning",
      internal_host: "web.p-00000000.svc.cluster.local:8080",
      public_url: `https://web-${web.id.slice(0, 6)}.apps.sim.hosting.test`,
      public: true,
      cpu_milli: 250,
      memory_mb: 256,
      storage_gb: 1,
      env: {},
      connection: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: web.created_at,
      marketplace_app: null,
    });
  });

  test("create accepts the PATCH fields too", async () => {
    const web = await createContainer(h.alice, {
      env: { A: "1" },
      replicas: 2,
      cpu_milli: 500,
      memory_mb: 512,
      storage_gb: 2,
      public: false,
      display_name: "Web",
    });
    expect(web).toMatchObject({
      env: { A: "1" },
      replicas: 2,
      cpu_milli: 500,
      memory_mb: 512,
      storage_gb: 2,
      public: false,
      display_name: "Web",
    });
  });

  test("with serviceStartMs 0 the next read shows running", async () => {
    const web = await createContainer(h.alice);
    expect((await findService(h.alice, web.id))?.status).toBe("running");
  });

  test("status reads provisioning until serviceStartMs has elapsed", async () => {
    h.sim.control.setSwitches({ serviceStartMs: 150 });
    const web = await createContainer(h.alice);
    expect((await findService(h.alice, web.id))?.status).toBe("provisioning");
    await eventually(
      () => findService(h.alice, web.id),
      (service) => service?.status === "running",
    );
  });

  test("GET lists the project's services (containers and managed databases)", async () => {
    await createContainer(h.alice);
    await h.alice.post(p("/redis"), { name: "cache" });
    await createContainer(h.bob, { name: "bobs" }, BOB_PROJECT);
    const res = await h.alice.get(p("/containers"));
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => [s.name, s.type])).toEqual([
      ["web", "container"],
      ["cache", "redis"],
    ]);
  });

  test("PATCH updates any subset, moves updated_at and logs each change", async () => {
    const web = await createContainer(h.alice);
    const res = await h.alice.patch(p(`/containers/${web.id}`), {
      image: "registry.sim.hosting.test/acme/web:1.0.1",
      env: { SECRET: "hunter2" },
      http_port: 3000,
      replicas: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      image: "registry.sim.hosting.test/acme/web:1.0.1",
      env: { SECRET: "hunter2" },
      port: 3000,
      internal_host: "web.p-00000000.svc.cluster.local:3000",
      replicas: 2,
      name: "web",
      cpu_milli: 250,
    });
    expect(res.body.updated_at > web.updated_at).toBe(true);

    const logs = (await h.alice.get(p(`/containers/${web.id}/logs`))).text;
    expect(logs).toContain("image set to registry.sim.hosting.test/acme/web:1.0.1");
    expect(logs).toContain("env updated (SECRET)");
    expect(logs).toContain("http_port set to 3000");
    expect(logs).toContain("replicas set to 2");
    expect(logs).not.toContain("hunter2");
  });

  test("PATCH with nothing changed leaves updated_at alone", async () => {
    const web = await createContainer(h.alice);
    const res = await h.alice.patch(p(`/containers/${web.id}`), {});
    expect(res.status).toBe(200);
    expect(res.body.updated_at).toBe(web.updated_at);
  });

  test("PATCH rejects fields that cannot change (name)", async () => {
    const web = await createContainer(h.alice);
    const res = await h.alice.patch(p(`/containers/${web.id}`), { name: "other" });
    expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
  });

  test("stop, start and restart: status, empty 204 bodies, log lines", async () => {
    const web = await createContainer(h.alice);
    const stop = await h.alice.post(p(`/containers/${web.id}/stop`));
    expect([stop.status, stop.text]).toEqual([204, ""]);
    expect((await findService(h.alice, web.id))?.status).toBe("stopped");
    expect((await h.alice.post(p(`/containers/${web.id}/start`))).status).toBe(204);
    expect((await findService(h.alice, web.id))?.status).toBe("running");
    await h.alice.post(p(`/containers/${web.id}/stop`));
    expect((await h.alice.post(p(`/containers/${web.id}/restart`))).status).toBe(204);
    expect((await findService(h.alice, web.id))?.status).toBe("running");

    const logs = await h.alice.get(p(`/containers/${web.id}/logs`));
    expect(logs.headers.get("content-type")).toMatch(/^text\/plain/);
    const events = logs.text
      .trimEnd()
      .split("\n")
      .map((line) => line.replace(/^\S+ /, ""));
    expect(events).toEqual([
      "created",
      `image set to ${IMAGE}`,
      `starting ${IMAGE}`,
      "listening on port 8080",
      "stopped",
      `starting ${IMAGE}`,
      "listening on port 8080",
      "stopped",
      `restarting ${IMAGE}`,
      "listening on port 8080",
    ]);
    expect(logs.text.split("\n")[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z created$/);
  });

  test("DELETE: 204 empty body, then gone (404)", async () => {
    const web = await createContainer(h.alice);
    const res = await h.alice.delete(p(`/containers/${web.id}`));
    expect([res.status, res.text]).toEqual([204, ""]);
    expect(await findService(h.alice, web.id)).toBeUndefined();
    expect((await h.alice.delete(p(`/containers/${web.id}`))).status).toBe(404);
    expect((await h.alice.get(p(`/containers/${web.id}/logs`))).status).toBe(404);
  });

  test("an unknown method on a known path is 405 with Allow", async () => {
    const res = await h.alice.call("PUT", p("/containers"));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST");
  });
});

describe("§4.2 managed databases", () => {
  const h = useSimulator();

  test.each([
    [
      "postgres",
      "postgres-16",
      5432,
      "DATABASE_URL",
      /^postgres:\/\/app:[0-9a-f]+@db\.p-00000000\.svc\.cluster\.local:5432\/db$/,
    ],
    ["mysql", "mysql-8", 3306, "MYSQL_URL", /^mysql:\/\/app:[0-9a-f]+@db\.p-00000000\.svc\.cluster\.local:3306\/db$/],
    [
      "redis",
      "redis-7",
      6379,
      "REDIS_URL",
      /^redis:\/\/default:[0-9a-f]+@db\.p-00000000\.svc\.cluster\.local:6379\/0$/,
    ],
  ])("§2.5 POST /%s returns {service, connection}", async (kind, runtime, port, envVar, url) => {
    const res = await h.alice.post(p(`/${kind}`), {
      name: "db",
      resources: { cpu_milli: 500, memory_mb: 1024, storage_gb: 5 },
    });
    expect(res.status).toBe(201);
    const { service, connection } = res.body;
    expect(service).toMatchObject({
      type: kind,
      runtime,
      port,
      name: "db",
      status: "provisioning",
      cpu_milli: 500,
      memory_mb: 1024,
      storage_gb: 5,
      image: `registry.sim.hosting.test/managed/${kind}:${runtime.split("-")[1]}`,
      internal_host: `db.p-00000000.svc.cluster.local:${port}`,
    });
    expect(connection).toEqual({
      host: `db.p-00000000.svc.cluster.local:${port}`,
      port: String(port),
      env_var: envVar,
      instructions: expect.stringMatching(url),
      requires_auth: "true",
    });
    expect(service.connection).toEqual(connection);
    const listed = await findService(h.alice, service.id);
    expect(listed).toMatchObject({ type: kind, connection });
  });

  test("resources default to 250/256/1", async () => {
    const { service } = (await h.alice.post(p("/postgres"), { name: "db" })).body;
    expect(service).toMatchObject({ cpu_milli: 250, memory_mb: 256, storage_gb: 1 });
  });

  test("400 VALIDATION_FAILED names a bad resources field", async () => {
    const res = await h.alice.post(p("/postgres"), { name: "db", resources: { memory_mb: -1 } });
    expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
    expect(res.body.message).toContain("resources.memory_mb");
  });

  test("DELETE /containers/{id} deletes a managed database", async () => {
    const { service } = (await h.alice.post(p("/mysql"), { name: "db" })).body;
    expect((await h.alice.delete(p(`/containers/${service.id}`))).status).toBe(204);
    expect(await findService(h.alice, service.id)).toBeUndefined();
  });
});

describe("§4.3 service links", () => {
  const h = useSimulator();

  test("§2.6 an http link injects <PROVIDER>_URL; GET lists it; the consumer's env is untouched", async () => {
    const web = await createContainer(h.alice);
    const api = await createContainer(h.alice, { name: "billing-api", http_port: 9000 });
    const res = await h.alice.post(p("/service-links"), { consumer_service_id: web.id, provider_service_id: api.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      project_id: ALICE_PROJECT,
      consumer_service_id: web.id,
      provider_service_id: api.id,
      link_type: "http",
      injected_env: { BILLING_API_URL: "http://billing-api.p-00000000.svc.cluster.local:9000" },
    });
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [res.body] });
    expect((await findService(h.alice, web.id))?.env).toEqual({});
  });

  test("a database provider injects its connection URL", async () => {
    const web = await createContainer(h.alice);
    const { service, connection } = (await h.alice.post(p("/postgres"), { name: "db" })).body;
    const res = await h.alice.post(p("/service-links"), {
      consumer_service_id: web.id,
      provider_service_id: service.id,
      link_type: "postgres",
    });
    expect(res.body.injected_env).toEqual({ DATABASE_URL: connection.instructions });
  });

  test("409 LINK_EXISTS for the same consumer, provider and type; another type is fine", async () => {
    const web = await createContainer(h.alice);
    const api = await createContainer(h.alice, { name: "api" });
    const body = { consumer_service_id: web.id, provider_service_id: api.id, link_type: "http" };
    await h.alice.post(p("/service-links"), body);
    const res = await h.alice.post(p("/service-links"), body);
    expect([res.status, codeOf(res)]).toEqual([409, "LINK_EXISTS"]);
    expect((await h.alice.post(p("/service-links"), { ...body, link_type: "grpc" })).status).toBe(201);
  });

  test("404 when either service is missing or in another project", async () => {
    const web = await createContainer(h.alice);
    const bobs = await createContainer(h.bob, {}, BOB_PROJECT);
    const missing = await h.alice.post(p("/service-links"), {
      consumer_service_id: web.id,
      provider_service_id: bobs.id,
    });
    expect([missing.status, codeOf(missing)]).toEqual([404, "NOT_FOUND"]);
  });

  test.each([
    [{ provider_service_id: "x" }, "consumer_service_id"],
    [{ consumer_service_id: "x" }, "provider_service_id"],
    [{ consumer_service_id: "x", provider_service_id: "y", link_type: "HTTP" }, "link_type"],
  ])("400 VALIDATION_FAILED for %j names %s", async (body, field) => {
    const res = await h.alice.post(p("/service-links"), body);
    expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
    expect(res.body.message).toContain(field);
  });

  test("deleting a service removes its links", async () => {
    const web = await createContainer(h.alice);
    const api = await createContainer(h.alice, { name: "api" });
    await h.alice.post(p("/service-links"), { consumer_service_id: web.id, provider_service_id: api.id });
    await h.alice.delete(p(`/containers/${api.id}`));
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [] });
  });
});

describe("§4.4 registries", () => {
  const h = useSimulator();

  test("§2.7 create, get, list, replace, delete; the password is never returned", async () => {
    const created = await h.alice.post("/v1/registries", {
      name: "ghcr",
      host: "ghcr.io",
      username: "ci",
      password: "s3cret",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: "ghcr", host: "ghcr.io", username: "ci" });
    const id = created.body.id;
    expect((await h.alice.get(`/v1/registries/${id}`)).body).toEqual(created.body);
    expect((await h.alice.get("/v1/registries")).body).toEqual([created.body]);
    expect(h.sim.control.snapshot().registries[0]).toMatchObject({ password: "s3cret", user_id: "alice" });

    const replaced = await h.alice.put(`/v1/registries/${id}`, { name: "ghcr", host: "ghcr.io", password: "rotated" });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, name: "ghcr", host: "ghcr.io", username: null });
    expect(h.sim.control.snapshot().registries[0].password).toBe("rotated");
    for (const res of [created, replaced]) expect(res.text).not.toContain("s3cret");

    expect((await h.alice.delete(`/v1/registries/${id}`)).status).toBe(204);
    expect((await h.alice.get(`/v1/registries/${id}`)).status).toBe(404);
  });

  test("PUT to a name another registry of the user has: 409 NAME_TAKEN", async () => {
    await h.alice.post("/v1/registries", { name: "one", host: "a.example" });
    const two = (await h.alice.post("/v1/registries", { name: "two", host: "b.example" })).body;
    const res = await h.alice.put(`/v1/registries/${two.id}`, { name: "one", host: "b.example" });
    expect([res.status, codeOf(res)]).toEqual([409, "NAME_TAKEN"]);
  });

  test("400 VALIDATION_FAILED without host", async () => {
    const res = await h.alice.post("/v1/registries", { name: "ghcr" });
    expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
    expect(res.body.message).toContain("host");
  });
});

describe("§4.3 linkEnvInConsumer: whether the consumer's env shows what links inject (DESIGN section 3)", () => {
  const h = useSimulator({ linkEnvInConsumer: true });

  async function linked() {
    const web = await createContainer(h.alice, { env: { LOG_LEVEL: "info" } });
    const { service, connection } = (await h.alice.post(p("/postgres"), { name: "db" })).body;
    const link = await h.alice.post(p("/service-links"), {
      consumer_service_id: web.id,
      provider_service_id: service.id,
      link_type: "postgres",
    });
    expect(link.status).toBe(201);
    return { web, link: link.body, url: connection.instructions as string };
  }

  test("on: the consumer's env shows the injected variables beside its own; the link lists them too", async () => {
    const { web, link, url } = await linked();
    expect(link.injected_env).toEqual({ DATABASE_URL: url });
    const consumer = await findService(h.alice, web.id);
    expect(consumer?.env).toEqual({ LOG_LEVEL: "info", DATABASE_URL: url });
    expect(consumer?.updated_at > web.updated_at).toBe(true);
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [link] });
  });

  test("on: the consumer's log names the variables, never their values", async () => {
    const { web, url } = await linked();
    const log = (await h.alice.get(p(`/containers/${web.id}/logs`))).text;
    expect(log).toContain("env updated by the link to db (DATABASE_URL)");
    expect(log).not.toContain(url);
  });

  test("on: a PATCH of env replaces the whole map, so leaving them out removes them; the link stays", async () => {
    const { web, link } = await linked();
    const res = await h.alice.patch(p(`/containers/${web.id}`), { env: { LOG_LEVEL: "debug" } });
    expect(res.body.env).toEqual({ LOG_LEVEL: "debug" });
    expect((await findService(h.alice, web.id))?.env).toEqual({ LOG_LEVEL: "debug" });
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [link] });
  });

  test("on: a PATCH of env that keeps them keeps them", async () => {
    const { web, url } = await linked();
    await h.alice.patch(p(`/containers/${web.id}`), { env: { LOG_LEVEL: "debug", DATABASE_URL: url } });
    expect((await findService(h.alice, web.id))?.env).toEqual({ LOG_LEVEL: "debug", DATABASE_URL: url });
  });

  test("on: a PATCH without env leaves them", async () => {
    const { web, url } = await linked();
    await h.alice.patch(p(`/containers/${web.id}`), { replicas: 2 });
    expect((await findService(h.alice, web.id))?.env).toEqual({ LOG_LEVEL: "info", DATABASE_URL: url });
  });

  test("on: writing them is no rollout; the consumer's status stays", async () => {
    const web = await createContainer(h.alice);
    const api = await createContainer(h.alice, { name: "api" });
    expect((await findService(h.alice, web.id))?.status).toBe("running");
    h.sim.control.setSwitches({ serviceStartMs: 60_000 });
    await h.alice.post(p("/service-links"), { consumer_service_id: web.id, provider_service_id: api.id });
    expect(await findService(h.alice, web.id)).toMatchObject({
      status: "running",
      env: { API_URL: "http://api.p-00000000.svc.cluster.local:8080" },
    });
  });

  test("off (the default): the consumer's env never shows them; only the link carries them", async () => {
    h.sim.control.setSwitches({ linkEnvInConsumer: false });
    const { web, link, url } = await linked();
    expect(link.injected_env).toEqual({ DATABASE_URL: url });
    expect((await findService(h.alice, web.id))?.env).toEqual({ LOG_LEVEL: "info" });
    expect((await h.alice.get(p("/service-links"))).body).toEqual({ links: [link] });
  });
});

describe("§5.4 ownership: another user's resource reads as 404 NOT_FOUND", () => {
  const h = useSimulator();

  test("bob cannot see or touch alice's container", async () => {
    const web = await createContainer(h.alice);
    // through alice's project (not bob's) ...
    expect((await h.bob.get(p("/containers"))).status).toBe(404);
    expect((await h.bob.patch(p(`/containers/${web.id}`), { replicas: 2 })).status).toBe(404);
    expect((await h.bob.get(p(`/containers/${web.id}/logs`))).status).toBe(404);
    // ... and through his own project
    expect((await h.bob.patch(p(`/containers/${web.id}`, BOB_PROJECT), { replicas: 2 })).status).toBe(404);
    expect((await h.bob.delete(p(`/containers/${web.id}`, BOB_PROJECT))).status).toBe(404);
    expect((await h.bob.get(p("/containers", BOB_PROJECT))).body).toEqual([]);
    expect(h.sim.control.snapshot().services).toHaveLength(1);
  });

  test("bob cannot see or touch alice's volume", async () => {
    const volume = await createVolume(h.alice);
    expect((await h.bob.get(p(`/volumes/${volume.id}`))).status).toBe(404);
    expect((await h.bob.get(p(`/volumes/${volume.id}`, BOB_PROJECT))).status).toBe(404);
    expect((await h.bob.delete(p(`/volumes/${volume.id}`, BOB_PROJECT))).status).toBe(404);
    expect((await h.bob.get(p("/volumes", BOB_PROJECT))).body).toEqual({ volumes: [] });
  });

  test("bob cannot see or touch alice's registry", async () => {
    const registry = (await h.alice.post("/v1/registries", { name: "ghcr", host: "ghcr.io" })).body;
    for (const res of [
      await h.bob.get(`/v1/registries/${registry.id}`),
      await h.bob.put(`/v1/registries/${registry.id}`, { name: "ghcr", host: "evil.example" }),
      await h.bob.delete(`/v1/registries/${registry.id}`),
    ]) {
      expect([res.status, codeOf(res)]).toEqual([404, "NOT_FOUND"]);
    }
    expect((await h.bob.get("/v1/registries")).body).toEqual([]);
    expect((await h.alice.get(`/v1/registries/${registry.id}`)).body.host).toBe("ghcr.io");
  });
});
