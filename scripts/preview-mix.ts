// A preview's own mix of kinds, from the package's declarations: every example of every resource,
// as the engine sends it to Check and Diff (references as ids, secrets wrapped as the engine wraps
// them). The build trains the plugin's code caches on it (scripts/code-cache.mjs), so that the code
// a preview runs, Check and Diff of every kind with their validators, is compiled before the first
// call; the benchmarks measure the same mix (bench/overhead.ts). A new kind or example joins both.
import { isExampleSecret, isReference, type ExampleValue } from "../provider/src/framework/declare";
import { hostingPackage } from "../provider/src/package";

/** One resource of the mix: its token, its name in the program, its inputs, and them with its example's change. */
export interface MixedResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  changed: Record<string, unknown>;
}

/** What a reference resolves to at preview time once its resource exists: an id. */
export const REFERENCED_ID = "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00";
/** The engine's secret wrapper (sdk/proto's "4dabf18193072939515e22adb298388d" signature). */
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

function engineValue(value: ExampleValue): unknown {
  if (isReference(value)) return REFERENCED_ID;
  if (isExampleSecret(value)) return secret(value.sample);
  if (Array.isArray(value)) return value.map(engineValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, engineValue(v as ExampleValue)]));
  }
  return value;
}

const engineValues = (values: Record<string, ExampleValue>) => engineValue(values) as Record<string, unknown>;

/** Every example of every resource of the package, in the package's order. */
export function previewMix(): MixedResource[] {
  return hostingPackage.resources.flatMap((resource) =>
    resource.examples.map((example) => ({
      type: `${hostingPackage.name}:index:${resource.typeName}`,
      name: example.name,
      inputs: engineValues(example.inputs),
      changed: engineValues({ ...example.inputs, ...example.update }),
    })),
  );
}

/** The i-th resource of a stack of the mix repeated: each its own name, and `name` input where it has one. */
export function stackResource(mix: readonly MixedResource[], i: number): MixedResource {
  const kind = mix[i % mix.length];
  const rename = (inputs: Record<string, unknown>) =>
    typeof inputs.name === "string" ? { ...inputs, name: `${inputs.name}-${i}` } : inputs;
  return { ...kind, name: `${kind.name}-${i}`, inputs: rename(kind.inputs), changed: rename(kind.changed) };
}
