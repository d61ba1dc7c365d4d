// Every resource's first example (the one the docs show) runs for real through the engine's
// sequences against the simulator: created from its inputs (what it refers to created first,
// from their own examples), changed in place by its `update` where it has one, read back as
// unchanged, and deleted. The list of kinds is the package's; the simulator's collections are its own.
import {
  isExampleSecret,
  isReference,
  type ExampleValue,
  type ResourceDeclaration,
} from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import { KINDS } from "../../simulator/src/collections";
import { DIFF_NONE, Engine, secret, type ResourceState } from "./engine";
import { useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 50 });
const token = (r: ResourceDeclaration) => `hosting:index:${r.typeName}`;
/** What the examples made so far, by type name: the engine's state of each. */
const made = new Map<string, ResourceState>();

/** An example's inputs as the engine sends them: references as the ids made, secrets wrapped. */
function program(values: Record<string, ExampleValue>): Record<string, unknown> {
  const value = (v: ExampleValue): unknown => {
    if (isReference(v)) return made.get(v.reference)!.outputs[v.output] ?? made.get(v.reference)!.id;
    if (isExampleSecret(v)) return secret(v.sample);
    return v;
  };
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, value(v)]));
}

describe.each(hostingPackage.resources.map((r) => [r.typeName, r] as const))("%s's example", (typeName, resource) => {
  const example = resource.examples[0];

  test("is created as the docs show it", async () => {
    const engine = new Engine(fixture.plugin);
    const state = await engine.created(token(resource), example.name, program(example.inputs));
    expect(state.id).not.toBe("");
    made.set(typeName, state);
  });

  test("reads back as unchanged (a refresh shows no drift)", async () => {
    const refreshed = await new Engine(fixture.plugin).refresh(token(resource), example.name, made.get(typeName)!);
    expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
  });

  // Kinds whose every input replaces have no in-place change to show.
  if (example.update)
    test("changes in place by its update", async () => {
      const before = made.get(typeName)!;
      const up = await new Engine(fixture.plugin).up(
        token(resource),
        example.name,
        program({ ...example.inputs, ...example.update }),
        before,
      );
      expect({ steps: up.steps, error: up.error?.details }).toEqual({ steps: ["update"], error: undefined });
      expect(up.state.id).toBe(before.id);
      made.set(typeName, up.state);
    });
});

test("every example is deleted again, what refers to others first", async () => {
  for (const resource of [...hostingPackage.resources].reverse()) {
    const state = made.get(resource.typeName)!;
    await fixture.plugin.delete(token(resource), resource.examples[0].name, state.id, state.outputs, state.inputs);
  }
  const world = fixture.sim.control.snapshot();
  const left = Object.fromEntries(KINDS.map((kind) => [kind, world[kind].length]));
  expect(left).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, 0])));
});
