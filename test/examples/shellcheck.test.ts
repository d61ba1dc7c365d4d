// The scripts users copy from examples/ pass shellcheck, which reads them as bash (their shebang):
// a script it cannot parse (a comment inside a `&&` chain, say) or warns about fails here. Debian's
// shellcheck (`apt-get install shellcheck`) is not on every machine: where it is missing, this says so
// and checks nothing.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const EXAMPLES = resolve(__dirname, "../../examples");
const scripts = readdirSync(EXAMPLES).flatMap((example) =>
  readdirSync(join(EXAMPLES, example))
    .filter((file) => file.endsWith(".sh"))
    .map((file) => join("examples", example, file)),
);
const shellcheck = spawnSync("shellcheck", ["--version"]).status === 0;

test("the examples have scripts to check", () => {
  expect(scripts.sort()).toEqual(["examples/drift-check/drift-check.sh", "examples/pr-preview/pr-preview.sh"]);
});

(shellcheck ? test.each(scripts) : test.skip.each(scripts))("%s passes shellcheck", (script) => {
  // Every finding, down to style: the output is empty, or it is what failed.
  const output = (() => {
    try {
      return execFileSync("shellcheck", ["--severity=style", "--format=gcc", script], {
        cwd: resolve(EXAMPLES, ".."),
        encoding: "utf8",
      });
    } catch (err: any) {
      return `${err.stdout}${err.stderr}`;
    }
  })();
  expect(output).toBe("");
});
