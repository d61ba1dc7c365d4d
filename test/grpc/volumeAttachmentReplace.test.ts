// A VolumeAttachment the engine replaces without asking Diff (issue 43), each way as step_generator.go
// plays it (engine.ts `forceReplace`): the new one is created before the old one is deleted, on the same
// `<volumeId>:<containerId>` or on the app that replaced the old one. It ends attached exactly once, with no
// failed step, its preview sends nothing and refuses nothing the up does, and the next preview shows no
// change.
import { ALICE } from "../../simulator/src";
import { DIFF_NONE, Engine, Plugin, UNKNOWN, type ForcedReplacement, type ResourceState } from "./engine";
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
/** The volume's attachments on the platform: one at most, if the platform keeps ReadWriteOnce. */
const attachmentsOf = (volumeId: string) =>
  fixture.sim.control
    .snapshot()
    .attachments.filter((a) => a.volume_id === volumeId)
    .map((a) => ({ app: a.container_id, at: a.mount_path, id: a.id }));
const warningsSince = (mark: number) =>
  fixture.plugin.engine.messages
    .slice(mark)
    .filter((m) => m.severity === 2 /* LogSeverity.WARNING */)
    .map((m) => m.message);

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
const program = (v: ResourceState, containerId: string, mountPath = "/data") => ({
  volumeId: v.id,
  containerId,
  mountPath,
});

/** A volume attached to an app at /data, as a first `up` leaves it. */
async function attached() {
  const [a, v] = [await app(), await volume()];
  const name = unique("att");
  const state = await engine().created(ATTACHMENT, name, program(v, a.id));
  expect(attachmentsOf(v.id)).toEqual([{ app: a.id, at: "/data", id: state.outputs.attachmentId }]);
  return { a, v, name, state };
}

/** The `up` ended attached once, to `appId` at `mountPath`, and the next preview shows no change. */
async function attachedOnce(
  name: string,
  v: ResourceState,
  appId: string,
  up: { state: ResourceState; error?: unknown },
  mountPath = "/data",
) {
  expect(up.error).toBeUndefined();
  expect(up.state.id).toBe(`${v.id}:${appId}`);
  expect(attachmentsOf(v.id)).toEqual([{ app: appId, at: mountPath, id: up.state.outputs.attachmentId }]);
  const next = await engine().preview(ATTACHMENT, name, program(v, appId, mountPath), up.state);
  expect(next.diff?.changes).toBe(DIFF_NONE);
}

describe("replaced on the same volume and app (the same id): created before the old one is deleted", () => {
  test.each<ForcedReplacement>(["--replace", "taint", "replacementTrigger"])(
    "%s: the preview sends nothing, the up re-attaches it once and the old one's delete leaves it",
    async (way) => {
      const { a, v, name, state } = await attached();
      const mark = fixture.mark();
      const preview = await engine().previewForced(ATTACHMENT, name, program(v, a.id), state, { way });
      expect(preview.error).toBeUndefined();
      expect(writes(mark)).toEqual([]);

      const messages = fixture.plugin.engine.messages.length;
      const up = await engine().forceReplace(ATTACHMENT, name, program(v, a.id), state, { way });
      expect(up.steps).toEqual(["create", "delete"]);
      // A new attachment record: the one the old resource's delete knows it is not.
      expect(up.state.outputs.attachmentId).not.toBe(state.outputs.attachmentId);
      await attachedOnce(name, v, a.id, up);
      // Only the targeted ways send no old inputs: the create cannot tell them from a second VolumeAttachment.
      expect(warningsSince(messages)).toEqual(
        way === "replacementTrigger" ? [] : [expect.stringMatching(/already attached to app .*`pulumi up --replace`/)],
      );
      // A refresh reads it there.
      const read = await fixture.plugin.read(ATTACHMENT, name, up.state.id, up.state.outputs, up.state.inputs);
      expect(read.id).toBe(up.state.id);
    },
  );

  test("--replace with deleteBeforeReplace: true: the preview passes with nothing sent, the up deletes first", async () => {
    const { a, v, name, state } = await attached();
    const options = { way: "--replace", deleteBeforeReplace: true } as const;
    const mark = fixture.mark();
    const preview = await engine().previewForced(ATTACHMENT, name, program(v, a.id), state, options);
    expect(preview.error).toBeUndefined();
    expect(writes(mark)).toEqual([]);
    const up = await engine().forceReplace(ATTACHMENT, name, program(v, a.id), state, options);
    expect(up.steps).toEqual(["delete", "create"]);
    await attachedOnce(name, v, a.id, up);
  });

  test("--replace of a program that also moves the mount path ends at the new path", async () => {
    const { a, v, name, state } = await attached();
    const up = await engine().forceReplace(ATTACHMENT, name, program(v, a.id, "/srv"), state);
    expect(up.steps).toEqual(["create", "delete"]);
    await attachedOnce(name, v, a.id, up, "/srv");
  });

  test("a replacementTrigger whose re-attach fails is attached back, says so, and the next up replaces it", async () => {
    const { a, v, name, state } = await attached();
    fixture.sim.control.injectFault({ kind: "status", status: 409, method: "POST", path: `/volumes/${v.id}/attach$` });
    const up = await engine().forceReplace(ATTACHMENT, name, program(v, a.id), state, { way: "replacementTrigger" });
    expect(up.error?.details).toMatch(/attached back there, at \/data: nothing changed on the platform/);
    expect(up.steps).toEqual(["create"]);
    expect(up.state.id).toBe(state.id);
    expect(attachmentsOf(v.id)).toEqual([{ app: a.id, at: "/data", id: up.state.outputs.attachmentId }]);
  });
});

