// The admin API under /_sim/ (docs/CONTRACTS.md): the control object over HTTP, no bearer token.
import { DEFAULT_SWITCHES } from "../../simulator/src";
import { KINDS } from "../../simulator/src/collections";
import { ALICE_PROJECT, codeOf, createContainer, createVolume, findService, p, useSimulator } from "./helpers";

describe("admin API over HTTP", () => {
  const h = useSimulator({ volumeProvisioningMs: -1 });

  test("GET and POST /_sim/switches", async () => {
    const initial = await h.admin.get("/_sim/switches");
    expect(initial.body).toEqual({ ...DEFAULT_SWITCHES, volumeProvisioningMs: -1 });
    const changed = await h.admin.post("/_sim/switches", { billing: "suspended", capacityGb: 5 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ billing: "suspended", capacityGb: 5 });
    expect(codeOf(await h.alice.post(p("/postgres"), { name: "db" }))).toBe("ACCOUNT_SUSPENDED");
  });

  test("POST /_sim/switches rejects an unknown switch or a bad value with 400", async () => {
    expect((await h.admin.post("/_sim/switches", { billing: "rich" })).status).toBe(400);
    const res = await h.admin.post("/_sim/switches", { volumesEnable: false });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("volumesEnable");
  });

  test.each([
    [{ crashingImageTags: "2.0.0-bad" }, "crashingImageTags: must be a list of image tags"],
    [{ crashingImageTags: ["ok", 7] }, "not a tag: 7"],
    [{ crashingImageTags: ["acme/web:2.0.0-bad"] }, 'not a tag: "acme/web:2.0.0-bad"'],
    [{ crashingImageTags: [""] }, 'not a tag: ""'],
    [{ linkEnvInConsumer: "yes" }, "linkEnvInConsumer: must be a boolean"],
  ])("POST /_sim/switches %j is 400 and says why", async (patch, message) => {
    const res = await h.admin.post("/_sim/switches", patch);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await h.admin.get("/_sim/switches")).body).toMatchObject({
      crashingImageTags: [],
      linkEnvInConsumer: false,
    });
  });

  test("POST /_sim/switches sets crashingImageTags and linkEnvInConsumer; reset restores them", async () => {
    const res = await h.admin.post("/_sim/switches", {
      crashingImageTags: ["2.0.0-bad", "v1_rc.2"],
      linkEnvInConsumer: true,
    });
    expect(res.body).toMatchObject({ crashingImageTags: ["2.0.0-bad", "v1_rc.2"], linkEnvInConsumer: true });
    await h.admin.post("/_sim/reset");
    expect((await h.admin.get("/_sim/switches")).body).toMatchObject({
      crashingImageTags: [],
      linkEnvInConsumer: false,
    });
  });

  test("the switches the control object hands out are copies", () => {
    h.sim.control.setSwitches({ crashingImageTags: ["a"] });
    h.sim.control.switches().crashingImageTags.push("b");
    expect(h.sim.control.switches().crashingImageTags).toEqual(["a"]);
  });

  test("POST /_sim/projects/{id}/suspended", async () => {
    expect((await h.admin.post(`/_sim/projects/${ALICE_PROJECT}/suspended`, { suspended: true })).status).toBe(204);
    expect(codeOf(await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 }))).toBe("PROJECT_SUSPENDED");
    await h.admin.post(`/_sim/projects/${ALICE_PROJECT}/suspended`, { suspended: false });
    expect((await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 })).status).toBe(201);
  });

  test("POST /_sim/containers/{id}/autoscaling", async () => {
    const web = await createContainer(h.alice);
    expect((await h.admin.post(`/_sim/containers/${web.id}/autoscaling`, { enabled: true })).status).toBe(204);
    expect(codeOf(await h.alice.patch(p(`/containers/${web.id}`), { replicas: 2 }))).toBe("AUTOSCALING_OWNS_REPLICAS");
    expect((await h.admin.post("/_sim/containers/nope/autoscaling", { enabled: true })).status).toBe(404);
    expect((await h.admin.post(`/_sim/containers/${web.id}/autoscaling`, { enabled: "yes" })).status).toBe(400);
  });

  test("POST, GET and DELETE /_sim/faults", async () => {
    expect((await h.admin.post("/_sim/faults", { kind: "status", status: 502, times: 3 })).status).toBe(204);
    expect((await h.admin.get("/_sim/faults")).body).toEqual([{ kind: "status", status: 502, times: 3 }]);
    expect((await h.alice.get("/v1/registries")).status).toBe(502);
    expect((await h.admin.get("/_sim/faults")).body).toEqual([{ kind: "status", status: 502, times: 2 }]);
    expect((await h.admin.delete("/_sim/faults")).status).toBe(204);
    expect((await h.alice.get("/v1/registries")).status).toBe(200);
    expect((await h.admin.post("/_sim/faults", { kind: "explode" })).status).toBe(400);
  });

  test("POST /_sim/faults takes a list", async () => {
    await h.admin.post("/_sim/faults", [
      { kind: "status", status: 500 },
      { kind: "rate_limit", retryAfter: "2" },
    ]);
    expect((await h.alice.get("/v1/registries")).status).toBe(500);
    expect((await h.alice.get("/v1/registries")).status).toBe(429);
  });

  test("GET and DELETE /_sim/requests; admin calls are never logged", async () => {
    const res = await h.alice.get("/v1/registries");
    const log = await h.admin.get("/_sim/requests");
    expect(log.body).toEqual([
      {
        at: expect.any(Number),
        method: "GET",
        path: "/v1/registries",
        status: 200,
        requestId: res.headers.get("x-request-id"),
      },
    ]);
    expect((await h.admin.delete("/_sim/requests")).status).toBe(204);
    expect((await h.admin.get("/_sim/requests")).body).toEqual([]);
  });

  test("GET /_sim/state is the whole truth, including what the API never returns", async () => {
    await createContainer(h.alice);
    await h.alice.post("/v1/registries", { name: "ghcr", host: "ghcr.io", password: "pw" });
    const state = (await h.admin.get("/_sim/state")).body;
    expect(Object.keys(state).sort()).toEqual([...KINDS, "logs", "suspended_projects"].sort());
    expect(state.services[0]).toMatchObject({ name: "web", autoscaling: false });
    expect(state.registries[0]).toMatchObject({ password: "pw", user_id: "alice" });
  });

  test("PATCH /_sim/{kind}/{id}: an out-of-band change the next read sees (drift)", async () => {
    const web = await createContainer(h.alice);
    const res = await h.admin.patch(`/_sim/services/${web.id}`, { image: "registry.sim.hosting.test/acme/web:hotfix" });
    expect(res.status).toBe(204);
    const read = await findService(h.alice, web.id);
    expect(read?.image).toBe("registry.sim.hosting.test/acme/web:hotfix");
    expect(read?.updated_at > web.updated_at).toBe(true);
  });

  test("PATCH /_sim/services/{id} {status} pins the status", async () => {
    const web = await createContainer(h.alice);
    await h.admin.patch(`/_sim/services/${web.id}`, { status: "failed" });
    expect((await findService(h.alice, web.id))?.status).toBe("failed");
  });

  test("DELETE /_sim/{kind}/{id}: an out-of-band delete; the API then reads 404", async () => {
    const volume = await createVolume(h.alice);
    expect((await h.admin.delete(`/_sim/volumes/${volume.id}`)).status).toBe(204);
    expect((await h.alice.get(p(`/volumes/${volume.id}`))).status).toBe(404);
    expect((await h.admin.delete(`/_sim/volumes/${volume.id}`)).status).toBe(404);
    expect((await h.admin.delete(`/_sim/widgets/${volume.id}`)).status).toBe(404);
  });

  test("POST /_sim/volumes/{id}/ready", async () => {
    const volume = await createVolume(h.alice);
    expect(volume.status).toBe("provisioning");
    expect((await h.admin.post(`/_sim/volumes/${volume.id}/ready`)).status).toBe(204);
    expect((await h.alice.get(p(`/volumes/${volume.id}`))).body).toMatchObject({
      status: "running",
      status_reason: "",
    });
  });

  test("POST /_sim/reset drops everything and restores the startup switches", async () => {
    await createContainer(h.alice);
    await h.admin.post("/_sim/switches", { billing: "suspended" });
    await h.admin.post("/_sim/faults", { kind: "status", status: 500, path: "^/nothing$" });
    expect((await h.admin.post("/_sim/reset")).status).toBe(204);
    expect((await h.admin.get("/_sim/state")).body.services).toEqual([]);
    expect((await h.admin.get("/_sim/switches")).body.billing).toBe("ok");
    expect((await h.admin.get("/_sim/switches")).body.volumeProvisioningMs).toBe(-1);
    expect((await h.admin.get("/_sim/faults")).body).toEqual([]);
    expect((await h.admin.get("/_sim/requests")).body).toEqual([]);
  });

  test("an unknown admin route is 404; admin responses carry x-request-id too", async () => {
    const res = await h.admin.get("/_sim/nothing");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});
