// The project's `pulumi:autonaming` configuration under the real Pulumi CLI, written as Pulumi documents it (the
// project's Pulumi.yaml: `config: { pulumi:autonaming: { value: … } }`; see pulumi.com/docs/iac/concepts/resources/
// names, "Autonaming configuration"), read on the platform: the names the simulator holds. The CLI (v3.274.1,
// pkg/cmd/pulumi/autonaming) resolves a pattern's `${name}`, `${stack}`, `${project}` and random parts (`${hex(4)}`),
// lets a provider's entry (`providers.hosting`) override the top level and a resource type's entry
// (`resources["hosting:index:Redis"]`) override its provider's, and sends each Check its proposal: `propose` for a
// pattern, `enforce` for `mode: verbatim` (the logical name) or `enforce: true`, `disable` for `mode: disabled`.
//
// Two stacks of one program with `${name}-${stack}` live side by side on one platform and clash on nothing.
// 32 s here (2 cores, load 11 to 16). Run: node_modules/.bin/jest --selectProjects e2e -- test/e2e/autonaming
import * as hosting from "@hosting/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { createsAndDeletes, useE2E } from "./harness";

const e2e = useE2E({ traceGrpc: true });

const image = "registry.example.com/team/web:1.0.0";
const autonaming = (value: Record<string, unknown>) => ({ config: { "pulumi:autonaming": { value } } });
const names = () => e2e.records("services").map((s) => s.name as string);

/**
 * What the engine sent each Check of a resource type since `mark`: the proposal in CheckRequest.autonaming (the log
 * is protobuf's JSON, which leaves out a mode of PROPOSE, the enum's zero).
 */
const proposals = (mark: number, type: string) =>
  e2e
    .providerCalls()
    .slice(mark)
    .filter((c) => c.method === "Check" && c.request.type === type)
    .map((c) => c.request.autonaming);

test("${name}-${stack}: two stacks of one program side by side, each app and database named for its stack", async () => {
  const program: PulumiFn = async () => {
    const db = new hosting.Postgres("db");
    const web = new hosting.Container("web", { image, links: [db.id] });
    return { web: web.name, db: db.name };
  };
  const settings = autonaming({ pattern: "${name}-${stack}" });
  const stacks = await Promise.all(
    ["dev", "pr-12"].map((name) => e2e.stack("autonaming-stacks", name, program, {}, settings)),
  );
  const calls = e2e.providerCalls().length;
  // One after the other: inline programs share this process's Pulumi runtime, which runs one program at a time.
  const ups = [await stacks[0].up(), await stacks[1].up()];
  expect(ups.map((up) => [up.outputs.web.value, up.outputs.db.value])).toEqual([
    ["web-dev", "db-dev"],
    ["web-pr-12", "db-pr-12"],
  ]);
  expect(names().sort()).toEqual(["db-dev", "db-pr-12", "web-dev", "web-pr-12"]);
  expect(
    e2e
      .records("links")
      .map((l) => l.consumer_service_id)
      .sort(),
  ).toEqual(
    e2e
      .records("services")
      .filter((s) => s.type === "container")
      .map((s) => s.id)
      .sort(),
  );
  expect(proposals(calls, "hosting:index:Container")).toEqual(
    expect.arrayContaining([{ proposedName: "web-dev" }, { proposedName: "web-pr-12" }]),
  );
  for (const stack of stacks) await stack.preview({ expectNoChanges: true });

  // A pattern with no random part gives a replacement the same name: the engine deletes the original first.
  const [dev] = stacks;
  const before = new Map(e2e.records("services").map((s) => [s.name, s.id]));
  const mark = e2e.sim.control.requests().length;
  await dev.up({ replace: ["urn:pulumi:dev::autonaming-stacks::hosting:index:Container::web"] });
  expect(createsAndDeletes(e2e.sim.control.requests().slice(mark), "containers")).toEqual([
    `delete ${before.get("web-dev")}`,
    "create",
  ]);
  expect(e2e.records("services").find((s) => s.name === "web-dev").id).not.toBe(before.get("web-dev"));
  for (const stack of stacks) await stack.destroy();
  expect(e2e.records("services")).toEqual([]);
});

describe("a provider's entry and a resource type's entry override the top level", () => {
  const settings = autonaming({
    pattern: "${name}-${stack}", // the top level: for other providers, once hosting has its own entry
    providers: {
      hosting: {
        pattern: "${stack}-${name}-${hex(4)}",
        resources: { "hosting:index:Redis": { mode: "verbatim" }, "hosting:index:Volume": { mode: "disabled" } },
      },
    },
  });
  /** Whether the next run declares a second Volume, without a name (which `mode: disabled` refuses). */
  let unnamedVolume = false;

  const program: PulumiFn = async () => {
    const web = new hosting.Container("web", { image });
    const cache = new hosting.Redis("cache");
    const data = new hosting.Volume("data", { name: "data-vol", sizeGb: 1 });
    if (unnamedVolume) new hosting.Volume("more", { sizeGb: 1 });
    return { web: web.name, cache: cache.name, data: data.name };
  };

  test("the provider's pattern, verbatim for Redis, and a Volume named by the program", async () => {
    const stack = await e2e.stack("autonaming-overrides", "dev", program, {}, settings);
    const mark = e2e.providerCalls().length;
    const up = await stack.up();
    expect(up.outputs.web.value).toMatch(/^dev-web-[0-9a-f]{4}$/);
    expect(up.outputs.cache.value).toBe("cache");
    expect(up.outputs.data.value).toBe("data-vol");
    expect(names().sort()).toEqual(["cache", up.outputs.web.value].sort());
    expect(e2e.records("volumes").map((v) => v.name)).toEqual(["data-vol"]);
    expect(proposals(mark, "hosting:index:Container")).toEqual([{ proposedName: up.outputs.web.value }]);
    expect(proposals(mark, "hosting:index:Redis")).toEqual([{ proposedName: "cache", mode: "ENFORCE" }]);
    expect(proposals(mark, "hosting:index:Volume")).toEqual([{ mode: "DISABLE" }]);
    await stack.preview({ expectNoChanges: true });
  });

  test("mode: disabled makes a Volume without a name fail Check, saying to set it, with nothing sent", async () => {
    const stack = await e2e.stack("autonaming-overrides", "dev", program, {}, settings);
    unnamedVolume = true;
    const mark = e2e.sim.control.requests().length;
    await expect(stack.preview()).rejects.toThrow(
      "name is required: the project's pulumi:autonaming configuration disables autonaming for this resource, so set name in the program",
    );
    expect(
      e2e.sim.control
        .requests()
        .slice(mark)
        .filter((r) => r.method !== "GET"),
    ).toEqual([]);
    expect(e2e.records("volumes").map((v) => v.name)).toEqual(["data-vol"]);
    unnamedVolume = false;
    await stack.destroy();
    expect([...names(), ...e2e.records("volumes")]).toEqual([]);
  });
});
