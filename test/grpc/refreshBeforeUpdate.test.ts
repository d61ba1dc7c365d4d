// Refresh before update (DESIGN): a resource left as a partial failure asks the engine to refresh
// it before its next update (refresh_before_update), so the next preview diffs against the live
// platform without `--refresh`; hosting:refreshBeforeUpdate asks it for every resource. A resource
// that is fine again clears the mark. engine.ts refreshes flagged resources first (Read, then the
// refresh's Diff), as deployment_executor.go does in `pulumi up` and `pulumi preview` alike.
import { ALICE } from "../../simulator/src";
import { DIFF_SOME, Engine, Plugin } from "./engine";
import { CONTAINER, PROJECT, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const GOOD = "registry.example.com/team/web:1.0.0";
const BAD = "registry.example.com/team/web:2.0.0-bad";

afterEach(() => fixture.sim.control.setSwitches({ crashingImageTags: [] }));

test("a failed rollout asks for a refresh first; the next preview sees the live app; a healthy update clears the mark", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
  const created = await engine().create(CONTAINER, "rollout", { image: BAD });
  expect(created.error?.details).toMatch(/failed to start/);
  expect(created.state.refreshBeforeUpdate).toBe(true);
  // Someone fixes it outside Pulumi: the next preview, without --refresh, sees that first.
  fixture.sim.control.setSwitches({ crashingImageTags: [] });
  fixture.sim.control.mutate("services", created.state.id, { image: GOOD, status: "running" });
  const preview = await engine().preview(CONTAINER, "rollout", { image: BAD }, created.state);
  expect(preview.refreshed).toBe(true);
  // The refresh is a whole RefreshStep, its Diff included (the real CLI shows it as `~ refresh`): the fix is drift.
  expect(preview.refreshDiff).toMatchObject({ changes: DIFF_SOME, diffs: ["image"] });
  expect(preview.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["image"] });
  // The program catches up with the fix: the refresh first finds it done, so nothing is left to do.
  const fixed = await engine().up(CONTAINER, "rollout", { image: GOOD }, created.state);
  expect(fixed).toMatchObject({ refreshed: true, steps: [], state: { outputs: { status: "running", image: GOOD } } });
  expect(fixed.state.refreshBeforeUpdate).toBe(false);
  expect(fixed.state.initErrors).toBeUndefined();
  // Fine again: the next preview reads nothing first.
  expect((await engine().preview(CONTAINER, "rollout", { image: GOOD }, fixed.state)).refreshed).toBe(false);
});

test("a healthy resource answers every call without the mark", async () => {
  const state = await engine().created(CONTAINER, "healthy", { image: GOOD });
  expect(state.refreshBeforeUpdate).toBe(false);
  const read = await fixture.plugin.read(CONTAINER, "healthy", state.id, state.outputs, state.inputs);
  expect(read.refreshBeforeUpdate).toBe(false);
});

describe.each([
  ["hosting:refreshBeforeUpdate", { env: {}, config: { refreshBeforeUpdate: "true" } }],
  ["HOSTING_REFRESH_BEFORE_UPDATE", { env: { HOSTING_REFRESH_BEFORE_UPDATE: "true" }, config: {} }],
])("%s set: every resource asks for a refresh first", (_setting, { env, config }) => {
  let plugin: Plugin;
  beforeAll(async () => {
    plugin = await Plugin.start({ env });
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT, ...config });
  });
  afterAll(() => plugin.stop());

  test("create, read and update answer with the mark, and a drift shows in the next preview without --refresh", async () => {
    const engineWithSetting = new Engine(plugin);
    const state = await engineWithSetting.created(CONTAINER, "everything", { image: GOOD, env: { LOG: "info" } });
    expect(state.refreshBeforeUpdate).toBe(true);
    expect(
      (await plugin.read(CONTAINER, "everything", state.id, state.outputs, state.inputs)).refreshBeforeUpdate,
    ).toBe(true);
    fixture.sim.control.mutate("services", state.id, { env: { LOG: "changed in the portal" } });
    const preview = await engineWithSetting.preview(
      CONTAINER,
      "everything",
      { image: GOOD, env: { LOG: "info" } },
      state,
    );
    expect(preview.refreshed).toBe(true);
    expect(preview.diff?.detailedDiff).toHaveProperty(["env.LOG"]);
    const up = await engineWithSetting.up(CONTAINER, "everything", { image: GOOD, env: { LOG: "info" } }, state);
    expect(up).toMatchObject({ steps: ["update"], error: undefined, state: { refreshBeforeUpdate: true } });
  });
});
