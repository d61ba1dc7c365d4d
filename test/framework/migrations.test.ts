// State migrations, as case tables: a recorded map in an old shape becomes the current one, each
// migration applied when its `from` holds, in the order declared; the current shape passes as it
// is; a migration that leaves the old shape is refused rather than run again at every call.
import { migrateState, type StateMigration } from "../../provider/src/framework/migrations";
import type { PropertyMap } from "../../provider/src/framework/values";

/** Two changes of meaning, one release after the other: `sizeMb` became `sizeGb`, then `host` lost its scheme. */
const gigabytes: StateMigration = {
  description: "sizeMb became sizeGb",
  from: (state) => state.sizeMb !== undefined,
  migrate: ({ sizeMb, ...rest }) => ({ ...rest, sizeGb: Math.ceil((sizeMb as number) / 1024) }),
};
const bareHost: StateMigration = {
  description: "host lost its https:// scheme",
  from: (state) => typeof state.host === "string" && state.host.startsWith("https://"),
  migrate: (state) => ({ ...state, host: (state.host as string).slice("https://".length) }),
};
const migrations = [gigabytes, bareHost];

describe("migrateState: a recorded map in this release's shape", () => {
  const current = { name: "a", sizeGb: 10, host: "r.io" };
  test.each([
    ["two releases old: each change since, in order", { name: "a", sizeMb: 10240, host: "https://r.io" }, current],
    ["one release old: the last change only", { name: "a", sizeGb: 10, host: "https://r.io" }, current],
    ["current: as it is", current, current],
    ["inputs that never held the migrated properties: as they are", { name: "a" }, { name: "a" }],
  ])("%s", (_, recorded, expected) => expect(migrateState(migrations, recorded)).toEqual(expected));

  test("a resource that declares no migrations gets its state as it came", () => {
    const recorded = { name: "a", sizeMb: 1 };
    expect(migrateState(undefined, recorded)).toBe(recorded);
    expect(migrateState([], recorded)).toBe(recorded);
  });

  test("the same old state migrates the same way every time, and what was given is left unchanged", () => {
    const recorded: PropertyMap = Object.freeze({ name: "a", sizeMb: 2048, host: "https://r.io" });
    const once = migrateState(migrations, recorded);
    expect(migrateState(migrations, recorded)).toEqual(once);
    expect(migrateState(migrations, once)).toEqual(once);
    expect(recorded).toEqual({ name: "a", sizeMb: 2048, host: "https://r.io" });
  });

  test("a migration whose result still holds the old shape is refused, naming it", () => {
    const stuck: StateMigration = { ...bareHost, description: "a wrong one", migrate: (s) => ({ ...s }) };
    expect(() => migrateState([stuck], { host: "https://r.io" })).toThrow(
      'the state migration "a wrong one" leaves the state in the shape it migrates from',
    );
  });
});
