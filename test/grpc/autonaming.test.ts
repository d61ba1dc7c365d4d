// Names that Pulumi picks (DESIGN "Names"): a resource whose program leaves `name` out is named
// from its logical name and the engine's randomSeed, or as the project's pulumi:autonaming says;
// an update keeps the name it has; a replacement of an autonamed resource takes a fresh name from
// the engine's second Check and creates first, one whose name the program gave deletes first.
// Driven in the engine's order (engine.ts), against the simulator.
import { suffixOf } from "../../provider/src/framework/autoname";
import { DIFF_NONE, Engine, KIND } from "./engine";
import { CONTAINER, POSTGRES, REGISTRY, VOLUME, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const seed = (byte: number) => new Uint8Array(32).fill(byte);
const apps = () => fixture.sim.control.snapshot().services.filter((s) => s.type === "container");
const writes = (mark: number) => fixture.requestsSince(mark).filter((r) => r.method !== "GET");

describe("Check names what the program leaves unnamed", () => {
  test.each([CONTAINER, POSTGRES, REGISTRY, VOLUME])(
    "%s: its logical name and a suffix from the seed; the same seed, the same name",
    async (type) => {
      const program =
        type === CONTAINER
          ? { image: IMAGE }
          : type === REGISTRY
            ? { host: "ghcr.io" }
            : type === VOLUME
              ? { sizeGb: 1 }
              : {};
      const first = await fixture.plugin.check(type, "my_Data", program, {}, { randomSeed: seed(1) });
      const again = await fixture.plugin.check(type, "my_Data", program, {}, { randomSeed: seed(1) });
      const other = await fixture.plugin.check(type, "my_Data", program, {}, { randomSeed: seed(2) });
      expect(first.failures).toEqual([]);
      expect(first.inputs.name).toBe(`my-data-${suffixOf(seed(1))}`);
      expect(again.inputs.name).toBe(first.inputs.name);
      expect(other.inputs.name).not.toBe(first.inputs.name);
    },
  );

  test("two stacks of one program (a stack per pull request) get two names, and both are made", async () => {
    const dev = await engine().created(CONTAINER, "web", { image: IMAGE });
    const pr = await engine().created(CONTAINER, "web", { image: IMAGE });
    expect(dev.outputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(pr.outputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(pr.outputs.name).not.toBe(dev.outputs.name);
    expect(apps().filter((s) => s.id === dev.id || s.id === pr.id)).toHaveLength(2);
  });

  test("a logical name that cannot become a name fails Check, saying to set name, before any call", async () => {
    const mark = fixture.mark();
    const checked = await fixture.plugin.check(CONTAINER, "123", { image: IMAGE }, {}, { randomSeed: seed(3) });
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: expect.stringContaining(
          'name is required here: no valid name can be made from the resource\'s name "123" (name "123" is not valid',
        ),
      },
    ]);
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test.each([
    [
      "propose: the pattern's name, fitted to the API's rule",
      { mode: "propose", proposedName: "Web_PR_12" },
      "web-pr-12",
    ],
    ["enforce: the pattern's name exactly", { mode: "enforce", proposedName: "web-pr-12" }, "web-pr-12"],
  ] as const)("pulumi:autonaming %s", async (_title, autonaming, name) => {
    const checked = await fixture.plugin.check(
      CONTAINER,
      "web",
      { image: IMAGE },
      {},
      { randomSeed: seed(4), autonaming },
    );
    expect(checked).toEqual({ inputs: expect.objectContaining({ name }), failures: [] });
  });

  test.each([
    [
      "enforce: a name that breaks the rule fails, naming the rule",
      { mode: "enforce", proposedName: "Web_PR_12" },
      'enforces the name "Web_PR_12", which breaks the API\'s name rule (name "Web_PR_12" is not valid: use lowercase letters',
    ],
    [
      "disable: a missing name fails",
      { mode: "disable", proposedName: "" },
      "name is required: the project's pulumi:autonaming configuration disables autonaming",
    ],
  ] as const)("pulumi:autonaming %s", async (_title, autonaming, reason) => {
    const checked = await fixture.plugin.check(
      CONTAINER,
      "web",
      { image: IMAGE },
      {},
      { randomSeed: seed(5), autonaming },
    );
    expect(checked.failures).toEqual([{ property: "name", reason: expect.stringContaining(reason) }]);
  });

  test("a proposal over 63 characters keeps its tail: the stacks pr-12 and pr-13 get two names, and both are made", async () => {
    const logical = "customer-facing-checkout-service-with-a-long-descriptive-name";
    const named = async (stack: string) => {
      const proposedName = `${logical}-${stack}`; // the pattern name-stack, as the engine fills it in
      const checked = await fixture.plugin.check(
        CONTAINER,
        logical,
        { image: IMAGE },
        {},
        { randomSeed: seed(6), autonaming: { mode: "propose", proposedName } },
      );
      expect(checked.failures).toEqual([]);
      return checked.inputs.name as string;
    };
    const [first, second] = [await named("pr-12"), await named("pr-13")];
    for (const [name, stack] of [
      [first, "pr-12"],
      [second, "pr-13"],
    ]) {
      expect(name).toMatch(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/);
      expect(name.startsWith("customer-facing-")).toBe(true);
      expect(name.endsWith(`-${stack}`)).toBe(true);
    }
    expect(first).not.toBe(second);
    for (const name of [first, second]) await engine().created(CONTAINER, name, { name, image: IMAGE });
    expect(apps().filter((s) => s.name === first || s.name === second)).toHaveLength(2);
  });

  test("enforce: a proposal over 63 characters fails Check, naming the rule", async () => {
    const proposedName = `customer-facing-checkout-service-with-a-long-descriptive-name-pr-12`;
    const checked = await fixture.plugin.check(
      CONTAINER,
      "web",
      { image: IMAGE },
      {},
      { randomSeed: seed(6), autonaming: { mode: "enforce", proposedName } },
    );
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: expect.stringContaining(
          `enforces the name "${proposedName}", which breaks the API's name rule (name is ${proposedName.length} characters long; use at most 63)`,
        ),
      },
    ]);
  });

  test("a name the program sets wins over the engine's autonaming", async () => {
    const checked = await fixture.plugin.check(
      CONTAINER,
      "web",
      { name: "mine", image: IMAGE },
      {},
      {
        autonaming: { mode: "enforce", proposedName: "web-pr-12" },
      },
    );
    expect(checked.inputs.name).toBe("mine");
  });
});

