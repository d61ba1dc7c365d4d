// The preview the build trains the code caches on and row 5 measures (scripts/preview-mix.ts):
// every example of every resource, as the engine would send it.
import { hostingPackage } from "../../provider/src/package";
import { REFERENCED_ID, previewMix, stackResource } from "../../scripts/preview-mix";

const mix = previewMix();

test("holds every example of every resource of the package", () => {
  const expected = hostingPackage.resources.flatMap((r) =>
    r.examples.map((e) => `hosting:index:${r.typeName} ${e.name}`),
  );
  expect(mix.map((r) => `${r.type} ${r.name}`)).toEqual(expected);
});

test("sends references as ids and secrets wrapped as the engine wraps them", () => {
  const attachment = mix.find((r) => r.type === "hosting:index:VolumeAttachment")!;
  expect(attachment.inputs).toMatchObject({ volumeId: REFERENCED_ID, containerId: REFERENCED_ID });
  const registry = mix.find((r) => r.type === "hosting:index:Registry")!;
  const wrapped = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: expect.any(String) };
  expect(registry.inputs.password).toEqual(wrapped);
});

test("a changed resource carries its example's update over its inputs", () => {
  const container = hostingPackage.resources.find((r) => r.typeName === "Container")!;
  const { name, update } = container.examples.find((e) => e.update)!;
  const changed = mix.find((r) => r.name === name)!;
  expect(Object.keys(update!).length).toBeGreaterThan(0);
  expect(changed.changed).toEqual({ ...changed.inputs, ...update });
  expect(changed.changed).not.toEqual(changed.inputs);
});

test("a stack repeats the mix, each resource with its own name", () => {
  const first = stackResource(mix, 1);
  const again = stackResource(mix, 1 + mix.length);
  expect(again.type).toBe(first.type);
  expect(again.name).not.toBe(first.name);
  // A `name` input, where an example gives one, is made unique too; the others are left to the provider.
  const named = mix.findIndex((r) => typeof r.inputs.name === "string");
  if (named === -1) expect(again.inputs).toEqual(first.inputs);
  else
    expect(stackResource(mix, named + mix.length).inputs.name).toBe(`${mix[named].inputs.name}-${named + mix.length}`);
});
