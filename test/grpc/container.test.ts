import { ALICE } from "../../simulator/src";
import { KIND, UNKNOWN, isSecret } from "./engine";
import { CONTAINER_LIFECYCLE, describeLifecycle, useFixture, PROJECT } from "./fixture";

const fixture = useFixture();
const TYPE = "hosting:index:Container";

describeLifecycle("web", fixture, CONTAINER_LIFECYCLE);

describe("Container behaviour", () => {
  async function createApp(name: string, extra: Record<string, unknown> = {}) {
    const { inputs } = await fixture.plugin.check(TYPE, name, {
      name,
      image: "registry.example.com/team/app:1.0.0",
      ...extra,
    });
    const created = await fixture.plugin.create(TYPE, name, inputs);
    return { id: created.id, outputs: created.properties, inputs };
  }

  test("running: false stops the app and true starts it again", async () => {
    const app = await createApp("toggle");
    expect(app.outputs.status).toBe("running");
    const stop = await fixture.plugin.check(TYPE, "toggle", { ...app.inputs, running: false }, app.inputs);
    const stopped = await fixture.plugin.update(TYPE, "toggle", app.id, app.outputs, stop.inputs, app.inputs);
    expect(stopped.properties).toMatchObject({ running: false, status: "stopped" });
    const start = await fixture.plugin.check(TYPE, "toggle", { ...app.inputs, running: true }, stop.inputs);
    const started = await fixture.plugin.update(TYPE, "toggle", app.id, stopped.properties, start.inputs, stop.inputs);
    expect(started.properties).toMatchObject({ running: true, status: "running" });
    const paths = fixture.sim.control.requests().map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain(`POST /v1/projects/${PROJECT}/containers/${app.id}/stop`);
    expect(paths).toContain(`POST /v1/projects/${PROJECT}/containers/${app.id}/start`);
  });

  test("running: false with another setting in the same update records the app stopped, not the PATCH's answer", async () => {
    const app = await createApp("stop-and-scale");
    const next = await fixture.plugin.check(
      TYPE,
      "stop-and-scale",
      { ...app.inputs, running: false, replicas: 2 },
      app.inputs,
    );
    const updated = await fixture.plugin.update(TYPE, "stop-and-scale", app.id, app.outputs, next.inputs, app.inputs);
    expect(fixture.sim.control.snapshot().services.find((s) => s.id === app.id)).toMatchObject({
      status: "stopped",
      replicas: 2,
    });
    expect(updated.properties).toMatchObject({ running: false, status: "stopped", replicas: 2 });
  });

  test("a changed restartTrigger restarts the app (and is kept in state)", async () => {
    const app = await createApp("restarter", { restartTrigger: "a" });
    const next = await fixture.plugin.check(TYPE, "restarter", { ...app.inputs, restartTrigger: "b" }, app.inputs);
    const diff = await fixture.plugin.diff(TYPE, "restarter", app.id, app.outputs, next.inputs, app.inputs);
    expect(diff.diffs).toEqual(["restartTrigger"]);
    const mark = fixture.mark();
    const updated = await fixture.plugin.update(TYPE, "restarter", app.id, app.outputs, next.inputs, app.inputs);
    expect(updated.properties.restartTrigger).toBe("b");
    expect(fixture.requestsSince(mark).map((r) => `${r.method} ${r.path}`)).toContain(
      `POST /v1/projects/${PROJECT}/containers/${app.id}/restart`,
    );
    expect(fixture.sim.control.snapshot().logs[app.id].join("\n")).toMatch(/restart/);
  });

  test("taking env out of the program clears the variables it had set", async () => {
    const app = await createApp("cleared", { env: { A: "1" } });
    const next = await fixture.plugin.check(
      TYPE,
      "cleared",
      { name: "cleared", image: "registry.example.com/team/app:1.0.0" },
      app.inputs,
    );
    const diff = await fixture.plugin.diff(TYPE, "cleared", app.id, app.outputs, next.inputs, app.inputs);
    expect(diff.detailedDiff).toEqual({ env: KIND.DELETE });
    const updated = await fixture.plugin.update(TYPE, "cleared", app.id, app.outputs, next.inputs, app.inputs);
    expect(updated.properties.env).toEqual({});
    expect(fixture.sim.control.snapshot().services.find((s) => s.id === app.id)!.env).toEqual({});
  });

  test("an update's preview marks the outputs an update may move as unknown, and keeps the rest", async () => {
    const app = await createApp("previewed");
    const next = await fixture.plugin.check(
      TYPE,
      "previewed",
      { ...app.inputs, image: "registry.example.com/team/app:2.0.0" },
      app.inputs,
    );
    const preview = await fixture.plugin.update(TYPE, "previewed", app.id, app.outputs, next.inputs, app.inputs, {
      preview: true,
    });
    expect(preview.properties).toMatchObject({
      status: UNKNOWN,
      updatedAt: UNKNOWN,
      publicUrl: app.outputs.publicUrl,
      image: "registry.example.com/team/app:2.0.0",
    });
  });

  test("replicas against autoscaling says what to do", async () => {
    const app = await createApp("scaled");
    fixture.sim.control.setAutoscaling(app.id, true);
    const next = await fixture.plugin.check(TYPE, "scaled", { ...app.inputs, replicas: 3 }, app.inputs);
    await expect(
      fixture.plugin.update(TYPE, "scaled", app.id, app.outputs, next.inputs, app.inputs),
    ).rejects.toMatchObject({
      details: expect.stringMatching(
        /autoscaling controls its instance count.*Remove `replicas`.*AUTOSCALING_OWNS_REPLICAS/s,
      ),
    });
  });

  test("getContainerLogs returns the app's log text", async () => {
    const app = await createApp("logged");
    const result = await fixture.plugin.invoke("hosting:index:getContainerLogs", { containerId: app.id });
    expect(result.failures).toEqual([]);
    expect(result.return.logs).toMatch(/created/);
    const missing = await fixture.plugin.invoke("hosting:index:getContainerLogs", {});
    expect(missing.failures).toEqual([expect.objectContaining({ property: "containerId" })]);
  });

  test("a bad image fails at check, naming the property, with no API call", async () => {
    const mark = fixture.mark();
    const { failures } = await fixture.plugin.check(TYPE, "bad", {
      name: "bad",
      image: "registry.example.com/team/app:latest",
    });
    expect(failures).toEqual([{ property: "image", reason: expect.stringMatching(/latest/) }]);
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test("an env var given as a secret stays a secret in the outputs", async () => {
    const { inputs } = await fixture.plugin.check(TYPE, "secretive", {
      name: "secretive",
      image: "registry.example.com/team/app:1.0.0",
      env: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: { API_KEY: "k" } },
    });
    expect(isSecret(inputs.env)).toBe(true);
    const created = await fixture.plugin.create(TYPE, "secretive", inputs);
    expect(isSecret(created.properties.env)).toBe(true);
    expect(ALICE.token).toBeDefined();
  });
});
