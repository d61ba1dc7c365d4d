// The harness itself: an inline TypeScript program and a YAML program, each up, preview with no
// changes and destroy under the real CLI, with the platform's records read at each step.
import * as hosting from "@hosting/pulumi";
import { cliVersion, useE2E } from "./harness";

const e2e = useE2E();

test("the CLI is the pinned version", () => {
  expect(cliVersion()).toMatch(/^v3\.\d+\.\d+$/);
});

test("an inline TypeScript program: up, preview with no changes, destroy", async () => {
  const stack = await e2e.stack("smoke", "dev", async () => {
    const db = new hosting.Postgres("db");
    const web = new hosting.Container("web", { image: "registry.example.com/team/web:1.0.0", links: [db.id] });
    return { url: web.publicUrl, id: web.id };
  });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  const [app] = e2e.records("services").filter((s) => s.type === "container");
  expect(up.outputs.id.value).toBe(app.id);
  expect(app.image).toBe("registry.example.com/team/web:1.0.0");
  expect(e2e.records("links")).toHaveLength(1);

  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 3 });

  await stack.destroy();
  expect(e2e.records("services")).toEqual([]);
});

test("a YAML program run by the CLI in its folder: up, preview with no changes, destroy", async () => {
  const dir = e2e.yamlProject("smoke-yaml", {
    resources: { cache: { type: "hosting:Redis" } },
    outputs: { host: "${cache.internalHost}" },
  });
  expect((await e2e.cli(["stack", "init", "dev"], { cwd: dir })).code).toBe(0);
  for (const [key, { value, secret }] of Object.entries(e2e.providerConfig))
    expect((await e2e.cli(["config", "set", ...(secret ? ["--secret"] : []), key, value], { cwd: dir })).code).toBe(0);
  const up = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(up.code).toBe(0);
  expect(up.stdout).toMatch(/\+ 2 created/);
  expect(e2e.records("services").map((s) => s.type)).toEqual(["redis"]);
  const preview = await e2e.cli(["preview", "--expect-no-changes"], { cwd: dir });
  expect(preview.code).toBe(0);
  const destroy = await e2e.cli(["destroy", "--yes"], { cwd: dir });
  expect(destroy.code).toBe(0);
  expect(e2e.records("services")).toEqual([]);
});

test("an RPC the runtime loses after the engine ended its run ('Resource monitor is terminating') fails no test", async () => {
  // As @pulumi/pulumi's runtime leaves it: a rejection no one handles (harness.ts forgiveLateMonitorErrors).
  void Promise.reject(Object.assign(new Error("Resource monitor is terminating"), { code: 14 }));
  await new Promise((resolve) => setTimeout(resolve, 50));
});
