// Detailed diff paths under the real engine: it parses every path of a diff (step_generator.go
// applyReplaceOnChanges) and fails the step on one it cannot, applies replaceOnChanges to them, shows
// them in `pulumi preview --json`, and puts the old input at an ignoreChanges path. YAML programs, run
// by the CLI in their folder, whose values come from stack configuration.
import { useE2E } from "./harness";

const e2e = useE2E();

const IMAGE = "registry.example.com/team/web:1.0.0";

/** A YAML project of one app, `web`, its stack `dev` initialised with the provider's configuration and `config`. */
async function project(name: string, web: Record<string, unknown>, config: Record<string, string>) {
  const dir = e2e.yamlProject(name, {
    config: Object.fromEntries(Object.keys(config).map((key) => [key, { type: "string" }])),
    resources: { web: { type: "hosting:Container", ...web } },
    outputs: { id: "${web.id}" },
  });
  await ok(["stack", "init", "dev"], dir);
  for (const [key, { value, secret }] of Object.entries(e2e.providerConfig))
    await ok(["config", "set", ...(secret ? ["--secret"] : []), key, value], dir);
  await set(dir, config);
  return dir;
}

async function ok(args: string[], cwd: string) {
  const run = await e2e.cli(args, { cwd });
  if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  return run;
}

const set = async (dir: string, config: Record<string, string>) => {
  for (const [key, value] of Object.entries(config)) await ok(["config", "set", key, value], dir);
};

/** `pulumi preview --json`'s step for the app (not a refresh's): its op, diffs and detailed diff. */
async function previewed(dir: string, ...flags: string[]) {
  const { stdout } = await ok(["preview", "--json", ...flags], dir);
  const steps: any[] = JSON.parse(stdout).steps ?? [];
  return steps.find((step) => step.urn.endsWith("hosting:index:Container::web") && step.op !== "refresh");
}

/** The detailed diff's paths and kinds. */
const kinds = (step: { detailedDiff?: Record<string, { kind: string }> }) =>
  Object.fromEntries(Object.entries(step.detailedDiff ?? {}).map(([path, { kind }]) => [path, kind]));

const app = (id: string) => e2e.records("services").find((s) => s.id === id);
const outputId = async (dir: string) => (await ok(["stack", "output", "id"], dir)).stdout.trim();

test("one secret value in env: replaceOnChanges on env.DATABASE_HOST replaces, and --json names the key", async () => {
  const dir = await project(
    "roc-secret",
    {
      properties: {
        image: IMAGE,
        env: { DATABASE_HOST: "${host}", DB_PASSWORD: { "fn::secret": "pw-0001-s3cret" }, LOG: "info" },
      },
      options: { replaceOnChanges: ["env.DATABASE_HOST"] },
    },
    { host: "db-a.internal" },
  );
  await ok(["up", "--yes"], dir);
  const before = await outputId(dir);
  expect(app(before).env).toEqual({ DATABASE_HOST: "db-a.internal", DB_PASSWORD: "pw-0001-s3cret", LOG: "info" });

  await set(dir, { host: "db-b.internal" });
  const step = await previewed(dir);
  expect(step.op).toBe("replace");
  expect(kinds(step)).toEqual({ "env.DATABASE_HOST": "update-replace" });
  expect(JSON.stringify(step)).not.toContain("pw-0001-s3cret");

  await ok(["up", "--yes"], dir);
  const after = await outputId(dir);
  expect(after).not.toBe(before);
  expect(app(before)).toBeUndefined();
  expect(app(after).env.DATABASE_HOST).toBe("db-b.internal");
});

test("an env key only the platform can make (empty, or ending in a backslash) still previews, and up takes it out", async () => {
  const dir = await project("odd-keys", { properties: { image: IMAGE, env: { LOG: "${log}" } } }, { log: "info" });
  await ok(["up", "--yes"], dir);
  const id = await outputId(dir);
  e2e.sim.control.mutate("services", id, { env: { LOG: "info", "": "empty", "C:\\": "drive" } });

  const step = await previewed(dir, "--refresh");
  expect(step.op).toBe("update");
  expect(kinds(step)).toEqual({ 'env[""]': "delete", "env.C:\\": "delete" });
  await set(dir, { log: "debug" });
  expect(kinds(await previewed(dir, "--refresh"))).toEqual({
    'env[""]': "delete",
    "env.C:\\": "delete",
    "env.LOG": "update",
  });
  await ok(["up", "--refresh", "--yes"], dir);
  expect(app(id).env).toEqual({ LOG: "debug" });
});

test("ignoreChanges: [env.X], X changed outside Pulumi, another key changed: the preview shows what up does", async () => {
  const dir = await project(
    "ignored-key",
    { properties: { image: IMAGE, env: { X: "a", Y: "${y}" } }, options: { ignoreChanges: ["env.X"] } },
    { y: "one" },
  );
  await ok(["up", "--yes"], dir);
  const id = await outputId(dir);
  e2e.sim.control.mutate("services", id, { env: { X: "set-in-the-portal", Y: "one" } });

  await set(dir, { y: "two" });
  const step = await previewed(dir);
  expect(step.op).toBe("update");
  expect(kinds(step)).toEqual({ "env.Y": "update" });
  await ok(["up", "--yes"], dir);
  // The preview said only Y changes: X keeps the platform's value.
  expect(app(id).env).toEqual({ X: "set-in-the-portal", Y: "two" });
  await ok(["preview", "--expect-no-changes"], dir);
});
