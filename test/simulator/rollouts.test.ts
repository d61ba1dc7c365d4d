// Container rollouts, starts and restarts go through `provisioning` (serviceStartMs), and images
// whose tag is in crashingImageTags end `failed` with logs that say why (DESIGN section 3).
import { IMAGE, createContainer, eventually, findService, p, useSimulator, type Client } from "./helpers";

const GOOD = "registry.sim.hosting.test/acme/web:2.0.0";
const BAD = "registry.sim.hosting.test/acme/web:2.0.0-bad";
const CRASH_LINES = [
  "Error: Cannot find module '/app/server.js'",
  "process exited with code 1",
  "container failed to start: exit code 1 (CrashLoopBackOff)",
];

/** The log as events, without the timestamps. */
async function events(client: Client, id: string): Promise<string[]> {
  const text = (await client.get(p(`/containers/${id}/logs`))).text;
  return text
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/^\S+ /, ""));
}

/**
 * Longer than any loaded machine takes between two requests, so that `provisioning` is always seen;
 * a test ends the start itself (`endStart`) instead of waiting it out.
 */
const START_MS = 60_000;

const statusOf = async (client: Client, id: string) => (await findService(client, id))?.status;

/** The start under way ends now, as if serviceStartMs had passed. */
const endStart = (h: ReturnType<typeof useSimulator>, id: string) =>
  h.sim.control.mutate("services", id, { ready_at: Date.now() });

describe("rollouts go through provisioning", () => {
  const h = useSimulator();

  test.each([
    ["image", { image: GOOD }, `rolling out image ${GOOD}`],
    ["env", { env: { LOG_LEVEL: "debug" } }, `rolling out image ${IMAGE}`],
    ["http_port", { http_port: 3000 }, `rolling out image ${IMAGE}`],
  ])("a PATCH of %s reads provisioning, then running after serviceStartMs", async (_field, patch, line) => {
    const web = await createContainer(h.alice);
    expect(await statusOf(h.alice, web.id)).toBe("running");
    h.sim.control.setSwitches({ serviceStartMs: START_MS });

    const res = await h.alice.patch(p(`/containers/${web.id}`), patch);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("provisioning");
    expect(await statusOf(h.alice, web.id)).toBe("provisioning");
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status === "running",
    );
    expect((await events(h.alice, web.id)).slice(-2)).toEqual([line, `listening on port ${res.body.port}`]);
  });

  test("with serviceStartMs 0 the PATCH response reads provisioning and the next GET running", async () => {
    const web = await createContainer(h.alice);
    const res = await h.alice.patch(p(`/containers/${web.id}`), { image: GOOD });
    expect(res.body).toMatchObject({ image: GOOD, status: "provisioning" });
    expect(await statusOf(h.alice, web.id)).toBe("running");
  });

  test("a PATCH of replicas, sizes, public or display_name leaves the status alone", async () => {
    const web = await createContainer(h.alice);
    expect(await statusOf(h.alice, web.id)).toBe("running");
    h.sim.control.setSwitches({ serviceStartMs: 60_000 });
    const res = await h.alice.patch(p(`/containers/${web.id}`), {
      replicas: 3,
      cpu_milli: 500,
      memory_mb: 512,
      storage_gb: 2,
      public: false,
      display_name: "Web",
    });
    expect(res.body).toMatchObject({ replicas: 3, public: false, status: "running" });
    expect(await statusOf(h.alice, web.id)).toBe("running");
    expect(await events(h.alice, web.id)).not.toContainEqual(expect.stringMatching(/^rolling out/));
  });

  test("a PATCH that sets the values already there is no rollout", async () => {
    const web = await createContainer(h.alice, { env: { A: "1" } });
    await statusOf(h.alice, web.id);
    h.sim.control.setSwitches({ serviceStartMs: 60_000 });
    const res = await h.alice.patch(p(`/containers/${web.id}`), { image: IMAGE, env: { A: "1" }, http_port: 8080 });
    expect(res.body.status).toBe("running");
  });

  test("the rollout log names env variables, never their values", async () => {
    const web = await createContainer(h.alice);
    await h.alice.patch(p(`/containers/${web.id}`), { env: { DB_PASSWORD: "hunter2" } });
    const log = (await h.alice.get(p(`/containers/${web.id}/logs`))).text;
    expect(log).toContain("env updated (DB_PASSWORD)");
    expect(log).not.toContain("hunter2");
  });

  test("a stopped container stays stopped through a rollout and runs the new image when started", async () => {
    const web = await createContainer(h.alice);
    await h.alice.post(p(`/containers/${web.id}/stop`));
    const res = await h.alice.patch(p(`/containers/${web.id}`), { image: GOOD });
    expect(res.body.status).toBe("stopped");
    expect(await statusOf(h.alice, web.id)).toBe("stopped");
    await h.alice.post(p(`/containers/${web.id}/start`));
    expect(await statusOf(h.alice, web.id)).toBe("running");
    expect((await events(h.alice, web.id)).slice(-4)).toEqual([
      `image set to ${GOOD}`,
      `stopped: image ${GOOD} rolls out on start`,
      `starting ${GOOD}`,
      "listening on port 8080",
    ]);
  });
});

