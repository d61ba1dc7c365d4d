// Every resource and function in schema.json carries an example in its description (each
// declaration's examples, written as programs by framework/examples.ts), and every example is a
// program that typechecks against the SDK, strictly: the docs never show code that does not build.
import { typecheckAgainstSdk } from "../sdk/typecheck";

const schema = require("../../schema.json");

/** The TypeScript programs in a description's examples section. */
const programsIn = (description: string) =>
  [
    ...(description.match(/\{\{% examples %\}\}[\s\S]*\{\{% \/examples %\}\}/)?.[0] ?? "").matchAll(
      /```typescript\n([\s\S]*?)\n```/g,
    ),
  ].map((m) => m[1]);

const documented: Array<[string, string]> = [
  ...Object.entries<any>(schema.resources).map(([token, r]): [string, string] => [token, r.description]),
  ...Object.entries<any>(schema.functions).map(([token, f]): [string, string] => [token, f.description]),
];

test.each(documented)("%s has an example", (_token, description) => {
  expect(programsIn(description).length).toBeGreaterThan(0);
});

test("resources also say how to import them", () => {
  for (const [token, resource] of Object.entries<any>(schema.resources)) {
    expect(resource.description).toContain(`pulumi import ${token} `);
  }
});

test("every example typechecks against the SDK", async () => {
  const programs = Object.fromEntries(
    documented.flatMap(([token, description]) =>
      programsIn(description).map((program, i) => [`${token.split(":")[2]}-${i}.ts`, program]),
    ),
  );
  expect(await typecheckAgainstSdk(programs)).toBe("");
});

// Each example in every language the Registry shows, in its order: TypeScript (examples.ts's), the languages
// `pulumi convert` wrote from its YAML (docs/programs/reference-examples.json, make docs-languages), and the YAML.
// make schema leaves an example whose YAML was not converted in TypeScript and YAML only; this fails then.
test("every example is shown in TypeScript, Python, Go, C#, Java and YAML, in that order", () => {
  const stale = documented.flatMap(([token, description]) =>
    (description.match(/\{\{% example %\}\}[\s\S]*?\{\{% \/example %\}\}/g) ?? [])
      .map((example) => [...example.matchAll(/^```(\w+)$/gm)].map((m) => m[1]).join(","))
      .filter((fences) => fences !== "typescript,python,go,csharp,java,yaml")
      .map((fences) => `${token}: ${fences}`),
  );
  if (stale.length > 0)
    throw new Error(
      `schema.json shows these examples in fewer languages (their YAML changed since make docs-languages converted it): ${stale.join("; ")}. Run make docs-languages sdk docs and commit the result.`,
    );
});
