import { ALICE } from "../../simulator/src";
import { Engine, Plugin, initFailure, type GrpcFailure } from "./engine";
import { PROJECT, describeLifecycle, mutate, removeRecord, useFixture } from "./fixture";
import { pollingAfterWrite, until } from "./until";

const fixture = useFixture({ volumeProvisioningMs: 300 });
const TYPE = "hosting:index:Volume";

describeLifecycle("data", fixture, {
  type: TYPE,
  inputs: { name: "data", sizeGb: 10 },
  update: { sizeGb: 20 },
  replace: { name: "data-2" },
  // Grown out of band past what the program says: a refresh shows it as drift (Check then refuses the shrink).
  drift: { apply: mutate("volumes", { size_gb: 40 }), property: "sizeGb" },
  remove: removeRecord("volumes"),
  unknownInput: "sizeGb",
});

describe("Volume behaviour", () => {
  afterEach(() => fixture.sim.control.setSwitches({ volumesEnabled: true, volumeProvisioningMs: 300 }));

  test("create waits until running and reports progress on the resource's URN", async () => {
    // Ready only once the plugin has said it waits (however slow the machine, it has polled it provisioning).
    fixture.sim.control.setSwitches({ volumeProvisioningMs: -1 });
    const before = fixture.plugin.engine.messages.length;
    const { inputs } = await fixture.plugin.check(TYPE, "slow", { name: "slow", sizeGb: 5 });
    const creating = fixture.plugin.create(TYPE, "slow", inputs);
    await until(() => fixture.plugin.engine.messages.length > before, "the volume's progress");
    fixture.sim.control.setVolumeReady(fixture.sim.control.snapshot().volumes.find((v) => v.name === "slow")!.id);
    const created = await creating;
    expect(created.properties.status).toBe("running");
    const progress = fixture.plugin.engine.messages.slice(before);
    expect(progress.length).toBeGreaterThan(0);
    for (const m of progress) {
      expect(m).toMatchObject({ severity: 1, ephemeral: true, urn: expect.stringContaining("::slow") });
      expect(m.message).toMatch(/^waiting for volume slow to be running \(\d+s\)$/);
    }
  });

  test("a wait that outlasts the timeout fails as a partial failure that keeps the volume in state", async () => {
    fixture.sim.control.setSwitches({ volumeProvisioningMs: -1 });
    const { inputs } = await fixture.plugin.check(TYPE, "stuck", { name: "stuck", sizeGb: 5 });
    const err = (await fixture.plugin.create(TYPE, "stuck", inputs, { timeout: 1 }).catch((e) => e)) as GrpcFailure;
    const detail = initFailure(err);
    expect(detail).toBeDefined();
    const onServer = fixture.sim.control.snapshot().volumes.find((v) => v.name === "stuck");
    expect(detail!.id).toBe(onServer!.id);
    expect(detail!.properties).toMatchObject({ name: "stuck", sizeGb: 5, status: "provisioning" });
    expect(detail!.reasons[0]).toMatch(/gave up waiting.*recorded in state/);
  });

  test("Cancel ends a wait promptly with a partial failure", async () => {
    // Cancel is the engine's last word to a plugin, so this one gets a plugin of its own.
    const plugin = await Plugin.start();
    try {
      await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
      fixture.sim.control.setSwitches({ volumeProvisioningMs: -1 });
      const { inputs } = await plugin.check(TYPE, "cancelled", { name: "cancelled", sizeGb: 5 });
      const mark = fixture.mark();
      const creating = plugin.create(TYPE, "cancelled", inputs).catch((e) => e as GrpcFailure);
      await until(() => pollingAfterWrite(fixture.requestsSince(mark), /\/volumes$/), "the volume's wait");
      await plugin.cancel();
      // The volume never provisions: the create answers only because Cancel ended its wait.
      const err = await creating;
      expect(initFailure(err as GrpcFailure)?.id).toBe(
        fixture.sim.control.snapshot().volumes.find((v) => v.name === "cancelled")!.id,
      );

      // An operation that starts after Cancel is cancelled too, before it creates anything.
      const later = await plugin
        .create(TYPE, "after-cancel", { ...inputs, name: "after-cancel" })
        .catch((e) => e as GrpcFailure);
      expect(later).toBeInstanceOf(Error);
      expect(fixture.sim.control.snapshot().volumes.find((v) => v.name === "after-cancel")).toBeUndefined();
    } finally {
      await plugin.stop();
    }
  });

  test("volumes created together share their polls: five waits cost about the list reads of one", async () => {
    fixture.sim.control.setSwitches({ volumeProvisioningMs: 1500 });
    const listReads = (mark: number) =>
      fixture.requestsSince(mark).filter((r) => r.method === "GET" && /\/volumes$/.test(r.path)).length;
    const createAll = async (names: string[]) => {
      const checked = await Promise.all(names.map((name) => fixture.plugin.check(TYPE, name, { name, sizeGb: 1 })));
      const mark = fixture.mark();
      const created = await Promise.all(names.map((name, i) => fixture.plugin.create(TYPE, name, checked[i].inputs)));
      expect(created.map((c) => c.properties.status)).toEqual(names.map(() => "running"));
      expect(fixture.requestsSince(mark).filter((r) => r.method === "GET" && /\/volumes\/[^/]+$/.test(r.path))).toEqual(
        [],
      );
      return listReads(mark);
    };
    const alone = await createAll(["alone"]);
    const together = await createAll(["t1", "t2", "t3", "t4", "t5"]);
    expect(alone).toBeGreaterThan(1);
    expect(together).toBeLessThanOrEqual(alone + 2);
  });

  test("a shrink fails at the update's preview against the live size, with no API call", async () => {
    const { inputs } = await fixture.plugin.check(TYPE, "shrunk", { name: "shrunk", sizeGb: 10 });
    const created = await fixture.plugin.create(TYPE, "shrunk", inputs);
    const mark = fixture.mark();
    const preview = await new Engine(fixture.plugin).preview(
      TYPE,
      "shrunk",
      { name: "shrunk", sizeGb: 5 },
      { id: created.id, inputs, outputs: created.properties },
    );
    expect(preview.diff?.diffs).toEqual(["sizeGb"]);
    expect(preview.error).toMatchObject({
      code: 3,
      details: expect.stringMatching(/^sizeGb can only grow: it is 10 now.*Use 10 or more/),
    });
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test("BLOCK_VOLUME_DISABLED reads as a plain sentence about the feature being off", async () => {
    fixture.sim.control.setSwitches({ volumesEnabled: false });
    const { inputs } = await fixture.plugin.check(TYPE, "off", { name: "off", sizeGb: 5 });
    await expect(fixture.plugin.create(TYPE, "off", inputs)).rejects.toMatchObject({
      details: expect.stringMatching(/^Block volumes are turned off on this platform.*BLOCK_VOLUME_DISABLED/s),
    });
    expect(ALICE.token).toBeDefined();
  });
});
