// A Read of a resource that is not finished (an app whose release failed, a volume not running
// yet) answers as a partial failure: the engine's refresh then keeps it failed (RefreshStep.Apply
// records the reasons as init errors and warns), and the next `pulumi up` retries it as an update.
import { DIFF_NONE, Engine } from "./engine";
import { CONTAINER, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 200 });
const engine = () => new Engine(fixture.plugin);
const GOOD = "registry.example.com/team/web:1.0.0";
const BAD = "registry.example.com/team/web:2.0.0-bad";

afterEach(() => fixture.sim.control.setSwitches({ crashingImageTags: [], volumeProvisioningMs: 200 }));

test("an app whose release failed stays failed through a refresh, and the next up retries it", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
  const created = await engine().create(CONTAINER, "crashed", { name: "crashed", image: BAD });
  expect(created.state.initErrors).toHaveLength(1);
  // A refresh: not an error, but the app stays failed, with the reason.
  const refreshed = await engine().refresh(CONTAINER, "crashed", created.state);
  if (refreshed.gone) throw new Error("gone");
  expect(refreshed.state.outputs.status).toBe("failed");
  expect(refreshed.state.initErrors).toEqual([
    expect.stringMatching(/^container crashed failed to start: its status is "failed" \(image .*2\.0\.0-bad\)/),
  ]);
  expect(refreshed.diff.changes).toBe(DIFF_NONE);
  // The next up, with a fixed image, retries it as an update, and it is healthy again.
  fixture.sim.control.setSwitches({ crashingImageTags: [] });
  const up = await engine().up(CONTAINER, "crashed", { name: "crashed", image: GOOD }, refreshed.state);
  expect(up).toMatchObject({
    steps: ["update"],
    error: undefined,
    state: { outputs: { status: "running", image: GOOD } },
  });
  expect(up.state.initErrors).toBeUndefined();
  const again = await engine().refresh(CONTAINER, "crashed", up.state);
  expect(again).toMatchObject({ gone: false, state: { outputs: { status: "running" } } });
  if (!again.gone) expect(again.state.initErrors).toBeUndefined();
});

test("a volume whose create gave up waiting: a refresh records it as it is (provisioning) and keeps it unfinished, asking to be refreshed before the next update; then running clears both", async () => {
  fixture.sim.control.setSwitches({ volumeProvisioningMs: -1 });
  const created = await engine().create(VOLUME, "slow", { name: "slow", sizeGb: 2 }, { timeouts: { create: 1 } });
  expect(created.error?.details).toMatch(/gave up waiting/);
  expect(created.state.refreshBeforeUpdate).toBe(true);
  const refreshed = await engine().refresh(VOLUME, "slow", created.state);
  if (refreshed.gone) throw new Error("gone");
  expect(refreshed.state.outputs.status).toBe("provisioning");
  expect(refreshed.state.initErrors).toEqual([
    'volume slow is not running yet: its status is "provisioning"; the next `pulumi up` waits for it again',
  ]);
  expect(refreshed.state.refreshBeforeUpdate).toBe(true);
  expect(refreshed.diff.changes).toBe(DIFF_NONE);
  fixture.sim.control.setVolumeReady(created.state.id);
  const healthy = await engine().refresh(VOLUME, "slow", refreshed.state);
  if (healthy.gone) throw new Error("gone");
  expect(healthy.state.outputs.status).toBe("running");
  expect(healthy.state.initErrors).toBeUndefined();
  expect(healthy.state.refreshBeforeUpdate).toBe(false);
});