describe("an update keeps the name it has", () => {
  test("a program that never sets name sees no diff on it, whatever seed each run draws", async () => {
    const state = await engine().created(CONTAINER, "keeper", { image: IMAGE });
    const up = await engine().up(CONTAINER, "keeper", { image: IMAGE, env: { A: "1" } }, state);
    expect(up).toMatchObject({ steps: ["update"], error: undefined });
    expect(up.diff?.diffs).toEqual(["env"]);
    expect(up.state.outputs.name).toBe(state.outputs.name);
    const again = await engine().preview(CONTAINER, "keeper", { image: IMAGE, env: { A: "1" } }, up.state);
    expect(again.diff).toMatchObject({ changes: DIFF_NONE, diffs: [] });
  });

  test("setting name to the name it already has is no change", async () => {
    const state = await engine().created(CONTAINER, "pinned", { image: IMAGE });
    const preview = await engine().preview(CONTAINER, "pinned", { name: state.outputs.name, image: IMAGE }, state);
    expect(preview.diff).toMatchObject({ changes: DIFF_NONE, diffs: [] });
  });
});

describe("replacements that work", () => {
  test("an autonamed app replaced (a replaceOnChanges path) takes a fresh name from the second Check and is created before the old one is deleted", async () => {
    const state = await engine().created(CONTAINER, "zero", { image: IMAGE, env: { DATABASE_HOST: "a" } });
    const oldName = state.outputs.name as string;
    const mark = fixture.mark();
    const up = await engine().up(CONTAINER, "zero", { image: IMAGE, env: { DATABASE_HOST: "b" } }, state, {
      replaceOnChanges: ["env.DATABASE_HOST"],
    });
    expect(up.diff?.detailedDiff).toEqual({ "env.DATABASE_HOST": KIND.UPDATE_REPLACE });
    expect(up.diff?.deleteBeforeReplace).toBe(false);
    expect(up).toMatchObject({ steps: ["create", "delete"], error: undefined });
    expect(up.state.outputs.name).toMatch(/^zero-[0-9a-f]{7}$/);
    expect(up.state.outputs.name).not.toBe(oldName);
    // Zero downtime: the new app was made (and awaited running) before the old one's DELETE.
    const sent = writes(mark).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, "<id>")}`);
    expect(sent.indexOf("POST /v1/projects/<id>/containers")).toBeLessThan(
      sent.indexOf("DELETE /v1/projects/<id>/containers/<id>"),
    );
    expect(apps().map((s) => s.name)).toContain(up.state.outputs.name);
    expect(apps().map((s) => s.name)).not.toContain(oldName);
  });

  test("an app whose name the program gave is replaced delete-first, so the replacement never meets 409", async () => {
    const state = await engine().created(CONTAINER, "named", {
      name: "named-app",
      image: IMAGE,
      env: { DATABASE_HOST: "a" },
    });
    const up = await engine().up(
      CONTAINER,
      "named",
      { name: "named-app", image: IMAGE, env: { DATABASE_HOST: "b" } },
      state,
      {
        replaceOnChanges: ["env.DATABASE_HOST"],
      },
    );
    expect(up.diff?.deleteBeforeReplace).toBe(true);
    expect(up).toMatchObject({ steps: ["delete", "create"], error: undefined });
    expect(up.state.outputs.name).toBe("named-app");
    expect(up.state.id).not.toBe(state.id);
  });

  test("`pulumi up --replace` (no Diff) of a named app meets the old name, and the message names deleteBeforeReplace and autonaming", async () => {
    const state = await engine().created(CONTAINER, "forced", { name: "forced-app", image: IMAGE });
    const replacing = engine().forceReplace(CONTAINER, "forced", { name: "forced-app", image: IMAGE }, state);
    await expect(replacing).rejects.toMatchObject({
      details: expect.stringMatching(
        /another resource in this scope has this name: .*leave `name` out .*deleteBeforeReplace: true/,
      ),
    });
  });

  test("the data guard still protects an autonamed database: its replacement fails at preview with nothing sent", async () => {
    const state = await engine().created(POSTGRES, "guarded", {});
    const mark = fixture.mark();
    const moved = await engine().preview(
      POSTGRES,
      "guarded",
      { projectId: "00000000-0000-4000-8000-000000000b0b" },
      state,
    );
    expect(moved.error?.details).toMatch(
      /^changing projectId from .* replaces PostgreSQL database guarded-[0-9a-f]{7} and all its data/,
    );
    expect(writes(mark)).toEqual([]);
  });
});
