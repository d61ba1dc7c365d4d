import { ALICE } from "../../simulator/src";
import { DIFF_SOME } from "./engine";
import { PROJECT, describeLifecycle, useFixture, type Fixture, type OutOfBand } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 50 });
const TYPE = "hosting:index:VolumeAttachment";
const ids = { app: "", volume: "", other: "" };

async function create(f: Fixture, type: string, name: string, props: Record<string, unknown>) {
  const { inputs } = await f.plugin.check(type, name, { name, ...props });
  return (await f.plugin.create(type, name, inputs)).id;
}

/** Calls the API directly as alice: changes made outside the Pulumi program. */
async function api(f: Fixture, method: string, path: string, body?: unknown) {
  const res = await fetch(`${f.sim.url}/v1/projects/${PROJECT}${path}`, {
    method,
    headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

const [volumeOf, containerOf] = [(id: string) => id.split(":")[0], (id: string) => id.split(":")[1]];
const detachOutOfBand: OutOfBand = (f, id) =>
  api(f, "POST", `/volumes/${volumeOf(id)}/detach`, { container_id: containerOf(id) });
const remountOutOfBand: OutOfBand = async (f, id) => {
  await detachOutOfBand(f, id);
  await api(f, "POST", `/volumes/${volumeOf(id)}/attach`, { container_id: containerOf(id), mount_path: "/elsewhere" });
};

beforeAll(async () => {
  ids.app = await create(fixture, "hosting:index:Container", "app", {
    image: "registry.example.com/team/app:1.0.0",
    replicas: 1,
  });
  ids.volume = await create(fixture, "hosting:index:Volume", "vol", { sizeGb: 5 });
  ids.other = await create(fixture, "hosting:index:Volume", "vol-b", { sizeGb: 5 });
});

describe("VolumeAttachment", () => {
  const inputs = {} as Record<string, unknown>;
  beforeAll(() => Object.assign(inputs, { volumeId: ids.volume, containerId: ids.app, mountPath: "/data" }));

  describeLifecycle("attach", fixture, {
    type: TYPE,
    inputs,
    replace: { mountPath: "/srv/data" },
    drift: { apply: remountOutOfBand, property: "mountPath" },
    remove: detachOutOfBand,
    unknownInput: "containerId",
  });

  test(
    "its id is <volumeId>:<containerId>, a change deletes before replacing, " + "and attach restarts the app",
    async () => {
      const { inputs: checked } = await fixture.plugin.check(TYPE, "second", {
        volumeId: ids.other,
        containerId: ids.app,
        mountPath: "/other",
      });
      const created = await fixture.plugin.create(TYPE, "second", checked);
      expect(created.id).toBe(`${ids.other}:${ids.app}`);
      expect(fixture.sim.control.snapshot().logs[ids.app].join("\n")).toMatch(/restart/i);
      const moved = await fixture.plugin.check(TYPE, "second", { ...checked, mountPath: "/moved" }, checked);
      const diff = await fixture.plugin.diff(TYPE, "second", created.id, created.properties, moved.inputs, checked);
      expect(diff).toMatchObject({ changes: DIFF_SOME, replaces: ["mountPath"], deleteBeforeReplace: true });
      await fixture.plugin.delete(TYPE, "second", created.id, created.properties);
      expect(fixture.sim.control.snapshot().attachments).toEqual([]);
    },
  );

  test("RWO rules come back as the API's codes", async () => {
    const { inputs: one } = await fixture.plugin.check(TYPE, "one", {
      volumeId: ids.other,
      containerId: ids.app,
      mountPath: "/x",
    });
    await fixture.plugin.create(TYPE, "one", one);
    const { inputs: clash } = await fixture.plugin.check(TYPE, "clash", {
      volumeId: ids.volume,
      containerId: ids.app,
      mountPath: "/x",
    });
    await expect(fixture.plugin.create(TYPE, "clash", clash)).rejects.toMatchObject({
      details: expect.stringMatching(/MOUNT_PATH_IN_USE/),
    });
  });

  test("a relative mountPath fails at check, naming the property", async () => {
    const { failures } = await fixture.plugin.check(TYPE, "bad", {
      volumeId: ids.volume,
      containerId: ids.app,
      mountPath: "data",
    });
    expect(failures).toEqual([
      { property: "mountPath", reason: expect.stringMatching(/relative; use an absolute path/) },
    ]);
  });
});
