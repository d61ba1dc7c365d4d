// `make demo`, the user's first command, run for real: the Pulumi CLI from make pulumi-cli (the pinned
// version, from PATH, its release or a build from Go modules), the plugin, the SDK and the simulator;
// up, a preview of an image change that must be an in-place update, destroy. No skip: `make test`
// gets the CLI before the tests (make pulumi-cli), and without one this test fails.
// How make pulumi-cli finds, fetches or builds the CLI, and the line it says when it cannot, is
// test/scripts/pulumiCli.test.ts.
//
// It runs in a copy of the repository with nothing built (as a fresh clone: make demo installs
// node_modules, builds the plugin and the SDK itself), so it never rebuilds the bin/ other tests run.
import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { repositoryCopy } from "../package/helpers";
const onPath = (command: string, path = process.env.PATH ?? "") =>
  path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command))
    .find((file) => existsSync(file));

function run(file: string, args: string[], cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(file, args, { cwd, env: process.env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("make demo: pulumi up, a preview of a changed image that updates in place, pulumi destroy", async () => {
  const repo = repositoryCopy("hosting-demo-");
  const { code, stdout, stderr } = await run(onPath("make")!, ["--no-print-directory", "demo"], repo).finally(() =>
    rmSync(repo, { recursive: true, force: true }),
  );
  const output = stripVTControlCharacters(`${stdout}${stderr}`);
  expect({ code, tail: output.slice(-4000) }).toMatchObject({ code: 0 });
  const section = (title: string) => output.split("==> ").find((s) => s.startsWith(title)) ?? "";
  const up = section("pulumi up");
  for (const created of ["Registry registry", "Postgres db", "Container web"])
    expect(up).toMatch(new RegExp(`hosting:index:${created} created`));
  expect(up).toMatch(/\+ 4 created/); // the stack and its three resources
  const preview = section("pulumi preview");
  expect(preview).toMatch(/~ 1 to update/);
  expect(preview).toMatch(
    /image: "registry\.example\.com\/demo\/web:1\.0\.0" => "registry\.example\.com\/demo\/web:1\.1\.0"/,
  );
  expect(preview).not.toMatch(/to replace|to create|to delete/);
  expect(section("pulumi destroy")).toMatch(/- 4 deleted/);
  expect(output).toMatch(
    /==> Done: the plugin, the SDK and the simulator work end to end under pulumi v3\.\d+\.\d+, in \d+ s\./,
  );
  expect(output).not.toContain("sim-token-alice");
});
