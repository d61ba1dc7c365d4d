// One version range of @pulumi/pulumi in the repository: the provider's (package.json), which the
// schema hands the SDK (`make schema sdk`), and the examples'. A second range would let a program
// and the SDK it imports resolve two copies of @pulumi/pulumi, whose resources do not mix.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./helpers";

/** Every package.json in the repository but the installed ones (node_modules) and the built ones. */
function packageJsons(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return ["node_modules", ".git", "dist", "bin"].includes(entry.name) ? [] : packageJsons(join(dir, entry.name));
    return entry.name === "package.json" ? [relative(ROOT, join(dir, entry.name))] : [];
  });
}

const rangesIn = (file: string): string[] => {
  const pkg = JSON.parse(readFileSync(join(ROOT, file), "utf8"));
  return ["dependencies", "devDependencies", "peerDependencies"]
    .map((field) => pkg[field]?.["@pulumi/pulumi"])
    .filter((r): r is string => r !== undefined);
};

test("every package.json that depends on @pulumi/pulumi names package.json's one range, and so does the schema", () => {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies["@pulumi/pulumi"];
  expect(root).toMatch(/^\^3\.\d+\.\d+$/);
  const ranges = Object.fromEntries(packageJsons(ROOT).flatMap((file) => rangesIn(file).map((range) => [file, range])));
  // The provider, the SDK and every example are among them, so none escapes the check by moving.
  expect(Object.keys(ranges)).toEqual(
    expect.arrayContaining([
      "package.json",
      "sdk/nodejs/package.json",
      "examples/volume/package.json",
      "examples/app-with-postgres/package.json",
    ]),
  );
  expect(ranges).toEqual(Object.fromEntries(Object.keys(ranges).map((file) => [file, root])));
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  expect(schema.language.nodejs.dependencies["@pulumi/pulumi"]).toBe(root);
});
