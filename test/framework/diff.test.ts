import { diffInputs } from "../../provider/src/framework/diff";
import { DNS_LABEL_NAMES } from "../../provider/src/framework/validators";
import { Unknown } from "../../provider/src/framework/values";
import { spec } from "./cases";

const live = {
  name: "web",
  projectId: "p1",
  port: 8080,
  size: 10,
  cpu: 250,
  env: { A: "1" },
  links: ["a", "b"],
  status: "running",
  image: "r.io/a/b:1",
  password: "old",
};
const oldInputs = {
  name: "web",
  projectId: "p1",
  port: 8080,
  size: 10,
  env: { A: "1" },
  links: ["a", "b"],
  password: "old",
};
const kinds = (detailed: Record<string, { kind: string }>) =>
  Object.fromEntries(Object.entries(detailed).map(([k, v]) => [k, v.kind]));

describe("diffInputs: named cases per flag", () => {
  test.each([
    ["equal", { ...oldInputs }, {}],
    [
      "server-side value the user never set (image, cpu)",
      { name: "web", projectId: "p1", port: 8080, env: { A: "1" } },
      {},
    ],
    ["update", { ...oldInputs, port: 9090 }, { port: "UPDATE" }],
    ["update of a map: the key that changed", { ...oldInputs, env: { A: "2" } }, { "env.A": "UPDATE" }],
    ["map key order does not matter", { ...oldInputs, env: { A: "1" } }, {}],
    ["replace", { ...oldInputs, name: "web-2" }, { name: "UPDATE_REPLACE" }],
    [
      "unknown on a replace-on-change property replaces",
      { ...oldInputs, projectId: Unknown },
      { projectId: "UPDATE_REPLACE" },
    ],
    ["unknown on an in-place property updates", { ...oldInputs, port: Unknown }, { port: "UPDATE" }],
    ["unordered: the same items in another order", { ...oldInputs, links: ["b", "a"] }, {}],
    ["unordered: an item more, at its index", { ...oldInputs, links: ["a", "b", "c"] }, { "links[2]": "ADD" }],
    ["grow-only: same", { ...oldInputs, size: 10 }, {}],
    ["grow-only: grow", { ...oldInputs, size: 11 }, { size: "UPDATE" }],
    ["not returned: compared with the old input", { ...oldInputs, password: "new" }, { password: "UPDATE" }],
    ["not returned: unchanged", { ...oldInputs, password: "old" }, {}],
    [
      "not returned, with a default: the default against a state written before it existed",
      { ...oldInputs, rollback: false },
      {},
    ],
    [
      "not returned, with a default: another value against such a state",
      { ...oldInputs, rollback: true },
      { rollback: "UPDATE" },
    ],
    ["first value set where the API had none", { ...oldInputs, image: "r.io/a/b:1" }, {}],
    [
      "removed by the user, and removing clears it",
      { name: "web", projectId: "p1", port: 8080, size: 10, password: "old" },
      { env: "DELETE" },
    ],
    [
      "removed by the user, and the service keeps it",
      { name: "web", projectId: "p1", port: 8080, env: { A: "1" }, password: "old" },
      {},
    ],
  ])("%s", (_name, news, expected) => {
    const diff = diffInputs(spec, live as any, news as any, oldInputs as any);
    expect(kinds(diff.detailedDiff)).toEqual(expected);
    expect(diff.changed).toBe(Object.keys(expected).length > 0);
    expect(diff.replaces).toEqual(Object.keys(expected).filter((k) => (expected as any)[k].endsWith("REPLACE")));
    expect(diff.deleteBeforeReplace).toBe(false);
  });

  test("a property the live state lacks diffs as an addition", () => {
    const diff = diffInputs(
      spec,
      { name: "web" } as any,
      { name: "web", image: "r.io/a/b:2" } as any,
      { name: "web" } as any,
    );
    expect(kinds(diff.detailedDiff)).toEqual({ image: "ADD" });
  });

  test("inputDiff says which old value was compared: the old input, or the live output", () => {
    const diff = diffInputs(spec, live as any, { ...oldInputs, port: 9090, password: "new" } as any, oldInputs as any);
    expect(diff.detailedDiff).toEqual({
      port: { kind: "UPDATE", inputDiff: false },
      password: { kind: "UPDATE", inputDiff: true },
    });
    const removed = diffInputs(
      spec,
      live as any,
      { name: "web", projectId: "p1", port: 8080, size: 10, password: "old" } as any,
      oldInputs as any,
    );
    expect(removed.detailedDiff.env).toEqual({ kind: "DELETE", inputDiff: true });
    const notLive = diffInputs(
      spec,
      { name: "web" } as any,
      { name: "web", port: 9090 } as any,
      { name: "web", port: 8080 } as any,
    );
    expect(notLive.detailedDiff.port).toEqual({ kind: "UPDATE", inputDiff: true });
  });

  // The engine's refresh diffs the other way round: olds = what Read returned, news = the stored inputs.
  test("never fails: a shrink or a resize the API refuses shows as a change (refresh drift)", () => {
    const grown = diffInputs(
      spec,
      { ...live, size: 40 } as any,
      { ...oldInputs, size: 10 } as any,
      { ...oldInputs, size: 40 } as any,
    );
    expect(kinds(grown.detailedDiff)).toEqual({ size: "UPDATE" });
    const resized = diffInputs(spec, live as any, { ...oldInputs, cpu: 500 } as any, oldInputs as any);
    expect(kinds(resized.detailedDiff)).toEqual({ cpu: "UPDATE" });
  });

  test("deleteBeforeReplace only when the resource asks and something replaces", () => {
    const dbr = { ...spec, deleteBeforeReplace: true };
    expect(diffInputs(dbr, live as any, { ...oldInputs, name: "x" } as any, oldInputs as any).deleteBeforeReplace).toBe(
      true,
    );
    expect(diffInputs(dbr, live as any, { ...oldInputs, port: 1 } as any, oldInputs as any).deleteBeforeReplace).toBe(
      false,
    );
  });
});

