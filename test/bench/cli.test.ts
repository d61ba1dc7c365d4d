// bench/cliRig.ts: the real-CLI rows run one program shape for both providers, and start each plugin through a
// wrapper that must pass every word of its command line through as it is.
import { execFileSync } from "node:child_process";
import { shellWord, yamlProgram } from "../../bench/cliRig";

test("the two programs of N resources differ only in the resource type", () => {
  const ours = yamlProgram("hosting", 3);
  const peer = yamlProgram("peer", 3);
  const types = (program: Record<string, unknown>) =>
    Object.values(program.resources as Record<string, { type: string }>).map((r) => r.type);
  expect(types(ours)).toEqual(Array(3).fill("hosting:index:Container"));
  expect(types(peer)).toEqual(Array(3).fill("benchpeer:index:Container"));
  const withoutTypes = (program: Record<string, unknown>) =>
    Object.entries(program.resources as Record<string, Record<string, unknown>>).map(([name, { type: _, ...rest }]) => [
      name,
      rest,
    ]);
  expect(withoutTypes(ours)).toEqual(withoutTypes(peer));
  expect(Object.keys(ours.resources as object)).toEqual(["app-0", "app-1", "app-2"]);
});

test("a word quoted for sh reaches the command as it was, quotes, dollars and spaces included", () => {
  const words = ["plain", "with space", `it's "quoted"`, "$HOME and $(echo no)", "--cpu-prof-dir=$DIR"];
  const printed = execFileSync("sh", ["-c", `printf '%s\\n' ${words.map(shellWord).join(" ")}`], { encoding: "utf8" });
  expect(printed.split("\n").slice(0, -1)).toEqual(words);
});
