// ignoreChanges as the engine uses it: passed to every Diff, a refresh's included (RefreshStep.Apply
// calls diffResource with the resource's ignoreChanges and does not filter the answer), and to
// Update; applied to the program's inputs before Check (processIgnoreChanges).
import { DIFF_NONE, DIFF_SOME, Engine, KIND, plain, secret, type ResourceState } from "./engine";
import { CONTAINER, REGISTRY, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";

async function app(name: string): Promise<ResourceState> {
  return engine().created(CONTAINER, name, { name, image: IMAGE, env: { LOG_LEVEL: "info", MODE: "a" } });
}

describe("refresh", () => {
  test("env changed outside Pulumi is drift, unless env is in ignoreChanges", async () => {
    const state = await app("drifty");
    fixture.sim.control.mutate("services", state.id, { env: { LOG_LEVEL: "debug", MODE: "a", EXTRA: "1" } });
    const plain = await engine().refresh(CONTAINER, "drifty", state);
    expect(plain).toMatchObject({ gone: false, diff: { changes: DIFF_SOME, diffs: ["env"] } });
    const ignored = await engine().refresh(CONTAINER, "drifty", state, { ignoreChanges: ["env"] });
    expect(ignored).toMatchObject({ gone: false, diff: { changes: DIFF_NONE, diffs: [] } });
    // Nothing is stripped: the refreshed state holds the live env as it is.
    if (ignored.gone) throw new Error("gone");
    expect(ignored.state.outputs.env).toEqual({ LOG_LEVEL: "debug", MODE: "a", EXTRA: "1" });
  });

  test("one ignored key is no drift; another changed key still is", async () => {
    const state = await app("keyed");
    fixture.sim.control.mutate("services", state.id, { env: { LOG_LEVEL: "debug", MODE: "a" } });
    expect(await engine().refresh(CONTAINER, "keyed", state, { ignoreChanges: ["env.LOG_LEVEL"] })).toMatchObject({
      diff: { changes: DIFF_NONE },
    });
    fixture.sim.control.mutate("services", state.id, { env: { LOG_LEVEL: "debug", MODE: "b" } });
    expect(await engine().refresh(CONTAINER, "keyed", state, { ignoreChanges: ["env.LOG_LEVEL"] })).toMatchObject({
      diff: { changes: DIFF_SOME, diffs: ["env"] },
    });
  });
});

describe("up", () => {
  test("a program whose env differs only in an ignored key updates nothing", async () => {
    const state = await app("steady");
    const mark = fixture.mark();
    const up = await engine().up(
      CONTAINER,
      "steady",
      { name: "steady", image: IMAGE, env: { LOG_LEVEL: "warn", MODE: "a" } },
      state,
      { ignoreChanges: ["env.LOG_LEVEL"] },
    );
    expect(up.steps).toEqual([]);
    expect(up.diff?.changes).toBe(DIFF_NONE);
    expect(fixture.requestsSince(mark)).toEqual([]);
  });
});

describe("an ignored key changed outside Pulumi", () => {
  // The engine puts the old input at an ignored path (processIgnoreChanges); the diff compares with the
  // state's view of the platform. What up sends must be what the preview showed: the ignored key keeps
  // the value the platform has when the update is sent, never the old input (which would revert it).
  const program = (name: string) => ({ name, image: IMAGE, env: { X: "a", Y: "2" } });
  const options = { ignoreChanges: ["env.X"] };

  test("the preview shows only the other key, and up changes only that key", async () => {
    const state = await engine().created(CONTAINER, "portal", { ...program("portal"), env: { X: "a", Y: "1" } });
    fixture.sim.control.mutate("services", state.id, { env: { X: "set-in-the-portal", Y: "1" } });
    const preview = await engine().preview(CONTAINER, "portal", program("portal"), state, options);
    expect(preview.diff?.detailedDiff).toEqual({ "env.Y": KIND.UPDATE });
    const up = await engine().up(CONTAINER, "portal", program("portal"), state, options);
    expect(up).toMatchObject({ steps: ["update"], error: undefined });
    const live = fixture.sim.control.snapshot().services.find((s) => s.id === state.id)!;
    expect(live.env).toEqual({ X: "set-in-the-portal", Y: "2" });
    expect(plain(up.state.outputs).env).toEqual({ X: "set-in-the-portal", Y: "2" });
    const again = await engine().preview(CONTAINER, "portal", program("portal"), up.state, options);
    expect(again.diff?.changes).toBe(DIFF_NONE);
  });

  test("refreshed first, the same: the preview and the platform agree", async () => {
    const name = "portal-refreshed";
    const state = await engine().created(CONTAINER, name, { ...program(name), env: { X: "a", Y: "1" } });
    fixture.sim.control.mutate("services", state.id, { env: { X: "set-in-the-portal", Y: "1" } });
    const refreshed = await engine().refresh(CONTAINER, name, state, options);
    if (refreshed.gone) throw new Error("gone");
    const preview = await engine().preview(CONTAINER, name, program(name), refreshed.state, options);
    expect(preview.diff?.detailedDiff).toEqual({ "env.Y": KIND.UPDATE });
    await engine().up(CONTAINER, name, program(name), refreshed.state, options);
    const live = fixture.sim.control.snapshot().services.find((s) => s.id === state.id)!;
    expect(live.env).toEqual({ X: "set-in-the-portal", Y: "2" });
  });
});

describe("a registry whose password is in ignoreChanges", () => {
  let state: ResourceState;
  beforeAll(async () => {
    state = await engine().created(REGISTRY, "ghcr", {
      name: "ghcr",
      host: "ghcr.io",
      username: "ci",
      password: secret("first-password"),
    });
  });

  test("an update of another field fails at preview, saying what to do, and sends nothing", async () => {
    const mark = fixture.mark();
    const program = { name: "ghcr", host: "ghcr.io", username: "ci-bot", password: secret("rotated-elsewhere") };
    const preview = await engine().preview(REGISTRY, "ghcr", program, state, { ignoreChanges: ["password"] });
    expect(preview.diff?.diffs).toEqual(["username"]);
    expect(preview.error).toMatchObject({
      code: 3,
      details: expect.stringMatching(
        new RegExp(
          /^password is in ignoreChanges, but this update \(of username\) must send it: /.source +
            /.* never returns its password.*take password out of ignoreChanges/.source,
        ),
      ),
    });
    expect(preview.error!.details).not.toContain("first-password");
    // `pulumi up --skip-preview` sends the real update: refused the same way.
    await expect(engine().up(REGISTRY, "ghcr", program, state, { ignoreChanges: ["password"] })).rejects.toMatchObject({
      code: 3,
    });
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test("a change of the password alone, ignored, is no change at all", async () => {
    const up = await engine().up(
      REGISTRY,
      "ghcr",
      { name: "ghcr", host: "ghcr.io", username: "ci", password: secret("other") },
      state,
      { ignoreChanges: ["password"] },
    );
    expect(up.steps).toEqual([]);
  });

  test("without ignoreChanges the update sends the program's password", async () => {
    const up = await engine().up(
      REGISTRY,
      "ghcr",
      { name: "ghcr", host: "ghcr.io", username: "ci-bot", password: secret("new-password") },
      state,
    );
    expect(up.steps).toEqual(["update"]);
    expect(fixture.sim.control.snapshot().registries.find((r) => r.id === state.id)).toMatchObject({
      username: "ci-bot",
      password: "new-password",
    });
  });
});