describe("diffInputs with ignoreChanges: an ignored path reads as unchanged, whatever the two sides say", () => {
  test.each([
    ["a whole property", ["env"], { ...oldInputs, env: { A: "2", B: "3" } }, {}],
    [
      "a whole property taken out (it would clear)",
      ["env"],
      { name: "web", projectId: "p1", port: 8080, size: 10, password: "old" },
      {},
    ],
    ["one key of a map: that key only", ["env.A"], { ...oldInputs, env: { A: "2" } }, {}],
    [
      "one key of a map: another key still changes",
      ["env.A"],
      { ...oldInputs, env: { A: "2", B: "3" } },
      { "env.B": "ADD" },
    ],
    ["a quoted key", ['env["A"]'], { ...oldInputs, env: { A: "2" } }, {}],
    ["every key", ["env[*]"], { ...oldInputs, env: { A: "9" } }, {}],
    ["a replacing property", ["name"], { ...oldInputs, name: "web-2" }, {}],
    ["a property never returned, compared with its old input", ["password"], { ...oldInputs, password: "rotated" }, {}],
    ["other properties still diff", ["env"], { ...oldInputs, env: { A: "2" }, port: 9090 }, { port: "UPDATE" }],
    [
      "a path that is not one is skipped, as the engine skips it",
      ["env[", ".x"],
      { ...oldInputs, port: 9090 },
      { port: "UPDATE" },
    ],
  ])("%s", (_name, ignore, news, expected) => {
    const diff = diffInputs(spec, live as any, news as any, oldInputs as any, { ignoreChanges: ignore });
    expect(kinds(diff.detailedDiff)).toEqual(expected);
  });

  test("a refresh's diff (olds: what Read found; news: the stored inputs) shows no drift on an ignored env", () => {
    const drifted = { ...live, env: { A: "changed in the portal" } };
    const readInputs = { ...oldInputs, env: { A: "changed in the portal" } };
    expect(kinds(diffInputs(spec, drifted as any, oldInputs as any, readInputs as any).detailedDiff)).toEqual({
      "env.A": "UPDATE",
    });
    expect(
      diffInputs(spec, drifted as any, oldInputs as any, readInputs as any, { ignoreChanges: ["env"] }).changed,
    ).toBe(false);
  });

  test("nothing is taken out of the inputs it was given", () => {
    const news = { ...oldInputs, env: { A: "2" } };
    diffInputs(spec, live as any, news as any, oldInputs as any, { ignoreChanges: ["env", "env.A"] });
    expect(news.env).toEqual({ A: "2" });
  });
});

