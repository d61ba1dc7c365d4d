// The real-CLI benchmark rows' Go peer (scripts/bench-peer.sh, tools/bench-peer): built from Go modules into
// the cache once, keyed by its version and sources; a resource of the same shape as hosting:index:Container,
// by the schema each plugin gives the real CLI; one line when it cannot be built.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathWithout } from "./pathWithout";

const ROOT = resolve(__dirname, "../..");
const SCRIPT = join(ROOT, "scripts/bench-peer.sh");
/** The CLI's folder, as make pulumi-cli gives it. */
const cliBinDir = () =>
  execFileSync(join(ROOT, "scripts/pulumi-cli.sh"), ["--bin-dir"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();

function run(env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile("bash", [SCRIPT], { env }, (err, stdout, stderr) =>
      done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

type Property = { type?: string; items?: Property; additionalProperties?: Property; secret?: boolean };
type Resource = { inputProperties: Record<string, Property>; properties: Record<string, Property> };

/** A property's type as the engine sees it: its type, and its elements' or values' type. */
const shape = (p: Property): string =>
  `${p.type}${p.items ? `<${shape(p.items)}>` : ""}${p.additionalProperties ? `{${shape(p.additionalProperties)}}` : ""}${p.secret ? " secret" : ""}`;
const shapes = (properties: Record<string, Property>) =>
  Object.fromEntries(
    Object.entries(properties)
      .map(([name, p]) => [name, shape(p)])
      .sort(),
  );

test("built once into the cache: the second run prints the executable alone, from the cache", async () => {
  const first = await run(process.env);
  expect(first).toMatchObject({ code: 0 });
  const again = await run(process.env);
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/^bench-peer: pulumi-resource-benchpeer \S+ from the cache \(.*\), in /);
  expect(again.stdout.split("\n").filter(Boolean)).toEqual([first.stdout.trim()]);
  expect(existsSync(again.stdout.trim())).toBe(true);
});

test("its resource has hosting:index:Container's inputs and outputs, each of the same type, as the CLI reads the schemas", () => {
  const peer = execFileSync("bash", [SCRIPT], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const home = mkdtempSync(join(tmpdir(), "hosting-peer-home-"));
  try {
    const schema = JSON.parse(
      execFileSync(join(cliBinDir(), "pulumi"), ["package", "get-schema", peer], {
        encoding: "utf8",
        env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
      }),
    );
    const theirs: Resource = schema.resources["benchpeer:index:Container"];
    const ours: Resource = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")).resources[
      "hosting:index:Container"
    ];
    expect(shapes(theirs.inputProperties)).toEqual(shapes(ours.inputProperties));
    expect(shapes(theirs.properties)).toEqual(shapes(ours.properties));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("with no Go to build it, one line says why and what to install", async () => {
  const cache = mkdtempSync(join(tmpdir(), "hosting-peer-cache-"));
  try {
    const path = pathWithout(cache, ["go"]);
    const { code, stdout, stderr } = await run({ ...process.env, PATH: path, XDG_CACHE_HOME: cache });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([
      "bench-peer: the Go peer cannot be built: Go is not installed. Install Go 1.26 or newer (https://go.dev/doc/install) and run the benchmark again.",
    ]);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
