// Diffs that name the exact key (DESIGN "Diffs"): the detailed diff says `env.DATABASE_HOST`, a
// link by its index; `diffs` keeps the top-level names. The engine applies the resource options
// replaceOnChanges and ignoreChanges to those paths (engine.ts plays step_generator.go).
import { DIFF_NONE, DIFF_SOME, Engine, KIND } from "./engine";
import { CONTAINER, POSTGRES, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const app = (id: string) => fixture.sim.control.snapshot().services.find((s) => s.id === id)!;

test("each env key that changed is named, with its kind; diffs keeps the property", async () => {
  const state = await engine().created(CONTAINER, "paths", {
    image: IMAGE,
    env: { KEEP: "1", CHANGE: "a", DROP: "x" },
  });
  const preview = await engine().preview(
    CONTAINER,
    "paths",
    { image: IMAGE, env: { KEEP: "1", CHANGE: "b", ADD: "y" } },
    state,
  );
  expect(preview.diff).toMatchObject({
    changes: DIFF_SOME,
    diffs: ["env"],
    replaces: [],
    detailedDiff: { "env.ADD": KIND.ADD, "env.CHANGE": KIND.UPDATE, "env.DROP": KIND.DELETE },
  });
});

test("a link added is named by its index", async () => {
  const [db, cache] = [
    await engine().created(POSTGRES, "paths-db", {}),
    await engine().created(POSTGRES, "paths-cache", {}),
  ];
  const state = await engine().created(CONTAINER, "linked", { image: IMAGE, links: [db.id] });
  const preview = await engine().preview(CONTAINER, "linked", { image: IMAGE, links: [db.id, cache.id] }, state);
  expect(preview.diff).toMatchObject({ diffs: ["links"], detailedDiff: { "links[1]": KIND.ADD } });
});

test("replaceOnChanges on env.DATABASE_HOST replaces for that key, and only for it", async () => {
  const state = await engine().created(CONTAINER, "roc", { image: IMAGE, env: { DATABASE_HOST: "a", LOG: "info" } });
  const options = { replaceOnChanges: ["env.DATABASE_HOST"] };
  const logOnly = await engine().preview(
    CONTAINER,
    "roc",
    { image: IMAGE, env: { DATABASE_HOST: "a", LOG: "debug" } },
    state,
    options,
  );
  expect(logOnly.diff).toMatchObject({ replaces: [], detailedDiff: { "env.LOG": KIND.UPDATE } });
  expect(logOnly).not.toHaveProperty("replacement");
  const host = await engine().preview(
    CONTAINER,
    "roc",
    { image: IMAGE, env: { DATABASE_HOST: "b", LOG: "info" } },
    state,
    options,
  );
  expect(host.diff?.detailedDiff).toEqual({ "env.DATABASE_HOST": KIND.UPDATE_REPLACE });
  expect(host).toHaveProperty("replacement");
});

test("ignoreChanges on env.SECRET_ROTATED keeps that key as it is and applies the rest", async () => {
  const state = await engine().created(CONTAINER, "ignore", {
    image: IMAGE,
    env: { SECRET_ROTATED: "v1", LOG: "info" },
  });
  const options = { ignoreChanges: ["env.SECRET_ROTATED"] };
  const up = await engine().up(
    CONTAINER,
    "ignore",
    { image: IMAGE, env: { SECRET_ROTATED: "v2", LOG: "debug" } },
    state,
    options,
  );
  expect(up.diff).toMatchObject({ diffs: ["env"], detailedDiff: { "env.LOG": KIND.UPDATE } });
  expect(up).toMatchObject({ steps: ["update"], error: undefined });
  expect(app(state.id).env).toMatchObject({ SECRET_ROTATED: "v1", LOG: "debug" });
  const again = await engine().preview(
    CONTAINER,
    "ignore",
    { image: IMAGE, env: { SECRET_ROTATED: "v3", LOG: "debug" } },
    up.state,
    options,
  );
  expect(again.diff).toMatchObject({ changes: DIFF_NONE });
});

test("a refresh's diff names the key that drifted", async () => {
  const state = await engine().created(CONTAINER, "drift", { image: IMAGE, env: { LOG: "info" } });
  fixture.sim.control.mutate("services", state.id, { env: { LOG: "trace" } });
  const refreshed = await engine().refresh(CONTAINER, "drift", state);
  if (refreshed.gone) throw new Error("gone");
  expect(refreshed.diff).toMatchObject({ diffs: ["env"], detailedDiff: { "env.LOG": KIND.UPDATE } });
});