test("an append-only list: a live item the program never listed (made outside it) is no change, and listing it adopts it", () => {
  const program = { ...oldInputs, links: ["a"] };
  expect(diffInputs(spec, live as any, program as any, program as any).changed).toBe(false);
  const adopting = { ...program, links: ["a", "b"] };
  expect(diffInputs(spec, live as any, adopting as any, program as any).changed).toBe(false);
  expect(kinds(diffInputs(spec, live as any, { ...program, links: [] } as any, program as any).detailedDiff)).toEqual({
    "links[0]": "DELETE",
  });
});

describe("diffInputs: the detailed diff names the exact path, as the engine's own diff does", () => {
  test.each([
    ["a key added to a map", { env: { A: "1", DATABASE_HOST: "db" } }, { "env.DATABASE_HOST": "ADD" }],
    ["a key deleted from a map", { env: {} }, { "env.A": "DELETE" }],
    ["a key updated", { env: { A: "2" } }, { "env.A": "UPDATE" }],
    ["several keys at once", { env: { B: "2" } }, { "env.A": "DELETE", "env.B": "ADD" }],
    ["a key the engine quotes", { env: { A: "1", "my.key": "x" } }, { 'env["my.key"]': "ADD" }],
    ["a key with a dash is quoted too", { env: { A: "1", "DB-HOST": "x" } }, { 'env["DB-HOST"]': "ADD" }],
    ["a key not known yet (a preview)", { env: { A: Unknown } }, { "env.A": "UPDATE" }],
    ["the whole map not known yet", { env: Unknown }, { env: "UPDATE" }],
    ["an unordered list: an item added at its index", { links: ["b", "c", "a"] }, { "links[1]": "ADD" }],
    ["an unordered list: an item removed at its old index", { links: ["b"] }, { "links[0]": "DELETE" }],
    ["an unordered list: an item not known yet", { links: ["a", "b", Unknown] }, { "links[2]": "ADD" }],
    ["a replacing property keeps the _REPLACE kind", { name: "web-2" }, { name: "UPDATE_REPLACE" }],
    ["a secret is named only as the property", { password: "new" }, { password: "UPDATE" }],
  ])("%s", (_name, change, expected) => {
    const diff = diffInputs(spec, live as any, { ...oldInputs, ...change } as any, oldInputs as any);
    expect(kinds(diff.detailedDiff)).toEqual(expected);
    expect(diff.diffs).toEqual([...new Set(Object.keys(expected).map((path) => path.split(/[.[]/)[0]))]);
  });

  test("a map that arrived secret shows no key of it, only the property", () => {
    const news = { ...oldInputs, env: { A: "1", TOKEN: "t" } };
    const diff = diffInputs(spec, live as any, news as any, oldInputs as any, { secretPaths: new Set(["env"]) });
    expect(kinds(diff.detailedDiff)).toEqual({ env: "UPDATE" });
  });

  test("a whole map where there was none is added as the property", () => {
    const diff = diffInputs(
      spec,
      { ...live, env: undefined } as any,
      { ...oldInputs, env: { A: "1" } } as any,
      {
        ...oldInputs,
        env: undefined,
      } as any,
    );
    expect(kinds(diff.detailedDiff)).toEqual({ env: "ADD" });
  });
});

describe("diffInputs: deleteBeforeReplace for a name the replacement keeps", () => {
  const named = {
    ...spec,
    fields: spec.fields.map((f) =>
      f.name === "name" ? { ...f, autoname: DNS_LABEL_NAMES, uniqueWithin: "projectId" } : f,
    ),
  };
  test.each([
    ["a name the program gave, unchanged (a replaceOnChanges path)", [], { port: 9090 }, true],
    ["a name the program gave, unchanged, into a project not known yet", [], { projectId: Unknown }, true],
    [
      "a name the program gave, moved to another project: names are unique within one, so it is created first",
      [],
      { projectId: "p2" },
      false,
    ],
    ["a name the program gave, unchanged, with no change at all", [], {}, true],
    ["a name the program gave, not known yet", [], { name: Unknown }, true],
    ["a name the program changes: the replacement is created first under it", [], { name: "web-2" }, false],
    [
      "a name Check made: the engine's second Check gives the replacement a fresh one",
      ["name"],
      { projectId: "p2" },
      false,
    ],
  ])("%s", (_name, autonamed, change, expected) => {
    const diff = diffInputs(named, live as any, { ...oldInputs, ...change } as any, oldInputs as any, {
      autonamed: autonamed as string[],
    });
    expect(diff.deleteBeforeReplace).toBe(expected);
  });
});

describe("diffInputs: map keys named like Object.prototype members are keys like any other", () => {
  // Maps as the engine's Structs bring them (JSON.parse makes `__proto__` an own key, as codec.ts does).
  const envOf = (entries: Record<string, string>) =>
    JSON.parse(JSON.stringify(entries).replace(/"KEY"/g, '"__proto__"'));
  const withEnv = (env: Record<string, string>) => ({ ...oldInputs, env });
  test.each(["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"])("%s", (key) => {
    const env = (extra: Record<string, string>) => (key === "__proto__" ? envOf(extra) : extra);
    const name = key === "__proto__" ? "KEY" : key;
    const [without, withKey, changed] = [env({ A: "1" }), env({ A: "1", [name]: "x" }), env({ A: "1", [name]: "y" })];
    const diffOf = (before: object, after: object) =>
      kinds(
        diffInputs(spec, { ...live, env: before } as any, withEnv(after as any) as any, withEnv(before as any) as any)
          .detailedDiff,
      );
    expect(diffOf(without, withKey)).toEqual({ [`env.${key}`]: "ADD" });
    expect(diffOf(withKey, without)).toEqual({ [`env.${key}`]: "DELETE" });
    expect(diffOf(withKey, changed)).toEqual({ [`env.${key}`]: "UPDATE" });
    expect(diffOf(withKey, env({ A: "1", [name]: "x" }))).toEqual({});
  });
});

describe("diffInputs: secret values keep their paths", () => {
  const news = (env: Record<string, string>) => ({ ...oldInputs, env }) as any;
  const olds = { ...live, env: { DATABASE_HOST: "a", PASSWORD: "p1", LOG: "info" } } as any;
  const inputs = { ...oldInputs, env: olds.env } as any;

  test("one secret value in a map: every key is still named, the secret one at its own path", () => {
    const diff = diffInputs(spec, olds, news({ DATABASE_HOST: "b", PASSWORD: "p2", LOG: "info" }), inputs, {
      secretPaths: new Set(["env.PASSWORD"]),
    });
    expect(kinds(diff.detailedDiff)).toEqual({ "env.DATABASE_HOST": "UPDATE", "env.PASSWORD": "UPDATE" });
  });

  test("a map secret as a whole: its keys are secrets too, so only the property is named", () => {
    const diff = diffInputs(spec, olds, news({ DATABASE_HOST: "b", PASSWORD: "p1", LOG: "info" }), inputs, {
      secretPaths: new Set(["env"]),
    });
    expect(kinds(diff.detailedDiff)).toEqual({ env: "UPDATE" });
  });
});

describe("diffInputs: paths the engine can parse, whatever the key", () => {
  test.each([
    ["an empty key", { A: "1", "": "x" }, { 'env[""]': "ADD" }],
    ["a key ending in a backslash", { A: "1", "C:\\": "x" }, { "env.C:\\": "ADD" }],
    ["a key no path can spell: named as the map", { A: "1", "a.b\\": "x" }, { env: "UPDATE" }],
    ["two such keys: the map once", { A: "1", "a.b\\": "x", "c[d\\": "y" }, { env: "UPDATE" }],
  ])("%s", (_name, env, expected) => {
    const diff = diffInputs(spec, live as any, { ...oldInputs, env } as any, oldInputs as any);
    expect(kinds(diff.detailedDiff)).toEqual(expected);
  });
});

describe("diffInputs: ignoreChanges paths as the engine reads them", () => {
  const changed = { ...oldInputs, port: 9090, env: { A: "2" } };
  test.each([
    ["the empty path ignores nothing", [""], { port: "UPDATE", "env.A": "UPDATE" }],
    ["a path the engine cannot parse ignores nothing", ["env["], { port: "UPDATE", "env.A": "UPDATE" }],
    ["one key", ["env.A"], { port: "UPDATE" }],
    ["every key", ["env[*]"], { port: "UPDATE" }],
  ])("%s", (_name, ignoreChanges, expected) => {
    const diff = diffInputs(spec, live as any, changed as any, oldInputs as any, { ignoreChanges });
    expect(kinds(diff.detailedDiff)).toEqual(expected);
  });
});
