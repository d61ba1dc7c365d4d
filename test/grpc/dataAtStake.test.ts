// No data destroyed as a side effect of an edit (issue 29): a change that would replace a database
// or a volume fails at preview and at the up, before any write, naming the data at stake and the one
// deliberate way through (`pulumi up --replace <urn>`); destroy and deleting from the program still work.
import { Engine, urn, type ResourceState } from "./engine";
import { POSTGRES, PROJECT, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const REDIS = "hosting:index:Redis";
const writes = (mark: number) => fixture.requestsSince(mark).filter((r) => r.method !== "GET");
const exists = (id: string) =>
  fixture.sim.control.snapshot().services.some((s) => s.id === id) ||
  fixture.sim.control.snapshot().volumes.some((v) => v.id === id);

let counter = 0;
const unique = (base: string) => `${base}-${++counter}`;

describe.each([
  [
    POSTGRES,
    (name: string) => ({ name, storageGb: 10 }),
    /PostgreSQL database db-\d+ and all its data \(10 GB of storage\)/,
  ],
  [REDIS, (name: string) => ({ name }), /Redis database db-\d+ and all its data \(\d+ GB of storage\)/],
  [VOLUME, (name: string) => ({ name, sizeGb: 5 }), /volume db-\d+ and all the data on it \(5 GB\)/],
] as const)("%s", (type, program, what) => {
  let state: ResourceState;
  let resource: string;
  beforeEach(async () => {
    resource = unique("data");
    state = await engine().created(type, resource, program(unique("db")));
  });

  test(
    "a rename fails at preview and at the up, naming the data and `pulumi up --replace`; " + "nothing is sent",
    async () => {
      const renamed = { ...program(unique("db")) };
      const mark = fixture.mark();
      const preview = await engine().preview(type, resource, renamed, state);
      expect(preview.diff?.replaces).toEqual(["name"]);
      const message = new RegExp(
        `changing name from .* replaces ${what.source}: the replacement would delete it, so nothing was sent.*pulumi up --replace ${urn(type, resource).replace(/\$/g, "\\$")}`,
      );
      expect(preview.error?.details).toMatch(message);
      await expect(engine().up(type, resource, renamed, state)).rejects.toMatchObject({
        details: expect.stringMatching(message),
      });
      // deleteBeforeReplace would delete first: that delete is refused too.
      await expect(engine().up(type, resource, renamed, state, { deleteBeforeReplace: true })).rejects.toMatchObject({
        details: expect.stringMatching(message),
      });
      expect(writes(mark)).toEqual([]);
      expect(exists(state.id)).toBe(true);
    },
  );

  test("`pulumi up --replace <urn>` (no Diff asked) replaces it deliberately", async () => {
    const replaced = await engine().forceReplace(type, resource, program(unique("db")), state);
    expect(replaced.error).toBeUndefined();
    expect(replaced.state.id).not.toBe(state.id);
    expect(exists(state.id)).toBe(false);
    await fixture.plugin.delete(type, resource, replaced.state.id, replaced.state.outputs, replaced.state.inputs);
  });

  test("pulumi destroy (a delete with no Diff before it) deletes it", async () => {
    await fixture.plugin.delete(type, resource, state.id, state.outputs, state.inputs);
    expect(exists(state.id)).toBe(false);
  });
});

test("a refresh's Diff (no Check before it) plans nothing: a delete after it still goes through", async () => {
  const name = unique("db");
  const state = await engine().created(POSTGRES, "refreshed", { name });
  fixture.sim.control.mutate("services", state.id, { name: `${name}-renamed` });
  const refreshed = await engine().refresh(POSTGRES, "refreshed", state);
  expect(refreshed.gone).toBe(false);
  await fixture.plugin.delete(POSTGRES, "refreshed", state.id, state.outputs, state.inputs);
  expect(exists(state.id)).toBe(false);
  expect(PROJECT).toBeDefined();
});
