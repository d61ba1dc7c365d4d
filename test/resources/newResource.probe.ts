// Run by newResource.test.ts inside a copy of the repository that has one more kind, Domain (its
// declaration and its simulator entry), and nothing else changed: against the copy's simulator it
// makes every resource's first example (Domain's, which refers to the app, last), then reports what of
// the package found the new resource. Bundled and run with scripts/run-ts.mjs, argv[2] = schema.json.
import { readFileSync } from "node:fs";
import { HostingClient } from "../../provider/src/api/client";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { run } from "../../provider/src/export/cli";
import { hostingPackage } from "../../provider/src/package";
import { ALICE, startSimulator } from "../../simulator/src";
import { contextFor, makeEveryExample } from "./inProcess";

async function main() {
  const schema = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const sim = await startSimulator({ volumeProvisioningMs: 0, serviceStartMs: 0 });
  const project = ALICE.projects[0];
  const ctx = contextFor(new HostingClient({ baseUrl: sim.url, token: ALICE.token }), project);
  try {
    const made = await makeEveryExample(ctx, schema);
    const created = made.get("Domain")!;
    const domain = hostingPackage.resources.find((r) => r.typeName === "Domain")!;
    const read = await domain.lifecycle.read(ctx, { id: created.id }, { outputs: created.outputs, inputs: {} });
    const invoke = (name: string, args: Record<string, unknown>) =>
      hostingPackage.functions.find((fn) => fn.name === name)!.invoke(ctx, args);
    const found = await invoke("getDomain", { name: "www", projectId: project });
    const listed = await invoke("getDomains", { projectId: project });
    let exported = "";
    const env = { HOSTING_BASE_URL: sim.url, HOSTING_TOKEN: ALICE.token, HOSTING_PROJECT_ID: project };
    const io = { stdout: (text: string) => (exported += text), stderr: () => undefined, writeFile: () => undefined };
    const status = await run(["--out", "-"], env, io);
    const entries = JSON.parse(exported || "{}").resources ?? [];
    process.stdout.write(
      JSON.stringify({
        project,
        app: made.get("Container")!.id,
        client: {
          created: created.id,
          read,
          requests: sim.control
            .requests()
            .filter((request) => request.path.includes("/domains"))
            .map((request) => `${request.method} ${request.path}`),
        },
        lookups: { found, listed },
        export: { status, entries: entries.filter((e: { type: string }) => e.type === "hosting:index:Domain") },
      }),
    );
  } finally {
    await closeSharedDispatcher();
    await sim.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
