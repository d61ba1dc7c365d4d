// ignoreChanges as the engine uses it: passed to every Diff, a refresh's included (RefreshStep.Apply
// calls diffResource with the resource's ignoreChanges and does not filter the answer), and to
// Update; applied to the program's inputs before Check (processIgnoreChanges).
import { DIFF_NONE, DIFF_SOME, Engine, secret, type ResourceState } from "./engine";
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
