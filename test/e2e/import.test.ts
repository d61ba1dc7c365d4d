// Adopting a project built by hand (docs/importing.md) under the real CLI: a project made through the
// simulator's API as a user's scripts would make it, `hosting-export` (dist/hosting-export.js, what
// `make export` runs) against the simulator, then `pulumi import --file` of its output into a stack.
//
// The project is YAML: `pulumi import` writes the program of what it imported through the project's
// language host, and the only one here is pulumi-language-yaml (there is no pulumi-language-nodejs on
// this machine). So the code under test is what a YAML user gets: the generated program, put into
// Pulumi.yaml as it was written, then previews with no changes. Nothing is written to the platform.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, useE2E } from "./harness";

const e2e = useE2E({ simulator: { volumeProvisioningMs: 0 } });

const inProject = (path: string) => `/projects/${e2e.providerConfig["hosting:projectId"].value}${path}`;

/** The project as a user built it by hand: apps, their databases linked (http and tcp), a volume on one, a registry. */
async function buildByHand() {
  const image = "registry.example.com/team/web:1.0.0";
  const web = await e2e.api("POST", inProject("/containers"), { name: "web", image, http_port: 8080 });
  await e2e.api("PATCH", inProject(`/containers/${web.id}`), { env: { LOG_LEVEL: "info" } });
  const worker = await e2e.api("POST", inProject("/containers"), { name: "worker", image, http_port: 8080 });
  const resources = { cpu_milli: 250, memory_mb: 256, storage_gb: 1 };
  const db = (await e2e.api("POST", inProject("/postgres"), { name: "orders-db", resources })).service;
  const cache = (await e2e.api("POST", inProject("/redis"), { name: "cache", resources })).service;
  const volume = await e2e.api("POST", inProject("/volumes"), { name: "data", size_gb: 2 });
  await e2e.api("POST", inProject(`/volumes/${volume.id}/attach`), { container_id: worker.id, mount_path: "/data" });
  const link = (consumer: string, provider: string, linkType: string) =>
    e2e.api("POST", inProject("/service-links"), {
      consumer_service_id: consumer,
      provider_service_id: provider,
      link_type: linkType,
    });
  await link(web.id, db.id, "http");
  await link(worker.id, cache.id, "tcp");
  await e2e.api("POST", "/registries", { name: "ghcr", host: "ghcr.io", username: "ci", password: "e2e-import-pass" });
}

/** dist/hosting-export.js as a user runs it: configured through the environment, writing a file. */
async function hostingExport(cwd: string, out: string) {
  const { providerConfig: config } = e2e;
  return promisify(execFile)(process.execPath, [join(ROOT, "dist/hosting-export.js"), "--out", out], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOSTING_BASE_URL: config["hosting:baseUrl"].value,
      HOSTING_TOKEN: config["hosting:token"].value,
      HOSTING_PROJECT_ID: config["hosting:projectId"].value,
    },
  });
}

test("hosting-export's file imports with `pulumi import --file`, and the generated program previews with no changes", async () => {
  await buildByHand();
  const dir = await e2e.yamlStack("import-adopt", {});
  const exported = await hostingExport(dir, "hosting-import.json");
  expect(exported.stderr).toContain("wrote hosting-import.json: 8 resources");
  const entries: Array<{ type: string; name: string; id: string }> = JSON.parse(
    readFileSync(join(dir, "hosting-import.json"), "utf8"),
  ).resources;
  // Every entry names a record of the platform.
  for (const { id } of entries) expect(e2e.recordOf(id.split("/").pop()!)).toBeDefined();
  const world = e2e.sim.control.snapshot();
  e2e.sim.control.clearRequests();

  const imported = await e2e.cli(["import", "--file", "hosting-import.json", "--yes", "--out", "imported.yaml"], {
    cwd: dir,
  });
  expect(imported.code).toBe(0);
  expect(imported.stdout).toContain(`= ${entries.length} imported`);
  // The engine Checks what Read returned, and only warns when that fails: no warning, so nothing to fix by hand.
  expect(`${imported.stdout}${imported.stderr}`).not.toMatch(/warning|failed to validate/i);

  // The stack holds every entry under the id of its record.
  const state = JSON.parse((await e2e.cli(["stack", "export"], { cwd: dir })).stdout).deployment.resources;
  const byName = new Map(state.map((r: any) => [r.urn.split("::").pop(), r]));
  for (const entry of entries) {
    expect(byName.get(entry.name)).toMatchObject({ type: entry.type, id: entry.id.split("/").pop(), protect: true });
  }

  // The generated program, as the YAML host wrote it, pasted under the project's name and runtime.
  const generated = readFileSync(join(dir, "imported.yaml"), "utf8");
  const declared = [...generated.matchAll(/^ {2}(\S+):$/gm)].map((m) => m[1]);
  expect(declared.sort()).toEqual(entries.map((e) => e.name).sort());
  expect(generated).toContain('- ${["orders-db"].id}');
  expect(generated).toContain("volumeId: ${data.id}");
  writeFileSync(join(dir, "Pulumi.yaml"), `name: import-adopt\nruntime: yaml\n${generated}`);
  const preview = await e2e.cli(["preview", "--expect-no-changes", "--diff"], { cwd: dir });
  expect({ code: preview.code, stderr: preview.stderr }).toEqual({ code: 0, stderr: "" });
  expect(preview.stdout).toContain(`${entries.length + 1} unchanged`);

  // Import and preview only read: the platform is as the user left it.
  expect(e2e.sim.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(e2e.sim.control.snapshot()).toEqual(world);
});
