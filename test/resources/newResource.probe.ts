// Run by newResource.test.ts inside a copy of the repository that has one more resource file
// (Domain) and its line in resources/index.ts, and nothing else changed: it reports what of the
// package found the new resource. Bundled and run with scripts/run-ts.mjs, argv[2] = schema.json.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HostingClient } from "../../provider/src/api/client";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { run } from "../../provider/src/export/cli";
import { SharedPoll } from "../../provider/src/framework/polling";
import { hostingPackage } from "../../provider/src/package";
import type { Context } from "../../provider/src/resources/common";

const PROJECT = "00000000-0000-4000-8000-0000000a11ce";
const APP = "00000000-0000-4000-8000-00000000a991";

/** An API that holds domains, and answers every other list empty. */
function fakeApi() {
  const domains = new Map<string, Record<string, string>>();
  const seen: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url}`);
      const [path, id] = (req.url ?? "").replace(`/v1/projects/${PROJECT}/`, "").split("/");
      if (path === "domains" && req.method === "POST") {
        const created = {
          id: `00000000-0000-4000-8000-${String(domains.size + 1).padStart(12, "0")}`,
          project_id: PROJECT,
          ...JSON.parse(body),
        };
        domains.set(created.id, created);
        return json(res, 201, created);
      }
      if (path === "domains" && id)
        return domains.has(id)
          ? json(res, 200, domains.get(id))
          : json(res, 404, { code: "NOT_FOUND", message: "no such domain" });
      if (path === "domains") return json(res, 200, [...domains.values()]);
      const empty: Record<string, unknown> = { volumes: { volumes: [] }, "service-links": { links: [] } };
      return json(res, 200, empty[path] ?? []);
    });
  });
  return { server, seen };
}

async function main() {
  const schema = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const api = fakeApi();
  await new Promise<void>((resolve) => api.server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  const client = new HostingClient({ baseUrl, token: "t0ken" });
  const ctx: Context = {
    client,
    config: { projectId: PROJECT },
    signal: new AbortController().signal,
    operationTimeoutMs: 10_000,
    progress: () => undefined,
    warn: () => undefined,
    redact: (text) => text,
    sharedPoll: (_key, fetch) => new SharedPoll(fetch),
  };

  const domain = hostingPackage.resources.find((r) => r.typeName === "Domain")!;
  const created = await domain.lifecycle.create(ctx, { name: "www", containerId: APP, projectId: PROJECT });
  const read = await domain.lifecycle.read(ctx, { id: created.id }, { outputs: created.outputs, inputs: {} });
  const getDomain = hostingPackage.functions.find((fn) => fn.name === "getDomain")!;
  const found = await getDomain.invoke(ctx, { name: "www", projectId: PROJECT });
  const getDomains = hostingPackage.functions.find((fn) => fn.name === "getDomains")!;
  const listed = await getDomains.invoke(ctx, { projectId: PROJECT });
  let exported = "";
  const status = await run(
    ["--out", "-"],
    { HOSTING_BASE_URL: baseUrl, HOSTING_TOKEN: "t0ken", HOSTING_PROJECT_ID: PROJECT },
    {
      stdout: (text) => (exported += text),
      stderr: () => undefined,
      writeFile: () => undefined,
    },
  );
  await closeSharedDispatcher();
  api.server.close();

  process.stdout.write(
    JSON.stringify({
      schema: {
        resource: schema.resources["hosting:index:Domain"]?.inputProperties
          ? Object.keys(schema.resources["hosting:index:Domain"].inputProperties).sort()
          : null,
        functions: Object.keys(schema.functions)
          .filter((token) => /Domain/.test(token))
          .sort(),
        example: /new hosting\.Domain\("www"/.test(schema.resources["hosting:index:Domain"]?.description ?? ""),
      },
      client: { created: created.id, read, requests: api.seen.filter((line) => line.includes("/domains")) },
      lookups: { found, listed },
      export: {
        status,
        entries: JSON.parse(exported || "{}").resources?.filter(
          (e: { type: string }) => e.type === "hosting:index:Domain",
        ),
      },
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