describe("replaced with its app (replaceWith, deletedWith): the volume moves to the app that replaced the old one", () => {
  test.each<ForcedReplacement>(["replaceWith", "deletedWith"])(
    "%s: the preview sends nothing, the up moves it once, and the old app goes",
    async (way) => {
      const { a, v, name, state } = await attached();
      // The app is replaced first (autonamed: a new app before the old one is deleted); its id is unknown at preview.
      const mark = fixture.mark();
      const preview = await engine().previewForced(ATTACHMENT, name, program(v, UNKNOWN), state, { way });
      expect(preview).toMatchObject({ planned: { containerId: UNKNOWN } });
      expect(writes(mark)).toEqual([]);

      const b = await app();
      const up = await engine().forceReplace(ATTACHMENT, name, program(v, b.id), state, { way });
      // Under deletedWith the old one's delete is the old app's (step.go isDeletedWith).
      expect(up.steps).toEqual(way === "deletedWith" ? ["create"] : ["create", "delete"]);
      await fixture.plugin.delete(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs);
      await attachedOnce(name, v, b.id, up);
      expect(fixture.sim.control.snapshot().services.map((s) => s.id)).not.toContain(a.id);
    },
  );

  test("a move refused by the new app is refused before the detach: the volume stays where it was", async () => {
    const { a, v, name, state } = await attached();
    const crowded = await app(2);
    const mark = fixture.mark();
    const up = engine().forceReplace(ATTACHMENT, name, program(v, crowded.id), state, { way: "replaceWith" });
    await expect(up).rejects.toMatchObject({ details: expect.stringMatching(/RWO_REPLICA_LIMIT/) });
    expect(writes(mark)).toEqual([]);
    expect(attachmentsOf(v.id)).toEqual([{ app: a.id, at: "/data", id: state.outputs.attachmentId }]);
  });

  test("a move whose attach fails after the detach is attached back to the old app", async () => {
    const { a, v, name, state } = await attached();
    const b = await app();
    fixture.sim.control.injectFault({ kind: "status", status: 409, method: "POST", path: `/volumes/${v.id}/attach$` });
    const up = await engine().forceReplace(ATTACHMENT, name, program(v, b.id), state, { way: "replaceWith" });
    expect(up.error?.details).toMatch(
      new RegExp(`moving volume ${v.id} to app ${b.id} at /data failed: .*attached back there, at /data`),
    );
    expect(up.state).toMatchObject({ id: state.id, outputs: { containerId: a.id } });
    expect(attachmentsOf(v.id)).toEqual([{ app: a.id, at: "/data", id: up.state.outputs.attachmentId }]);
  });
});

describe("the old one's delete left pending by an interrupted run", () => {
  /** The next run: a plugin process of its own, which knows nothing of the last one. */
  async function nextRun() {
    const plugin = await Plugin.start();
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
    return plugin;
  }

  /** A replacement created on the same volume and app, whose run ended before it deleted the old one. */
  async function interrupted() {
    const { a, v, name, state } = await attached();
    const checked = await fixture.plugin.check(ATTACHMENT, name, program(v, a.id));
    const made = await fixture.plugin.create(ATTACHMENT, name, checked.inputs);
    const replacement: ResourceState = { id: made.id, inputs: checked.inputs, outputs: made.properties };
    expect(attachmentsOf(v.id)).toHaveLength(1);
    return { a, v, name, old: state, replacement };
  }

  test("the next up's Diff of the one that stays tells the pending delete to leave the volume attached", async () => {
    const { a, v, name, old, replacement } = await interrupted();
    const plugin = await nextRun();
    try {
      const same = await new Engine(plugin).preview(ATTACHMENT, name, program(v, a.id), replacement);
      expect(same.diff?.changes).toBe(DIFF_NONE);
      // GenerateDeletes: the pending delete, after every resource of the program was registered.
      await plugin.delete(ATTACHMENT, name, old.id, old.outputs, old.inputs);
      expect(attachmentsOf(v.id)).toEqual([{ app: a.id, at: "/data", id: replacement.outputs.attachmentId }]);
    } finally {
      await plugin.stop();
    }
  });

  test("pulumi destroy deletes both, and the volume is detached", async () => {
    const { v, name, old, replacement } = await interrupted();
    const plugin = await nextRun();
    try {
      await plugin.delete(ATTACHMENT, name, old.id, old.outputs, old.inputs);
      await plugin.delete(ATTACHMENT, name, replacement.id, replacement.outputs, replacement.inputs);
      expect(attachmentsOf(v.id)).toEqual([]);
    } finally {
      await plugin.stop();
    }
  });
});
