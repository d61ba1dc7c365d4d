// Diffs that name the exact key (DESIGN "Diffs"): the detailed diff says `env.DATABASE_HOST`, a
// link by its index; `diffs` keeps the top-level names. The engine applies the resource options
// replaceOnChanges and ignoreChanges to those paths (engine.ts plays step_generator.go).
import { decode, encode } from "../../provider/src/server/codec";
import {
  CheckRequest,
  CheckResponse,
  CreateRequest,
  CreateResponse,
  DiffRequest,
  DiffResponse,
  ReadRequest,
  ReadResponse,
} from "../../provider/src/server/messages";
import { DIFF_NONE, DIFF_SOME, Engine, KIND, secret, urn } from "./engine";
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

test("one secret value in env: the diff still names every key, so replaceOnChanges on env.DATABASE_HOST replaces", async () => {
  const program = (host: string, password = "pw-0001-s3cret") => ({
    image: IMAGE,
    env: { DATABASE_HOST: host, DB_PASSWORD: secret(password), LOG: "info" },
  });
  const state = await engine().created(CONTAINER, "roc-secret", program("a"));
  const options = { replaceOnChanges: ["env.DATABASE_HOST"] };
  const host = await engine().preview(CONTAINER, "roc-secret", program("b"), state, options);
  expect(host.diff?.detailedDiff).toEqual({ "env.DATABASE_HOST": KIND.UPDATE_REPLACE });
  expect(host).toHaveProperty("replacement");
  const password = await engine().preview(CONTAINER, "roc-secret", program("a", "pw-0002-s3cret"), state, options);
  expect(password.diff?.detailedDiff).toEqual({ "env.DB_PASSWORD": KIND.UPDATE });
  expect(password).not.toHaveProperty("replacement");
});

test("env keys only the platform can make (empty, ending in a backslash): paths the engine parses, and the app previews", async () => {
  const program = { image: IMAGE, env: { LOG: "info" } };
  const state = await engine().created(CONTAINER, "odd-keys", program);
  fixture.sim.control.mutate("services", state.id, { env: { LOG: "info", "": "empty", "C:\\": "drive" } });
  const refreshed = await engine().refresh(CONTAINER, "odd-keys", state);
  if (refreshed.gone) throw new Error("gone");
  expect(refreshed.diff.detailedDiff).toEqual({ 'env[""]': KIND.DELETE, "env.C:\\": KIND.DELETE });
  // The stand-in parses every path of a diff, as step_generator.go applyReplaceOnChanges does.
  const preview = await engine().preview(CONTAINER, "odd-keys", program, refreshed.state);
  expect(preview).not.toHaveProperty("error");
  expect(preview.diff?.detailedDiff).toEqual({ 'env[""]': KIND.DELETE, "env.C:\\": KIND.DELETE });
  const up = await engine().up(CONTAINER, "odd-keys", program, refreshed.state);
  expect(up).toMatchObject({ steps: ["update"], error: undefined });
  expect(app(state.id).env).toEqual({ LOG: "info" });
});

test('ignoreChanges: [""] ignores nothing, as the engine (the empty path resets nothing)', async () => {
  const state = await engine().created(CONTAINER, "ignore-empty", { image: IMAGE, env: { LOG: "info" } });
  const up = await engine().up(CONTAINER, "ignore-empty", { image: IMAGE, env: { LOG: "debug" } }, state, {
    ignoreChanges: [""],
  });
  expect(up.diff?.detailedDiff).toEqual({ "env.LOG": KIND.UPDATE });
  expect(up.steps).toEqual(["update"]);
  expect(app(state.id).env).toEqual({ LOG: "debug" });
});

describe("env keys named like Object.prototype members are keys like any other", () => {
  // google-protobuf's Struct drops a `__proto__` key before it is sent, so these calls are written
  // with the plugin's own codec (byte for byte google-protobuf's), as the engine (Go) sends them.
  const env = (extra = "") => JSON.parse(`{"__proto__": "p", "constructor": "c", "toString": "t"${extra}}`);
  const at = { urn: urn(CONTAINER, "proto-keys"), type: CONTAINER, name: "proto-keys" };
  const randomSeed = new Uint8Array(32).fill(9);
  const program = { image: IMAGE, env: env() };
  const kinds = (diff: { detailedDiff: Record<string, { kind: unknown }> }) =>
    Object.fromEntries(Object.entries(diff.detailedDiff).map(([path, { kind }]) => [path, kind]));
  let id: string;
  let read: { properties: Record<string, any>; inputs: Record<string, any> };
  let checked: Record<string, any>;

  test("created, read back as the simulator stores them, and diffed as no change", async () => {
    const created = decode(
      CreateResponse,
      await fixture.plugin.callBytes(
        "create",
        encode(CreateRequest, {
          ...at,
          properties: decode(
            CheckResponse,
            await fixture.plugin.callBytes("check", encode(CheckRequest, { ...at, news: program, randomSeed })),
          ).inputs,
        }),
      ),
    );
    id = created.id;
    expect(Object.keys(app(id).env).sort()).toEqual(["__proto__", "constructor", "toString"]);
    read = decode(
      ReadResponse,
      await fixture.plugin.callBytes(
        "read",
        encode(ReadRequest, { ...at, id, properties: created.properties, inputs: created.properties }),
      ),
    ) as typeof read;
    expect(Object.entries(read.properties.env).sort()).toEqual([
      ["__proto__", "p"],
      ["constructor", "c"],
      ["toString", "t"],
    ]);
    const check = decode(
      CheckResponse,
      await fixture.plugin.callBytes(
        "check",
        encode(CheckRequest, { ...at, news: program, olds: read.inputs, randomSeed }),
      ),
    );
    expect(check.failures).toEqual([]);
    checked = check.inputs!;
    const diff = decode(
      DiffResponse,
      await fixture.plugin.callBytes(
        "diff",
        encode(DiffRequest, { ...at, id, olds: read.properties, news: checked, oldInputs: read.inputs }),
      ),
    );
    expect(diff.changes).toBe("DIFF_NONE");
  });

  test("valueOf added, then removed: ADD and DELETE at its exact path", async () => {
    const diffOf = async (olds: Record<string, any>, news: Record<string, any>, oldInputs: Record<string, any>) =>
      kinds(
        decode(
          DiffResponse,
          await fixture.plugin.callBytes("diff", encode(DiffRequest, { ...at, id, olds, news, oldInputs })),
        ),
      );
    const withValueOf = (map: Record<string, any>) => ({ ...map, env: env(', "valueOf": "v"') });
    expect(await diffOf(read.properties, withValueOf(checked), read.inputs)).toEqual({ "env.valueOf": "ADD" });
    expect(await diffOf(withValueOf(read.properties), checked, withValueOf(read.inputs))).toEqual({
      "env.valueOf": "DELETE",
    });
  });
});
