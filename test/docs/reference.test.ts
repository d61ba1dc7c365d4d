// The reference pages' signatures (docs/reference/, scripts/reference-docs.ts) are the SDK's
// declarations (sdk/nodejs/, scripts/gen-sdk.ts): `args?` where the SDK makes it optional (Postgres,
// Mysql, Redis: nothing in their args is required), and an Output form without args where the SDK's
// takes none. Two generators of the same schema, compared where users read them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./markdown";

const SDK = join(ROOT, "sdk/nodejs");
const REFERENCE = join(ROOT, "docs/reference");
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

/** The parameters of each constructor and function the SDK exports, by its name, with the package's prefix left out. */
const sdk = new Map<string, string>();
// utilities.ts holds the SDK's helpers, not the package's API.
for (const file of readdirSync(SDK).filter((f) => f.endsWith(".ts") && f !== "utilities.ts")) {
  const text = read(SDK, file);
  // A resource's first constructor is the one programs call (the second takes a state, for `get`).
  const resource =
    /^export class (\w+) extends pulumi\.\w+Resource \{[\s\S]*?^ {4}constructor\((name: string, [^)]*)\)/m.exec(text);
  if (resource) sdk.set(resource[1], resource[2]);
  for (const [, name, params, returns] of text.matchAll(/^export function (\w+)\(([^)]*)\): (.+) \{$/gm))
    sdk.set(name, `${params}): ${returns}`);
}

/** The same, from the reference pages' code: `new hosting.X(...)` and `hosting.getX(...): ...`. */
const reference = new Map<string, string>();
for (const file of readdirSync(REFERENCE).filter((f) => f.endsWith(".md"))) {
  const text = read(REFERENCE, file).replaceAll("hosting.", "");
  for (const [, name, params] of text.matchAll(/^new (\w+)\(([^)]*)\);$/gm)) reference.set(name, params);
  for (const [, name, params, returns] of text.matchAll(/^(get\w+)\(([^)]*)\): (.+)$/gm))
    reference.set(name, `${params}): ${returns}`);
}

test("every resource, the provider and every function is on a reference page", () => {
  expect([...reference.keys()].sort()).toEqual([...sdk.keys()].sort());
  expect(reference.size).toBeGreaterThan(20);
});

test.each([...sdk.keys()].sort())("%s: the page's signature is the SDK's", (name) => {
  expect(reference.get(name)).toBe(sdk.get(name));
});

test("args are optional where nothing in them is required: Postgres, Mysql, Redis", () => {
  for (const name of ["Postgres", "Mysql", "Redis"]) expect(reference.get(name)).toMatch(/^name: string, args\?: /);
  expect(reference.get("Container")).toMatch(/^name: string, args: /);
});
