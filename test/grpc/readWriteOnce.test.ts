// ReadWriteOnce at preview (issue 29): the rules the API enforces only at apply time (one consumer
// a volume, one replica an app that has one, one volume a mount path, and no raising the replicas
// of an app that has one) are judged against the live world before any write, as the engine plays
// a preview and an `up`, a volume looked for twice before a 404 counts (issue 43); and a volume moved
// to another app never ends up nowhere.
import { DIFF_SOME, Engine, UNKNOWN, type ResourceState } from "./engine";
import { CONTAINER, PROJECT, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const ATTACHMENT = "hosting:index:VolumeAttachment";
const IMAGE = "registry.example.com/team/store:1.0.0";

const writes = (mark: number) =>
  fixture
    .requestsSince(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path.replace(`/v1/projects/${PROJECT}`, "")}`);
const attachmentOf = (volumeId: string) =>
  fixture.sim.control.snapshot().attachments.find((a) => a.volume_id === volumeId);

let counter = 0;
const unique = (base: string) => `${base}-${++counter}`;

async function app(replicas = 1): Promise<ResourceState> {
  const name = unique("app");
  return engine().created(CONTAINER, name, { name, image: IMAGE, replicas });
}
async function volume(): Promise<ResourceState> {
  const name = unique("vol");
  return engine().created(VOLUME, name, { name, sizeGb: 1 });
}
const attachment = (v: ResourceState, a: ResourceState, mountPath = "/data") => ({
  volumeId: v.id,
  containerId: a.id,
  mountPath,
});

/** A preview of a new attachment, as the engine sends it: Check, then Create with preview. */
async function previewAttach(program: Record<string, unknown>) {
  const checked = await fixture.plugin.check(ATTACHMENT, unique("att"), program);
  expect(checked.failures).toEqual([]);
  return fixture.plugin.create(ATTACHMENT, unique("att"), checked.inputs, { preview: true });
}

describe("refused at preview, before any write, naming the rule, the app, the volume and the fix", () => {
  test("RWO_REPLICA_LIMIT: a volume attached to an app of 2 replicas", async () => {
    const [a, v] = [await app(2), await volume()];
    const mark = fixture.mark();
    await expect(previewAttach(attachment(v, a))).rejects.toMatchObject({
      details: expect.stringMatching(
        new RegExp(
          `RWO_REPLICA_LIMIT \\(ReadWriteOnce\\): app ${a.inputs.name} runs 2 replicas.*volume ${v.inputs.name} cannot be attached.*Set replicas: 1`,
        ),
      ),
    });
    expect(writes(mark)).toEqual([]);
  });

  test("MOUNT_PATH_IN_USE: a second volume at a mount path in use", async () => {
    const [a, v1, v2] = [await app(), await volume(), await volume()];
    await engine().created(ATTACHMENT, unique("att"), attachment(v1, a));
    const mark = fixture.mark();
    await expect(previewAttach(attachment(v2, a))).rejects.toMatchObject({
      details: expect.stringMatching(
        new RegExp(
          `MOUNT_PATH_IN_USE \\(ReadWriteOnce\\): app ${a.inputs.name} already has volume ${v1.inputs.name} at /data.*Choose another mountPath`,
        ),
      ),
    });
    expect(writes(mark)).toEqual([]);
    // Another path is fine.
    await expect(previewAttach(attachment(v2, a, "/other"))).resolves.toBeDefined();
  });

  test("VOLUME_ALREADY_ATTACHED: a volume that already has a consumer", async () => {
    const [a, b, v] = [await app(), await app(), await volume()];
    await engine().created(ATTACHMENT, unique("att"), attachment(v, a));
    const mark = fixture.mark();
    await expect(previewAttach(attachment(v, b))).rejects.toMatchObject({
      details: expect.stringMatching(
        new RegExp(
          `VOLUME_ALREADY_ATTACHED \\(ReadWriteOnce\\): volume ${v.inputs.name} is attached to app ${a.inputs.name}.*cannot also be attached to app ${b.inputs.name}.*change the containerId`,
        ),
      ),
    });
    expect(writes(mark)).toEqual([]);
  });

  test("raising the replicas of an app that has a volume attached: its update's preview fails, and so does the update", async () => {
    const [a, v] = [await app(), await volume()];
    await engine().created(ATTACHMENT, unique("att"), attachment(v, a));
    const program = { ...a.inputs, replicas: 3 };
    const mark = fixture.mark();
    const preview = await engine().preview(CONTAINER, String(a.inputs.name), program, a);
    expect(preview.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["replicas"] });
    expect(preview.error?.details).toMatch(
      new RegExp(
        `RWO_REPLICA_LIMIT \\(ReadWriteOnce\\): app ${a.inputs.name} has volume ${v.inputs.name} at /data attached.*cannot rise from 1 to 3.*Keep replicas: 1`,
      ),
    );
    await expect(engine().up(CONTAINER, String(a.inputs.name), program, a)).rejects.toMatchObject({
      details: expect.stringMatching(/RWO_REPLICA_LIMIT/),
    });
    expect(writes(mark)).toEqual([]);
    // Other changes of the app still go through.
    const up = await engine().up(CONTAINER, String(a.inputs.name), { ...a.inputs, displayName: "Store" }, a);
    expect(up.error).toBeUndefined();
  });

  test(
    "an app new in the same run (its id unknown at preview) is judged just before the attach, " + "which is never sent",
    async () => {
      const v = await volume();
      const preview = await previewAttach({ volumeId: v.id, containerId: UNKNOWN, mountPath: "/data" });
      expect(preview.properties.containerId).toBe(UNKNOWN);
      const a = await app(2);
      const mark = fixture.mark();
      const { error } = await engine()
        .create(ATTACHMENT, unique("att"), attachment(v, a))
        .catch((err) => ({ error: err }));
      expect(error?.details).toMatch(/RWO_REPLICA_LIMIT/);
      expect(writes(mark)).toEqual([]);
      expect(attachmentOf(v.id)).toBeUndefined();
    },
  );
});

describe("moving a volume to another app (a replacement that detaches first)", () => {
  async function attached() {
    const [a, b, v] = [await app(), await app(), await volume()];
    const state = await engine().created(ATTACHMENT, unique("att"), attachment(v, a));
    return { a, b, v, state };
  }

  test("a move the rules allow previews and goes through: the hold it frees does not count", async () => {
    const { b, v, state } = await attached();
    const name = "move-ok";
    const program = attachment(v, b);
    const preview = await engine().preview(ATTACHMENT, name, program, state);
    expect(preview).toMatchObject({ diff: { replaces: ["containerId"] }, planned: { containerId: b.id } });
    const up = await engine().up(ATTACHMENT, name, program, state);
    expect({ steps: up.steps, error: up.error?.details }).toEqual({ steps: ["delete", "create"], error: undefined });
    expect(attachmentOf(v.id)).toMatchObject({ container_id: b.id });
  });

  test(
    "a move the rules refuse fails at preview, and at the up before the detach: " + "the volume stays where it was",
    async () => {
      const { a, v, state } = await attached();
      const crowded = await app(2);
      const program = attachment(v, crowded);
      const mark = fixture.mark();
      const preview = await engine().preview(ATTACHMENT, "move-refused", program, state);
      expect(preview.error?.details).toMatch(/RWO_REPLICA_LIMIT/);
      await expect(engine().up(ATTACHMENT, "move-refused", program, state)).rejects.toMatchObject({
        details: expect.stringMatching(/RWO_REPLICA_LIMIT/),
      });
      expect(writes(mark)).toEqual([]);
      expect(attachmentOf(v.id)).toMatchObject({ container_id: a.id, mount_path: "/data" });
    },
  );

  test("an attach that fails after the detach attaches the volume back, says so, and records it", async () => {
    const { a, b, v, state } = await attached();
    fixture.sim.control.injectFault({
      kind: "status",
      status: 409,
      method: "POST",
      path: `/volumes/${v.id}/attach$`,
      times: 1,
    });
    const up = await engine().up(ATTACHMENT, "move-back", attachment(v, b), state);
    expect(up.error?.details).toMatch(
      new RegExp(
        `moving volume ${v.id} to app ${b.id} at /data failed: .*attached back there, at /data: nothing changed on the platform`,
      ),
    );
    expect(attachmentOf(v.id)).toMatchObject({ container_id: a.id, mount_path: "/data" });
    expect(up.state).toMatchObject({ id: `${v.id}:${a.id}`, outputs: { containerId: a.id } });
    // The next preview shows the move again.
    const again = await engine().preview(ATTACHMENT, "move-back", attachment(v, b), up.state);
    expect(again.diff).toMatchObject({ replaces: ["containerId"] });
  });
});

describe("a volume is looked for twice before a 404 counts, as a Read looks (client.ts `findRecord`)", () => {
  const notFoundOnce = (volumeId: string) =>
    fixture.sim.control.injectFault({ kind: "status", status: 404, method: "GET", path: `/volumes/${volumeId}$` });
  async function attached() {
    const [a, v] = [await app(), await volume()];
    const name = unique("att");
    return { a, v, name, state: await engine().created(ATTACHMENT, name, attachment(v, a)) };
  }

  test("raising an app's replicas from 1 to 3 with a volume attached: one 404 on the volume's GET, and the preview still refuses", async () => {
    const { a, v } = await attached();
    notFoundOnce(v.id);
    const mark = fixture.mark();
    const preview = await engine().preview(CONTAINER, String(a.inputs.name), { ...a.inputs, replicas: 3 }, a);
    expect(preview.error?.details).toMatch(
      new RegExp(`RWO_REPLICA_LIMIT \\(ReadWriteOnce\\): app ${a.inputs.name} has volume ${v.inputs.name} at /data`),
    );
    expect(fixture.sim.control.faults()).toEqual([]); // the 404 was answered, and looked past
    expect(writes(mark)).toEqual([]);
  });

  test("a second volume at a mount path in use: one 404 on the first volume's GET, and the preview still refuses", async () => {
    const { a, v } = await attached();
    const other = await volume();
    notFoundOnce(v.id);
    const mark = fixture.mark();
    await expect(previewAttach(attachment(other, a))).rejects.toMatchObject({
      details: expect.stringMatching(/MOUNT_PATH_IN_USE/),
    });
    expect(fixture.sim.control.faults()).toEqual([]);
    expect(writes(mark)).toEqual([]);
  });

  test("a refresh of an attachment: one 404 on its volume's GET, and it still reads attached", async () => {
    const { v, name, state } = await attached();
    notFoundOnce(v.id);
    const read = await fixture.plugin.read(ATTACHMENT, name, state.id, state.outputs, state.inputs);
    expect(read.id).toBe(state.id);
    expect(fixture.sim.control.faults()).toEqual([]);
  });
});
