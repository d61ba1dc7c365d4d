// What a Read says when it finds drift: which property paths changed outside Pulumi, and when the
// platform changed them against when they were deployed. Named cases over the sample declaration.
import { driftWarning, driftedPaths } from "../../provider/src/framework/drift";
import type { ObjectSpec } from "../../provider/src/framework/spec";
import { type PropertyMap, Unknown } from "../../provider/src/framework/values";
import { field, spec as sample } from "./cases";

const spec: ObjectSpec = {
  ...sample,
  fields: [
    ...sample.fields,
    field("ports", { kind: "array", items: { kind: "integer" } }),
    field("token", { kind: "string" }, { secret: true }),
    field("updatedAt", { kind: "string" }, { output: true }),
  ],
};

const DEPLOYED = "2026-11-25T03:10:41.123Z";
const recorded = {
  name: "web",
  image: "registry.example.com/team/web:1.0.0",
  port: 8080,
  size: 10,
  env: { LOG_LEVEL: "info", "my.key": "a" },
  links: ["db", "cache"],
  ports: [80, 443],
  token: "t-1",
  password: "p",
  cpu: 250,
  updatedAt: DEPLOYED,
};
/** What the program set: every input above but `cpu`, which the service chose. */
const { cpu: _chosen, updatedAt: _at, ...oldInputs } = recorded;

describe("driftedPaths", () => {
  test.each([
    ["nothing changed", {}, []],
    ["a scalar", { size: 20 }, ["size"]],
    ["a key of a map, by its path", { env: { LOG_LEVEL: "debug", "my.key": "a" } }, ["env.LOG_LEVEL"]],
    [
      "keys added, removed and changed, the engine's way for a key with a dot",
      { env: { "my.key": "b", EXTRA: "1" } },
      ["env.EXTRA", "env.LOG_LEVEL", 'env["my.key"]'],
    ],
    ["an item of a list, by its index", { ports: [80, 8443] }, ["ports[1]"]],
    ["a list of another length: the item gone, by its index", { ports: [80] }, ["ports[1]"]],
    ["an unordered list reordered: no drift", { links: ["cache", "db"] }, []],
    ["an unordered list changed: whole", { links: ["db"] }, ["links"]],
    ["a secret: whole, whatever is inside", { token: "t-2" }, ["token"]],
    ["a value the API never returns cannot drift", { password: "other" }, []],
    ["a value the program never set (the service chose it) is not drift", { cpu: 500 }, []],
    ["the time alone is no drift", { updatedAt: "2026-11-27T03:12:00.000Z" }, []],
    [
      "several, in the declaration's order",
      { size: 20, image: "registry.example.com/team/web:2.0.0" },
      ["image", "size"],
    ],
    ["an unknown (never in a Read) is not judged", { size: Unknown }, []],
  ])("%s", (_name, change, expected) => {
    expect(driftedPaths(spec, recorded, { ...recorded, ...change } as PropertyMap, oldInputs)).toEqual(expected);
  });

  test("the same text in another Unicode form is no drift", () => {
    const composed = { ...recorded, env: { LOG_LEVEL: "caf\u00e9", "my.key": "a" } };
    const decomposed = { ...recorded, env: { LOG_LEVEL: "cafe\u0301", "my.key": "a" } };
    expect(driftedPaths(spec, composed, decomposed, oldInputs)).toEqual([]);
  });

  test("a property whose value arrived secret is named whole; a secret inside it at its own path", () => {
    const live = { ...recorded, env: { LOG_LEVEL: "debug", "my.key": "a" } };
    expect(driftedPaths(spec, recorded, live, oldInputs, new Set(["env"]))).toEqual(["env"]);
    expect(driftedPaths(spec, recorded, live, oldInputs, new Set(["env.LOG_LEVEL"]))).toEqual(["env.LOG_LEVEL"]);
  });

  test("a property the state has no value for (written before it existed) is not drift", () => {
    const { ports: _ports, ...older } = recorded;
    expect(driftedPaths(spec, older, { ...recorded, ports: [1] }, oldInputs)).toEqual([]);
  });
});

describe("driftWarning", () => {
  const warned = (change: Record<string, unknown>) =>
    driftWarning(spec, recorded, { ...recorded, ...change } as typeof recorded, oldInputs);

  test("no drift, no warning, even when the platform's time moved", () => {
    expect(warned({ updatedAt: "2026-11-27T03:12:00.000Z" })).toBeUndefined();
  });

  test.each([
    ["2 days", "2026-11-27T03:12:09.000Z", "changed outside Pulumi at 2026-11-27 03:12 UTC", "2 days before"],
    ["1 day", "2026-11-26T05:00:00.000Z", "changed outside Pulumi at 2026-11-26 05:00 UTC", "1 day before"],
    ["5 hours", "2026-11-25T08:30:00.000Z", "changed outside Pulumi at 2026-11-25 08:30 UTC", "5 hours before"],
    ["1 minute", "2026-11-25T03:12:00.000Z", "changed outside Pulumi at 2026-11-25 03:12 UTC", "1 minute before"],
    [
      "seconds",
      "2026-11-25T03:11:00.000Z",
      "changed outside Pulumi at 2026-11-25 03:11 UTC",
      "less than a minute before",
    ],
  ])("drift %s after the deploy: both times, and the time between", (_name, changed, at, before) => {
    expect(warned({ size: 20, env: { LOG_LEVEL: "debug", "my.key": "a" }, updatedAt: changed })).toBe(
      `${at} (size, env.LOG_LEVEL); last deployed 2026-11-25 03:10 UTC, ${before}`,
    );
  });

  test("without a time from the platform, or one that did not move, it says it does not know when", () => {
    for (const updatedAt of [undefined, DEPLOYED, "2026-11-24T00:00:00.000Z", "not a time"])
      expect(warned({ size: 20, updatedAt })).toBe("changed outside Pulumi (size); the platform does not say when");
  });

  test("a state without a recorded time still gets the platform's", () => {
    const { updatedAt: _none, ...untimed } = recorded;
    expect(
      driftWarning(spec, untimed, { ...recorded, size: 20, updatedAt: "2026-11-27T03:12:00.000Z" }, oldInputs),
    ).toBe("changed outside Pulumi at 2026-11-27 03:12 UTC (size)");
  });
});