describe("start and restart go through provisioning; stop is immediate", () => {
  const h = useSimulator({ serviceStartMs: START_MS });

  test.each(["start", "restart"])("%s reads provisioning, then running", async (action) => {
    const web = await createContainer(h.alice);
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status === "running",
    );
    await h.alice.post(p(`/containers/${web.id}/stop`));
    expect(await statusOf(h.alice, web.id)).toBe("stopped");

    expect((await h.alice.post(p(`/containers/${web.id}/${action}`))).status).toBe(204);
    expect(await statusOf(h.alice, web.id)).toBe("provisioning");
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status === "running",
    );
    const verb = action === "start" ? "starting" : "restarting";
    expect((await events(h.alice, web.id)).slice(-2)).toEqual([`${verb} ${IMAGE}`, "listening on port 8080"]);
  });

  test("restart of a running container also passes through provisioning", async () => {
    const web = await createContainer(h.alice);
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status === "running",
    );
    await h.alice.post(p(`/containers/${web.id}/restart`));
    expect(await statusOf(h.alice, web.id)).toBe("provisioning");
  });

  test("stop during provisioning is stopped at once, and stays stopped", async () => {
    // A start short enough to wait out: the time it would have ended passes, and the stop holds.
    const startMs = 300;
    h.sim.control.setSwitches({ serviceStartMs: startMs });
    const web = await createContainer(h.alice);
    await h.alice.post(p(`/containers/${web.id}/stop`));
    expect(await statusOf(h.alice, web.id)).toBe("stopped");
    await new Promise((resolve) => setTimeout(resolve, startMs + 100));
    expect(await statusOf(h.alice, web.id)).toBe("stopped");
  });
});

