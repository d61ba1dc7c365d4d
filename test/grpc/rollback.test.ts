// rollbackOnFailure (issue 29): a release that fails to start sends the last one that ran back,
// awaits it, and still fails the update, saying so; state records what runs.
import { DIFF_SOME, Engine, type ResourceState } from "./engine";
import { CONTAINER, PROJECT, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const GOOD = "registry.example.com/team/web:1.0.0";
const BAD = "registry.example.com/team/web:2.0.0-bad";
const live = (id: string) => fixture.sim.control.snapshot().services.find((s) => s.id === id)!;
const patches = (mark: number, id: string) =>
  fixture
    .requestsSince(mark)
    .filter((r) => r.method === "PATCH" && r.path === `/v1/projects/${PROJECT}/containers/${id}`).length;

afterEach(() => fixture.sim.control.setSwitches({ crashingImageTags: [], serviceStartMs: 0 }));

let counter = 0;
async function runningApp(rollbackOnFailure: boolean): Promise<ResourceState> {
  const name = `roll-${++counter}`;
  return engine().created(CONTAINER, name, { name, image: GOOD, env: { MODE: "a" }, rollbackOnFailure });
}

test("on: the failed release is rolled back to the last that ran, awaited; the update fails with the new release's logs and says so", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"], serviceStartMs: 100 });
  const app = await runningApp(true);
  const program = { ...app.inputs, image: BAD, env: { MODE: "b" } };
  const before = fixture.plugin.engine.messages.length;
  const up = await engine().up(CONTAINER, String(app.inputs.name), program, app);
  expect(up.error?.details).toMatch(
    new RegExp(
      `failed to start: its status is "failed" \\(image ${BAD}\\).*Cannot find module.*It was rolled back to image ${GOOD} \\(rollbackOnFailure\\), which runs again`,
      "s",
    ),
  );
  expect(live(app.id)).toMatchObject({ image: GOOD, status: "running", env: { MODE: "a" } });
  // State records what runs, and keeps the old inputs: the next preview shows the change again.
  expect(up.state.outputs).toMatchObject({ image: GOOD, status: "running", env: { MODE: "a" } });
  const again = await engine().preview(CONTAINER, String(app.inputs.name), program, up.state);
  expect(again.diff).toMatchObject({ changes: DIFF_SOME });
  expect(again.diff!.diffs.sort()).toEqual(["env", "image"]);
  const progress = fixture.plugin.engine.messages
    .slice(before)
    .map((m) => m.message)
    .join("\n");
  expect(progress).toMatch(new RegExp(`rolling container ${app.inputs.name} back to image ${GOOD}`));
});

test("on: a rollback that fails too says so with both log tails, and never loops", async () => {
  const app = await runningApp(true);
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad", "1.0.0"] });
  const mark = fixture.mark();
  const up = await engine().up(CONTAINER, String(app.inputs.name), { ...app.inputs, image: BAD }, app);
  expect(up.error?.details).toMatch(
    new RegExp(
      /failed to start.*Rolling it back to image .*1\.0\.0 \(rollbackOnFailure\) failed too: /.source +
        /container .* failed to start the release it was rolled back to.*The last lines of its logs/.source,
      "s",
    ),
  );
  expect(patches(mark, app.id)).toBe(2);
  expect(live(app.id).status).toBe("failed");
});

test("off (the default): the failed release stays, as before", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
  const app = await runningApp(false);
  const mark = fixture.mark();
  const up = await engine().up(CONTAINER, String(app.inputs.name), { ...app.inputs, image: BAD }, app);
  expect(up.error?.details).toMatch(/failed to start/);
  expect(up.error?.details).not.toMatch(/rolled back/);
  expect(patches(mark, app.id)).toBe(1);
  expect(live(app.id)).toMatchObject({ image: BAD, status: "failed" });
});

test("on, with no release that ran before (the app was failed already): nothing to roll back to", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad", "3.0.0-bad"] });
  const name = `roll-${++counter}`;
  const first = await engine().create(CONTAINER, name, { name, image: BAD, rollbackOnFailure: true });
  const mark = fixture.mark();
  const up = await engine().up(
    CONTAINER,
    name,
    { ...first.state.inputs, image: "registry.example.com/team/web:3.0.0-bad" },
    first.state,
  );
  expect(up.error?.details).toMatch(/failed to start/);
  expect(patches(mark, first.state.id)).toBe(1);
});
