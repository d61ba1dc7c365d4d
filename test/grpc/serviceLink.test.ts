import { isSecret } from "./engine";
import { describeLifecycle, mutate, useFixture, type Fixture } from "./fixture";

const fixture = useFixture();
const TYPE = "hosting:index:ServiceLink";
const ids = { app: "", db: "", other: "" };

async function service(f: Fixture, type: string, name: string, extra: Record<string, unknown> = {}) {
  const { inputs } = await f.plugin.check(type, name, { name, ...extra });
  return (await f.plugin.create(type, name, inputs)).id;
}

beforeAll(async () => {
  ids.app = await service(fixture, "hosting:index:Container", "consumer", {
    image: "registry.example.com/team/app:1.0.0",
  });
  ids.db = await service(fixture, "hosting:index:Postgres", "provider-db");
  ids.other = await service(fixture, "hosting:index:Redis", "other-cache");
});

describe("ServiceLink", () => {
  // Inputs are read lazily: the services are created in beforeAll.
  const inputs = {} as Record<string, unknown>;
  beforeAll(() => Object.assign(inputs, { consumerServiceId: ids.app, providerServiceId: ids.db }));

  describeLifecycle("link", fixture, {
    type: TYPE,
    inputs,
    replace: { linkType: "postgres" },
    drift: { apply: mutate("links", { link_type: "tcp" }), property: "linkType" },
    remove: (f, id) => f.sim.control.remove("links", id),
    deleteForgets: true,
    unknownInput: "providerServiceId",
  });

  test("injectedEnv is a secret, and deleting warns that the API cannot delete links", async () => {
    const checked = await fixture.plugin.check(TYPE, "warned", {
      consumerServiceId: ids.app,
      providerServiceId: ids.other,
    });
    const created = await fixture.plugin.create(TYPE, "warned", checked.inputs);
    expect(isSecret(created.properties.injectedEnv)).toBe(true);
    expect((created.properties.injectedEnv as { value: Record<string, string> }).value).toHaveProperty("REDIS_URL");
    const before = fixture.plugin.engine.messages.length;
    await fixture.plugin.delete(TYPE, "warned", created.id, created.properties);
    const warnings = fixture.plugin.engine.messages.slice(before);
    expect(warnings).toEqual([
      expect.objectContaining({ severity: 2, message: expect.stringMatching(/no way to delete service links/) }),
    ]);
    expect(fixture.sim.control.snapshot().links.map((l) => l.id)).toContain(created.id);
  });

  // Warnings reach the engine before the answer does (a Go provider's host.Log blocks the same way),
  // but an engine that never acknowledges holds the answer back 2 s at most.
  test.each([
    ["a slow engine: the delete answers once its warning is acknowledged", 300, 300],
    ["an engine that never acknowledges: the delete answers anyway", Infinity, 2_000],
  ])("%s", async (_, logDelayMs, heldAtLeastMs) => {
    const checked = await fixture.plugin.check(TYPE, "slow-engine", {
      consumerServiceId: ids.app,
      providerServiceId: ids.other,
    });
    const created = await fixture.plugin.create(TYPE, "slow-engine", checked.inputs);
    fixture.plugin.engine.logDelayMs = logDelayMs;
    try {
      const started = performance.now();
      await fixture.plugin.delete(TYPE, "slow-engine", created.id, created.properties);
      expect(performance.now() - started).toBeGreaterThanOrEqual(heldAtLeastMs - 5);
    } finally {
      fixture.plugin.engine.logDelayMs = 0;
    }
  });
});