describe("crashingImageTags: images that fail to start", () => {
  const h = useSimulator({ crashingImageTags: ["2.0.0-bad", "oops"] });

  test("create with a crashing tag: provisioning, then failed, and the logs say why", async () => {
    const web = await createContainer(h.alice, { image: BAD });
    expect(web.status).toBe("provisioning");
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect(await events(h.alice, web.id)).toEqual([
      "created",
      `image set to ${BAD}`,
      `starting ${BAD}`,
      ...CRASH_LINES,
    ]);
  });

  test("after serviceStartMs, not before", async () => {
    h.sim.control.setSwitches({ serviceStartMs: START_MS });
    const web = await createContainer(h.alice, { image: BAD });
    expect(await statusOf(h.alice, web.id)).toBe("provisioning");
    expect(await events(h.alice, web.id)).not.toContain(CRASH_LINES[0]);
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status === "failed",
    );
  });

  test("a rollout to a crashing tag fails; a rollout back to a good image runs again", async () => {
    const web = await createContainer(h.alice);
    expect(await statusOf(h.alice, web.id)).toBe("running");

    const bad = await h.alice.patch(p(`/containers/${web.id}`), { image: BAD });
    expect(bad.body.status).toBe("provisioning");
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect((await events(h.alice, web.id)).slice(-4)).toEqual([`rolling out image ${BAD}`, ...CRASH_LINES]);

    const replicas = await h.alice.patch(p(`/containers/${web.id}`), { replicas: 2 });
    expect(replicas.body.status).toBe("failed");

    const fixed = await h.alice.patch(p(`/containers/${web.id}`), { image: GOOD });
    expect(fixed.body.status).toBe("provisioning");
    expect(await statusOf(h.alice, web.id)).toBe("running");
    expect((await events(h.alice, web.id)).slice(-2)).toEqual([`rolling out image ${GOOD}`, "listening on port 8080"]);
  });

  test("an env change of a crashing image rolls out and fails again", async () => {
    const web = await createContainer(h.alice, { image: BAD });
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    await h.alice.patch(p(`/containers/${web.id}`), { env: { A: "1" } });
    expect(await statusOf(h.alice, web.id)).toBe("failed");
  });

  test.each(["restart", "start"])("%s of a crashing image fails again", async (action) => {
    const web = await createContainer(h.alice, { image: `registry.sim.hosting.test/acme/api:oops` });
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    await h.alice.post(p(`/containers/${web.id}/stop`));
    await h.alice.post(p(`/containers/${web.id}/${action}`));
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect((await events(h.alice, web.id)).slice(-3)).toEqual(CRASH_LINES);
  });

  test("a volume attach restarts a crashing consumer into failed too", async () => {
    const web = await createContainer(h.alice, { image: BAD });
    await statusOf(h.alice, web.id);
    const volume = (await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 })).body;
    await h.alice.post(p(`/volumes/${volume.id}/attach`), { container_id: web.id, mount_path: "/data" });
    expect(await statusOf(h.alice, web.id)).toBe("failed");
    expect((await events(h.alice, web.id)).slice(-4)).toEqual([
      `restarted: volume data attached at /data`,
      ...CRASH_LINES,
    ]);
  });

  test("only the tag counts: the same text elsewhere in the reference does not crash", async () => {
    const web = await createContainer(h.alice, { image: "registry.sim.hosting.test/oops/web:1.0.0" });
    expect(await statusOf(h.alice, web.id)).toBe("running");
  });

  test("managed databases never crash, whatever their tag", async () => {
    h.sim.control.setSwitches({ crashingImageTags: ["16"] });
    const { service } = (await h.alice.post(p("/postgres"), { name: "db" })).body;
    expect(await statusOf(h.alice, service.id)).toBe("running");
  });

  test("the outcome is decided when the start begins: a later switch change does not alter it", async () => {
    h.sim.control.setSwitches({ serviceStartMs: START_MS });
    const web = await createContainer(h.alice, { image: BAD });
    h.sim.control.setSwitches({ crashingImageTags: [] });
    endStart(h, web.id);
    await eventually(
      () => statusOf(h.alice, web.id),
      (status) => status !== "provisioning",
    );
    expect(await statusOf(h.alice, web.id)).toBe("failed");
  });

  test("the switch can be set at run time through /_sim/switches", async () => {
    const res = await h.admin.post("/_sim/switches", { crashingImageTags: ["1.0.0"] });
    expect(res.body.crashingImageTags).toEqual(["1.0.0"]);
    const web = await createContainer(h.alice);
    expect(await statusOf(h.alice, web.id)).toBe("failed");
  });

  test("the wire record carries no simulator-only field", async () => {
    h.sim.control.setSwitches({ serviceStartMs: 60_000 });
    const web = await createContainer(h.alice, { image: BAD });
    expect(web).not.toHaveProperty("start_outcome");
    expect(web).not.toHaveProperty("ready_at");
    expect(await findService(h.alice, web.id)).not.toHaveProperty("start_outcome");
    expect(h.sim.control.snapshot().services[0]).toMatchObject({ status: "provisioning", start_outcome: "failed" });
  });

  test("an out-of-band status drops the pending outcome", async () => {
    h.sim.control.setSwitches({ serviceStartMs: 60_000 });
    const web = await createContainer(h.alice, { image: BAD });
    h.sim.control.mutate("services", web.id, { status: "running" });
    expect(h.sim.control.snapshot().services[0]).toMatchObject({
      status: "running",
      ready_at: null,
      start_outcome: null,
    });
  });
});
