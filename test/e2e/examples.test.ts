// Every program users are shown runs under the real CLI (issue 42, item 3), not only a type-check
// (test/docs/programs.test.ts, test/examples): each example in examples/ (a folder with an index.ts)
// and each complete program of the README and docs/ (a block marked `typescript`,
// test/docs/markdown.ts), found by listing them, goes `up` and `destroy` as an inline program.
//
// What a program needs is read from its source: a value for each configuration key it requires
// (`config.requireSecret("ghcrToken")`, set as a secret), and the resources it looks up by name
// (`hosting.getRedisOutput({ name: "cache" })`), made first in a stack of their own from the kind's
// first example. After `up`, every resource the stack holds is a record of the platform, and the
// stack holds every kind the program declares (`new hosting.Volume(…)`); after `destroy`, none of
// those records is left, and what the program only looked up is still there.
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "@hosting/pulumi";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isExampleSecret, isReference } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import { docPrograms } from "../docs/markdown";
import type { SimKind } from "../../simulator/src";
import { type E2E, programFromSource, ROOT, useE2E } from "./harness";

const e2e = useE2E();

const examples = readdirSync(join(ROOT, "examples"))
  .filter((name) => existsSync(join(ROOT, "examples", name, "index.ts")))
  .map((name) => ({
    name: `examples/${name}/index.ts`,
    code: readFileSync(join(ROOT, "examples", name, "index.ts"), "utf8"),
  }));
const cases = [...examples, ...docPrograms()];

test("the programs include every example and the README's first program", () => {
  expect(cases.map((c) => c.name)).toEqual(
    expect.arrayContaining(["examples/app-with-postgres/index.ts", "examples/volume/index.ts", "README.md program 1"]),
  );
});

/** The configuration a program requires, each with a value of its type (`config.require<Type>("key")`). */
function requiredConfig(code: string): pulumi.automation.ConfigMap {
  const values: Record<string, string> = { Number: "1", Boolean: "true", Object: "{}", "": "" };
  return Object.fromEntries(
    [...code.matchAll(/config\.require(Secret)?(Number|Boolean|Object)?\(\s*"([^"]+)"/g)].map(
      ([, secret, type = "", key]) => [key, { value: values[type] || `e2e-${key}`, secret: secret !== undefined }],
    ),
  );
}

/** The resources a program looks up by name: `hosting.get<Type>(Output)?({ name: "..." })`. */
const lookups = (code: string) =>
  [...code.matchAll(/hosting\.get(\w+?)(?:Output)?\(\s*\{\s*name:\s*"([^"]+)",?\s*\}/g)]
    .map(([, typeName, name]) => ({ typeName, name }))
    .filter(({ typeName }) => hostingPackage.resources.some((r) => r.typeName === typeName));

type ResourceClass = new (name: string, args: unknown) => pulumi.CustomResource;

/** The kinds a program declares: `new hosting.<Type>(`. */
const declaredTypes = (code: string) =>
  [...new Set([...code.matchAll(/new hosting\.(\w+)\(/g)].map(([, typeName]) => `hosting:index:${typeName}`))].sort();

/** A kind's first example's plain inputs (no reference, no secret), named `name`. */
function exampleInputs(typeName: string, name: string) {
  const { inputs } = hostingPackage.resources.find((r) => r.typeName === typeName)!.examples[0];
  const plain = Object.entries(inputs).filter(([, value]) => !isReference(value) && !isExampleSecret(value));
  return { ...Object.fromEntries(plain), name };
}

/** The resources of the package a stack holds, as its export shows them. */
async function resourcesOf(stack: pulumi.automation.Stack): Promise<Array<{ type: string; id: string }>> {
  const { deployment } = await stack.exportStack();
  return (deployment.resources ?? []).filter((r: { type: string }) => r.type.startsWith("hosting:index:"));
}

/** The record the platform has for the resource, of its kind (a Container's is a service of type container). */
function recordFor(e2e: E2E, { type, id }: { type: string; id: string }) {
  const found = e2e.recordOf(id);
  const typeName = type.split(":").pop()!;
  if (found?.kind === "services" && found.record.type !== typeName.toLowerCase()) return undefined;
  return found;
}

/** How many live records the platform has of each kind. */
const liveCounts = (e2e: E2E) =>
  Object.fromEntries(
    Object.keys(e2e.sim.control.snapshot())
      .filter((kind) => kind !== "logs" && kind !== "suspended_projects")
      .map((kind) => [kind, e2e.records(kind as SimKind).length]),
  );

let run = 0;
test.each(cases)("$name: up, then destroy", async ({ name, code }) => {
  const project = `example-${++run}`;
  const world = lookups(code);
  const before = liveCounts(e2e);
  // What the program looks up, made first in a stack of its own (none when it looks up nothing).
  const worldStack =
    world.length === 0
      ? undefined
      : await e2e.stack(`${project}-world`, "dev", async () => {
          for (const { typeName, name: resourceName } of world) {
            const Resource = (hosting as unknown as Record<string, ResourceClass>)[typeName];
            new Resource(resourceName, exampleInputs(typeName, resourceName));
          }
        });
  await worldStack?.up();
  const looked = worldStack ? (await resourcesOf(worldStack)).map((r) => r.id) : [];
  expect(looked).toHaveLength(world.length);

  const stack = await e2e.stack(project, "dev", programFromSource(code, name), requiredConfig(code));
  await stack.up();
  const made = await resourcesOf(stack);
  expect({ name, types: [...new Set(made.map((r) => r.type))].sort() }).toEqual({ name, types: declaredTypes(code) });
  expect(made.filter((r) => !recordFor(e2e, r))).toEqual([]);

  await stack.destroy();
  expect(made.filter((r) => e2e.recordOf(r.id))).toEqual([]);
  expect(looked.filter((id) => !e2e.recordOf(id))).toEqual([]);
  await worldStack?.destroy();
  // The platform is as the case found it: nothing left behind.
  expect(liveCounts(e2e)).toEqual(before);
});
