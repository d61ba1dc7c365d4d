// Volumes: document section 7 (volume-specific errors, in order), section 8 (ReadWriteOnce limits)
// and section 3 (provisioning, and attach/detach restarting the consumer).
import {
  ALICE_PROJECT,
  BOB_PROJECT,
  codeOf,
  createContainer,
  createVolume,
  eventually,
  findService,
  p,
  useSimulator,
} from "./helpers";

const mount = (containerId: string, mountPath = "/data", extra: Record<string, unknown> = {}) => ({
  container_id: containerId,
  mount_path: mountPath,
  ...extra,
});

describe("§7 volume errors, §8 limits, §3 volume states", () => {
  const h = useSimulator({ capacityGb: 100 });

  const attach = (volumeId: string, body: unknown) => h.alice.post(p(`/volumes/${volumeId}/attach`), body);
  const resize = (volumeId: string, sizeGb: number) => h.alice.patch(p(`/volumes/${volumeId}`), { size_gb: sizeGb });

  describe("create", () => {
    test("§7 403 BLOCK_VOLUME_DISABLED when the feature is off (production)", async () => {
      h.sim.control.setSwitches({ volumesEnabled: false });
      const res = await h.alice.post(p("/volumes"), { name: "data", size_gb: 10 });
      expect([res.status, codeOf(res)]).toEqual([403, "BLOCK_VOLUME_DISABLED"]);
    });

    test("BLOCK_VOLUME_DISABLED comes before validation", async () => {
      h.sim.control.setSwitches({ volumesEnabled: false });
      expect(codeOf(await h.alice.post(p("/volumes"), { size_gb: -1 }))).toBe("BLOCK_VOLUME_DISABLED");
    });

    test.each([
      [{ size_gb: 10 }, "name"],
      [{ name: "data" }, "size_gb"],
      [{ name: "data", size_gb: 0 }, "size_gb"],
      [{ name: "data", size_gb: 1.5 }, "size_gb"],
      [{ name: "Data", size_gb: 1 }, "name"],
    ])("400 VALIDATION_FAILED for %j names %s", async (body, field) => {
      const res = await h.alice.post(p("/volumes"), body);
      expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
      expect(res.body.message).toContain(field);
    });

    test.each([
      [
        "§7 409 PROJECT_SUSPENDED",
        () => h.sim.control.setProjectSuspended(ALICE_PROJECT, true),
        [409, "PROJECT_SUSPENDED"],
      ],
      [
        "§7 402 INSUFFICIENT_BALANCE",
        () => h.sim.control.setSwitches({ billing: "insufficient_balance" }),
        [402, "INSUFFICIENT_BALANCE"],
      ],
      [
        "§7 403 ACCOUNT_SUSPENDED",
        () => h.sim.control.setSwitches({ billing: "suspended" }),
        [403, "ACCOUNT_SUSPENDED"],
      ],
      [
        "402 ACCOUNT_NOT_INITIALIZED",
        () => h.sim.control.setSwitches({ billing: "not_initialized" }),
        [402, "ACCOUNT_NOT_INITIALIZED"],
      ],
    ] as const)("%s on create", async (_name, gate, expected) => {
      gate();
      const res = await h.alice.post(p("/volumes"), { name: "data", size_gb: 10 });
      expect([res.status, codeOf(res)]).toEqual(expected);
    });

    test("§7 409 INSUFFICIENT_CAPACITY on create beyond what the account can reserve", async () => {
      await createVolume(h.alice, { name: "a", size_gb: 60 });
      expect((await h.alice.post(p("/volumes"), { name: "b", size_gb: 40 })).status).toBe(201);
      const res = await h.alice.post(p("/volumes"), { name: "c", size_gb: 1 });
      expect([res.status, codeOf(res)]).toEqual([409, "INSUFFICIENT_CAPACITY"]);
    });

    test("capacity is per user: bob's volumes do not use alice's capacity", async () => {
      await createVolume(h.bob, { size_gb: 100 }, BOB_PROJECT);
      await expect(createVolume(h.alice, { size_gb: 100 })).resolves.toMatchObject({ size_gb: 100 });
    });

    test("§7 409 name taken on create (NAME_TAKEN)", async () => {
      await createVolume(h.alice);
      const res = await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 });
      expect([res.status, codeOf(res)]).toEqual([409, "NAME_TAKEN"]);
    });

    test("order: suspended project before billing, billing before capacity, capacity before name taken", async () => {
      await createVolume(h.alice, { size_gb: 100 });
      // name "data" is taken and capacity is exhausted: capacity wins
      expect(codeOf(await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 }))).toBe("INSUFFICIENT_CAPACITY");
      h.sim.control.setSwitches({ billing: "insufficient_balance" });
      expect(codeOf(await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 }))).toBe("INSUFFICIENT_BALANCE");
      h.sim.control.setProjectSuspended(ALICE_PROJECT, true);
      expect(codeOf(await h.alice.post(p("/volumes"), { name: "data", size_gb: 1 }))).toBe("PROJECT_SUSPENDED");
    });

    test("§2.8 the new volume: provisioning, block-durable, ReadWriteOnce, no attachment", async () => {
      h.sim.control.setSwitches({ volumeProvisioningMs: -1 });
      const volume = await createVolume(h.alice);
      expect(volume).toMatchObject({
        name: "data",
        display_name: "data",
        size_gb: 10,
        storage_class: "block-durable",
        access_mode: "ReadWriteOnce",
        status: "provisioning",
        status_reason: "provisioning disk",
        attachment: null,
      });
    });
  });

  describe("§3 asynchronous provisioning", () => {
    test("provisioning turns running once volumeProvisioningMs has passed (polled via GET volume)", async () => {
      h.sim.control.setSwitches({ volumeProvisioningMs: 150 });
      const volume = await createVolume(h.alice);
      expect((await h.alice.get(p(`/volumes/${volume.id}`))).body.status).toBe("provisioning");
      const ready = await eventually(
        () => h.alice.get(p(`/volumes/${volume.id}`)),
        (res) => res.body.status === "running",
      );
      expect(ready.body.status_reason).toBe("");
    });

    test("a negative volumeProvisioningMs never completes until setVolumeReady", async () => {
      h.sim.control.setSwitches({ volumeProvisioningMs: -1 });
      const volume = await createVolume(h.alice);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((await h.alice.get(p(`/volumes/${volume.id}`))).body.status).toBe("provisioning");
      h.sim.control.setVolumeReady(volume.id);
      expect((await h.alice.get(p(`/volumes/${volume.id}`))).body.status).toBe("running");
    });
  });

  describe("list and get", () => {
    test("§2.8 the list carries attached; the single GET carries attachment", async () => {
      const web = await createContainer(h.alice);
      const data = await createVolume(h.alice, { name: "data" });
      await createVolume(h.alice, { name: "spare" });
      expect((await attach(data.id, mount(web.id, "/data", { read_only: true }))).status).toBe(201);

      const list = await h.alice.get(p("/volumes"));
      expect(list.status).toBe(200);
      const attached = Object.fromEntries(list.body.volumes.map((v: any) => [v.name, v.attached]));
      expect(attached).toEqual({ data: true, spare: false });

      const one = await h.alice.get(p(`/volumes/${data.id}`));
      expect(one.body.attachment).toEqual({ container_id: web.id, mount_path: "/data", read_only: true });
    });

    test("§7 404 NOT_FOUND for a missing volume", async () => {
      const missing = "22222222-2222-4222-8222-222222222222";
      for (const res of [
        await h.alice.get(p(`/volumes/${missing}`)),
        await resize(missing, 5),
        await h.alice.delete(p(`/volumes/${missing}`)),
        await attach(missing, mount(missing)),
        await h.alice.post(p(`/volumes/${missing}/detach`), { container_id: missing }),
      ]) {
        expect([res.status, codeOf(res)]).toEqual([404, "NOT_FOUND"]);
      }
    });
  });

  describe("resize (PATCH size_gb)", () => {
    test("a larger size grows the volume", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      const res = await resize(volume.id, 20);
      expect(res.status).toBe(200);
      expect(res.body.size_gb).toBe(20);
      expect(res.body.updated_at > volume.updated_at).toBe(true);
    });

    test("§7 400 SHRINK_NOT_SUPPORTED for a smaller size", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      const res = await resize(volume.id, 5);
      expect([res.status, codeOf(res)]).toEqual([400, "SHRINK_NOT_SUPPORTED"]);
      expect(h.sim.control.snapshot().volumes[0].size_gb).toBe(10);
    });

    test("§7 ordering 2: a shrink is rejected before the capacity gate (and before billing)", async () => {
      const volume = await createVolume(h.alice, { size_gb: 100 });
      h.sim.control.setSwitches({ capacityGb: 10, billing: "insufficient_balance" });
      expect(codeOf(await resize(volume.id, 50))).toBe("SHRINK_NOT_SUPPORTED");
    });

    test("§7 ordering 1: a resize to the same size skips the billing gate", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      h.sim.control.setSwitches({ billing: "suspended" });
      const res = await resize(volume.id, 10);
      expect(res.status).toBe(200);
      expect(res.body.size_gb).toBe(10);
    });

    test("a resize to the same size skips the capacity gate", async () => {
      const volume = await createVolume(h.alice, { size_gb: 100 });
      h.sim.control.setSwitches({ capacityGb: 50 });
      expect((await resize(volume.id, 100)).status).toBe(200);
    });

    test("§7 402 INSUFFICIENT_BALANCE on resize to a larger size", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      h.sim.control.setSwitches({ billing: "insufficient_balance" });
      const res = await resize(volume.id, 11);
      expect([res.status, codeOf(res)]).toEqual([402, "INSUFFICIENT_BALANCE"]);
    });

    test("§7 403 ACCOUNT_SUSPENDED on resize to a larger size", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      h.sim.control.setSwitches({ billing: "suspended" });
      const res = await resize(volume.id, 11);
      expect([res.status, codeOf(res)]).toEqual([403, "ACCOUNT_SUSPENDED"]);
    });

    test("§7 409 INSUFFICIENT_CAPACITY on an expansion beyond what the account can reserve", async () => {
      const volume = await createVolume(h.alice, { size_gb: 60 });
      await createVolume(h.alice, { name: "other", size_gb: 30 });
      expect((await resize(volume.id, 70)).status).toBe(200); // only the growth (10) counts: 100 of 100
      const res = await resize(volume.id, 71);
      expect([res.status, codeOf(res)]).toEqual([409, "INSUFFICIENT_CAPACITY"]);
    });

    test("a larger resize hits billing before capacity", async () => {
      const volume = await createVolume(h.alice, { size_gb: 100 });
      h.sim.control.setSwitches({ billing: "not_initialized" });
      expect(codeOf(await resize(volume.id, 200))).toBe("ACCOUNT_NOT_INITIALIZED");
      h.sim.control.setSwitches({ billing: "ok" });
      expect(codeOf(await resize(volume.id, 200))).toBe("INSUFFICIENT_CAPACITY");
    });

    test("§7 409 PROJECT_SUSPENDED on resize", async () => {
      const volume = await createVolume(h.alice, { size_gb: 10 });
      h.sim.control.setProjectSuspended(ALICE_PROJECT, true);
      expect(codeOf(await resize(volume.id, 20))).toBe("PROJECT_SUSPENDED");
    });

    test("400 VALIDATION_FAILED for a size_gb that is not a positive integer", async () => {
      const volume = await createVolume(h.alice);
      const res = await h.alice.patch(p(`/volumes/${volume.id}`), { size_gb: "20" });
      expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
    });
  });

  describe("attach (§8.2 ReadWriteOnce, enforced server-side)", () => {
    test("§2.9 success: 201 attachment record", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      const res = await attach(volume.id, mount(web.id));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        volume_id: volume.id,
        container_id: web.id,
        mount_path: "/data",
        read_only: false,
        created_at: expect.any(String),
      });
    });

    test("§7 404 NOT_FOUND when the target app is missing", async () => {
      const volume = await createVolume(h.alice);
      const res = await attach(volume.id, mount("33333333-3333-4333-8333-333333333333"));
      expect([res.status, codeOf(res)]).toEqual([404, "NOT_FOUND"]);
    });

    test("§7 404 NOT_FOUND when the target app is another user's", async () => {
      const bobs = await createContainer(h.bob, {}, BOB_PROJECT);
      const volume = await createVolume(h.alice);
      expect(codeOf(await attach(volume.id, mount(bobs.id)))).toBe("NOT_FOUND");
    });

    test("§7 409 PROJECT_SUSPENDED on attach", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      h.sim.control.setProjectSuspended(ALICE_PROJECT, true);
      expect(codeOf(await attach(volume.id, mount(web.id)))).toBe("PROJECT_SUSPENDED");
    });

    test("§7 409 ALREADY_ATTACHED: the volume is already attached to this same container", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      const res = await attach(volume.id, mount(web.id, "/other"));
      expect([res.status, codeOf(res)]).toEqual([409, "ALREADY_ATTACHED"]);
    });

    test("§7 409 VOLUME_ALREADY_ATTACHED: one consumer at a time (§8.2)", async () => {
      const web = await createContainer(h.alice);
      const worker = await createContainer(h.alice, { name: "worker" });
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      const res = await attach(volume.id, mount(worker.id));
      expect([res.status, codeOf(res)]).toEqual([409, "VOLUME_ALREADY_ATTACHED"]);
    });

    test("§7 409 RWO_REPLICA_LIMIT: the target runs more than one replica (§8.2)", async () => {
      const web = await createContainer(h.alice, { replicas: 2 });
      const volume = await createVolume(h.alice);
      const res = await attach(volume.id, mount(web.id));
      expect([res.status, codeOf(res)]).toEqual([409, "RWO_REPLICA_LIMIT"]);
    });

    test("409 RWO_REPLICA_LIMIT: scaling an attached container above one replica", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      const res = await h.alice.patch(p(`/containers/${web.id}`), { replicas: 2 });
      expect([res.status, codeOf(res)]).toEqual([409, "RWO_REPLICA_LIMIT"]);
    });

    test("§7 409 MOUNT_PATH_IN_USE: the target has another volume at that mount_path (§8.2)", async () => {
      const web = await createContainer(h.alice);
      const first = await createVolume(h.alice, { name: "first" });
      const second = await createVolume(h.alice, { name: "second" });
      await attach(first.id, mount(web.id, "/data"));
      const res = await attach(second.id, mount(web.id, "/data"));
      expect([res.status, codeOf(res)]).toEqual([409, "MOUNT_PATH_IN_USE"]);
      expect((await attach(second.id, mount(web.id, "/cache"))).status).toBe(201);
    });

    test("order: same-container ALREADY_ATTACHED before RWO_REPLICA_LIMIT and MOUNT_PATH_IN_USE", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id, "/data"));
      h.sim.control.mutate("services", web.id, { replicas: 3 });
      expect(codeOf(await attach(volume.id, mount(web.id, "/data")))).toBe("ALREADY_ATTACHED");
    });

    test("order: RWO_REPLICA_LIMIT before MOUNT_PATH_IN_USE", async () => {
      const web = await createContainer(h.alice);
      const first = await createVolume(h.alice, { name: "first" });
      const second = await createVolume(h.alice, { name: "second" });
      await attach(first.id, mount(web.id, "/data"));
      h.sim.control.mutate("services", web.id, { replicas: 2 });
      expect(codeOf(await attach(second.id, mount(web.id, "/data")))).toBe("RWO_REPLICA_LIMIT");
    });

    test.each([
      [{ mount_path: "/data" }, "container_id"],
      [{ container_id: "x" }, "mount_path"],
      [{ container_id: "x", mount_path: "data" }, "mount_path"],
      [{ container_id: "x", mount_path: "/data", read_only: "yes" }, "read_only"],
    ])("400 VALIDATION_FAILED for %j names %s", async (body, field) => {
      const volume = await createVolume(h.alice);
      const res = await attach(volume.id, body);
      expect([res.status, codeOf(res)]).toEqual([400, "VALIDATION_FAILED"]);
      expect(res.body.message).toContain(field);
    });

    test("a managed database is not an attach target (404)", async () => {
      const db = (await h.alice.post(p("/postgres"), { name: "db" })).body.service;
      const volume = await createVolume(h.alice);
      expect(codeOf(await attach(volume.id, mount(db.id)))).toBe("NOT_FOUND");
    });

    test("§3 attach restarts the target: provisioning until serviceStartMs, updated_at moves, a log line", async () => {
      const web = await createContainer(h.alice);
      expect((await findService(h.alice, web.id))?.status).toBe("running");
      h.sim.control.setSwitches({ serviceStartMs: 150 });
      const volume = await createVolume(h.alice);
      expect((await attach(volume.id, mount(web.id, "/var/lib/app"))).status).toBe(201);

      const restarting = await findService(h.alice, web.id);
      expect(restarting?.status).toBe("provisioning");
      expect(restarting?.updated_at > web.updated_at).toBe(true);
      await eventually(
        () => findService(h.alice, web.id),
        (service) => service?.status === "running",
      );

      const logs = await h.alice.get(p(`/containers/${web.id}/logs`));
      expect(logs.text).toMatch(/Z restarted: volume data attached at \/var\/lib\/app\n/);
    });

    test("attaching to a stopped container leaves it stopped", async () => {
      const web = await createContainer(h.alice);
      await h.alice.post(p(`/containers/${web.id}/stop`));
      const volume = await createVolume(h.alice);
      expect((await attach(volume.id, mount(web.id))).status).toBe(201);
      expect((await findService(h.alice, web.id))?.status).toBe("stopped");
    });
  });

  describe("detach", () => {
    test("§3 detach removes the attachment, restarts the consumer; the volume is unchanged", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      const before = (await h.alice.get(p(`/volumes/${volume.id}`))).body;

      const res = await h.alice.post(p(`/volumes/${volume.id}/detach`), { container_id: web.id });
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      const after = (await h.alice.get(p(`/volumes/${volume.id}`))).body;
      expect(after).toEqual({ ...before, attachment: null });
      const logs = await h.alice.get(p(`/containers/${web.id}/logs`));
      expect(logs.text).toContain("restarted: volume data detached from /data");
    });

    test("the detached volume can be attached elsewhere", async () => {
      const web = await createContainer(h.alice);
      const worker = await createContainer(h.alice, { name: "worker" });
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      await h.alice.post(p(`/volumes/${volume.id}/detach`), { container_id: web.id });
      expect((await attach(volume.id, mount(worker.id))).status).toBe(201);
    });

    test("404 NOT_FOUND when there is no such attachment", async () => {
      const web = await createContainer(h.alice);
      const worker = await createContainer(h.alice, { name: "worker" });
      const volume = await createVolume(h.alice);
      expect(codeOf(await h.alice.post(p(`/volumes/${volume.id}/detach`), { container_id: web.id }))).toBe("NOT_FOUND");
      await attach(volume.id, mount(web.id));
      expect(codeOf(await h.alice.post(p(`/volumes/${volume.id}/detach`), { container_id: worker.id }))).toBe(
        "NOT_FOUND",
      );
    });
  });

  describe("delete", () => {
    test("§7 409 VOLUME_ATTACHED while an attachment remains (§8.4); 204 after detach", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      const res = await h.alice.delete(p(`/volumes/${volume.id}`));
      expect([res.status, codeOf(res)]).toEqual([409, "VOLUME_ATTACHED"]);
      await h.alice.post(p(`/volumes/${volume.id}/detach`), { container_id: web.id });
      const deleted = await h.alice.delete(p(`/volumes/${volume.id}`));
      expect([deleted.status, deleted.text]).toEqual([204, ""]);
      expect((await h.alice.get(p(`/volumes/${volume.id}`))).status).toBe(404);
    });

    test("deleting the container removes its attachment; the volume stays", async () => {
      const web = await createContainer(h.alice);
      const volume = await createVolume(h.alice);
      await attach(volume.id, mount(web.id));
      expect((await h.alice.delete(p(`/containers/${web.id}`))).status).toBe(204);
      const after = await h.alice.get(p(`/volumes/${volume.id}`));
      expect(after.status).toBe(200);
      expect(after.body.attachment).toBeNull();
      expect((await h.alice.delete(p(`/volumes/${volume.id}`))).status).toBe(204);
    });
  });
});
