// An attach or detach is retried like a safe request, each attempt whose outcome is unknown judged by
// the volume read after it: an attach whose answer is lost (the server acted, then the connection
// dropped) is recorded when the volume shows exactly that attachment, rather than left on the server
// unrecorded; one that did not act is sent again.
import { useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const IMAGE = "registry.example.com/acme/web:1.0.0";

async function volumeAndApp(suffix: string) {
  const { plugin } = fixture;
  const v = await plugin.check("hosting:index:Volume", `data-${suffix}`, { name: `data-${suffix}`, sizeGb: 1 });
  const volume = await plugin.create("hosting:index:Volume", `data-${suffix}`, v.inputs);
  const c = await plugin.check("hosting:index:Container", `web-${suffix}`, { name: `web-${suffix}`, image: IMAGE });
  const app = await plugin.create("hosting:index:Container", `web-${suffix}`, c.inputs);
  const a = await plugin.check("hosting:index:VolumeAttachment", `att-${suffix}`, {
    volumeId: volume.id,
    containerId: app.id,
    mountPath: "/data",
  });
  return { volume, app, inputs: a.inputs };
}

test(
  "connection reset after the server attached: the create answers with the id, " + "and warns what is not known",
  async () => {
    const { volume, app, inputs } = await volumeAndApp("reset");
    fixture.sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/attach$" });
    const before = fixture.plugin.engine.messages.length;
    const created = await fixture.plugin.create("hosting:index:VolumeAttachment", "att-reset", inputs);
    expect(created.id).toBe(`${volume.id}:${app.id}`);
    expect(created.properties).toMatchObject({
      volumeId: volume.id,
      containerId: app.id,
      mountPath: "/data",
      readOnly: false,
    });
    expect(fixture.sim.control.snapshot().attachments).toEqual([
      expect.objectContaining({ volume_id: volume.id, container_id: app.id }),
    ]);
    const warnings = fixture.plugin.engine.messages.slice(before).filter((m) => m.severity === 2);
    expect(warnings.map((m) => m.message)).toEqual([
      expect.stringMatching(/answer to the attach request was lost.*attachmentId and createdAt are not known/),
    ]);
    const read = await fixture.plugin.read(
      "hosting:index:VolumeAttachment",
      "att-reset",
      created.id,
      created.properties,
      inputs,
    );
    expect(read.id).toBe(created.id);
  },
);

test("a reset before the server acted: the volume shows no attachment, so the attach is sent again, once", async () => {
  const { inputs } = await volumeAndApp("before");
  const mark = fixture.sim.control.requests().length;
  fixture.sim.control.injectFault({ kind: "reset_before", method: "POST", path: "/attach$" });
  const created = await fixture.plugin.create("hosting:index:VolumeAttachment", "att-before", inputs);
  expect(created.properties.attachmentId).toEqual(expect.any(String));
  const attaches = fixture.sim.control
    .requests()
    .slice(mark)
    .filter((r) => r.method === "POST" && r.path.endsWith("/attach"));
  expect(attaches.map((r) => r.status)).toEqual(["reset", 201]);
  expect(fixture.sim.control.snapshot().attachments.filter((a) => a.volume_id === inputs.volumeId)).toHaveLength(1);
});

test("an attach refused for good (a 409) is not sent again, and the failure stands", async () => {
  const { inputs } = await volumeAndApp("refused");
  const mark = fixture.sim.control.requests().length;
  fixture.sim.control.injectFault({ kind: "status", status: 409, method: "POST", path: "/attach$" });
  await expect(fixture.plugin.create("hosting:index:VolumeAttachment", "att-refused", inputs)).rejects.toMatchObject({
    details: expect.stringMatching(/HTTP 409/),
  });
  const attaches = fixture.sim.control
    .requests()
    .slice(mark)
    .filter((r) => r.method === "POST" && r.path.endsWith("/attach"));
  expect(attaches).toHaveLength(1);
  expect(fixture.sim.control.snapshot().attachments.filter((a) => a.volume_id === inputs.volumeId)).toEqual([]);
});

test(
  "a detach whose answer is lost: a volume that shows the app detached counts as done, " + "with no second detach",
  async () => {
    const { inputs } = await volumeAndApp("detach");
    const created = await fixture.plugin.create("hosting:index:VolumeAttachment", "att-detach", inputs);
    const mark = fixture.sim.control.requests().length;
    fixture.sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/detach$" });
    await fixture.plugin.delete("hosting:index:VolumeAttachment", "att-detach", created.id, created.properties, inputs);
    const detaches = fixture.sim.control
      .requests()
      .slice(mark)
      .filter((r) => r.method === "POST" && r.path.endsWith("/detach"));
    expect(detaches).toHaveLength(1);
    expect(fixture.sim.control.snapshot().attachments.filter((a) => a.volume_id === inputs.volumeId)).toEqual([]);
  },
);

test("a 503 before the detach acted: the volume still shows the app, so the detach is sent again", async () => {
  const { inputs } = await volumeAndApp("detach-503");
  const created = await fixture.plugin.create("hosting:index:VolumeAttachment", "att-detach-503", inputs);
  const mark = fixture.sim.control.requests().length;
  fixture.sim.control.injectFault({ kind: "status", status: 503, method: "POST", path: "/detach$" });
  await fixture.plugin.delete(
    "hosting:index:VolumeAttachment",
    "att-detach-503",
    created.id,
    created.properties,
    inputs,
  );
  const detaches = fixture.sim.control
    .requests()
    .slice(mark)
    .filter((r) => r.method === "POST" && r.path.endsWith("/detach"));
  expect(detaches.map((r) => r.status)).toEqual([503, 204]);
  expect(fixture.sim.control.snapshot().attachments.filter((a) => a.volume_id === inputs.volumeId)).toEqual([]);
});
