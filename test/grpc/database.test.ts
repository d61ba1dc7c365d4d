import { DIFF_NONE, Engine, isSecret } from "./engine";
import { describeLifecycle, mutate, removeRecord, useFixture } from "./fixture";

const fixture = useFixture();

for (const [type, name] of [
  ["hosting:index:Postgres", "db"],
  ["hosting:index:Mysql", "mydb"],
  ["hosting:index:Redis", "cache"],
] as const) {
  describeLifecycle(name, fixture, {
    type,
    inputs: { name, cpuMilli: 500, memoryMb: 512, storageGb: 5 },
    replace: { name: `${name}-2` },
    drift: { apply: mutate("services", { storage_gb: 9 }), property: "storageGb" },
    remove: removeRecord("services"),
    unknownInput: "name",
  });
}

describe("Managed database behaviour", () => {
  const TYPE = "hosting:index:Postgres";

  test("the connection comes back with its instructions secret", async () => {
    const { inputs } = await fixture.plugin.check(TYPE, "secret-db", { name: "secret-db" });
    const created = await fixture.plugin.create(TYPE, "secret-db", inputs);
    const connection = created.properties.connection as Record<string, unknown>;
    expect(isSecret(connection.instructions)).toBe(true);
    expect(connection).toMatchObject({ envVar: "DATABASE_URL", requiresAuth: true, port: "5432" });
    const read = await fixture.plugin.read(TYPE, "secret-db", created.id, created.properties, inputs);
    expect(isSecret((read.properties.connection as Record<string, unknown>).instructions)).toBe(true);
    const diff = await fixture.plugin.diff(TYPE, "secret-db", created.id, read.properties, inputs, read.inputs);
    expect(diff.changes).toBe(DIFF_NONE);
  });

  test("a resize fails at preview and says how to replace deliberately, with no API call", async () => {
    const { inputs } = await fixture.plugin.check(TYPE, "sized", { name: "sized", storageGb: 5 });
    const created = await fixture.plugin.create(TYPE, "sized", inputs);
    const mark = fixture.mark();
    const preview = await new Engine(fixture.plugin).preview(
      TYPE,
      "sized",
      { name: "sized", storageGb: 10 },
      { id: created.id, inputs, outputs: created.properties },
    );
    expect(preview.error).toMatchObject({
      code: 3,
      details: expect.stringMatching(
        /^storageGb cannot change .*cannot resize a managed PostgreSQL database.*--replace/s,
      ),
    });
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test(
    "a size first set after creation fails at the update's preview against the live value, " + "not silently",
    async () => {
      const { inputs } = await fixture.plugin.check(TYPE, "unsized", { name: "unsized" });
      const created = await fixture.plugin.create(TYPE, "unsized", inputs);
      const next = await fixture.plugin.check(TYPE, "unsized", { name: "unsized", memoryMb: 4096 }, inputs);
      expect(next.failures).toEqual([]);
      const diff = await fixture.plugin.diff(TYPE, "unsized", created.id, created.properties, next.inputs, inputs);
      expect(diff.diffs).toEqual(["memoryMb"]);
      const mark = fixture.mark();
      for (const preview of [true, false]) {
        await expect(
          fixture.plugin.update(TYPE, "unsized", created.id, created.properties, next.inputs, inputs, { preview }),
        ).rejects.toMatchObject({
          code: 3 /* INVALID_ARGUMENT */,
          details: expect.stringMatching(/memoryMb cannot change from 256 to 4096/),
        });
      }
      expect(fixture.requestsSince(mark)).toEqual([]);
    },
  );

  test("importing a database id as another kind fails, naming the kind, instead of adopting it", async () => {
    const { inputs } = await fixture.plugin.check(TYPE, "kind-db", { name: "kind-db" });
    const created = await fixture.plugin.create(TYPE, "kind-db", inputs);
    await expect(fixture.plugin.read("hosting:index:Container", "kind-db", created.id)).rejects.toMatchObject({
      details: expect.stringMatching(/is a postgres, not a container/),
    });
    await expect(fixture.plugin.read("hosting:index:Mysql", "kind-db", created.id)).rejects.toMatchObject({
      details: expect.stringMatching(/is a postgres, not a mysql/),
    });
  });
});
