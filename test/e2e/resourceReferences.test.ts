// Resource references under the real engine: the plugin accepts them (Handshake's accept_resources), so where a
// program passes a resource for an id the engine sends the reference itself (its URN and id), and the plugin takes
// the id. The engine's gRPC log (PULUMI_DEBUG_GRPC) shows what it sent.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as hosting from "@hosting/pulumi";
import { useE2E } from "./harness";

const e2e = useE2E();

const REFERENCE = "5cf8f73096256a8f31e491e813e4eb8e";

/** The engine's Check requests to the plugin for the resource named `name`, from its gRPC log. */
function checksOf(log: string, name: string): Array<Record<string, unknown>> {
  return log
    .split("\n")
    .filter((line) => line.includes('"/pulumirpc.ResourceProvider/Check"'))
    .map((line) => JSON.parse(line).request)
    .filter((request) => typeof request?.urn === "string" && request.urn.endsWith(`::${name}`))
    .map((request) => request.news);
}

test("an app whose links are given the database itself goes up linked to it, and previews with no changes", async () => {
  const grpcLog = join(e2e.work, "grpc.log");
  const stack = await e2e.stack("references", "dev", async () => {
    const db = new hosting.Postgres("db");
    // The SDK's inputs are typed Input<string>; a program may still pass the resource, which the engine sends on.
    const web = new hosting.Container("web", { image: "registry.example.com/team/web:1.0.0", links: [db as any] });
    return { web: web.id, db: db.id, links: web.links };
  });
  stack.workspace.envVars.PULUMI_DEBUG_GRPC = grpcLog;
  // The first preview: the database's id is not known yet.
  const first = await stack.preview();
  expect(first.changeSummary).toEqual({ create: 3 });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  const [web, db] = [up.outputs.web.value, up.outputs.db.value];
  expect(up.outputs.links.value).toEqual([db]);
  expect(e2e.records("links").map((l) => [l.consumer_service_id, l.provider_service_id])).toEqual([[web, db]]);

  // What the engine sent the plugin was the reference: the first preview's with the database's id not known yet
  // (an empty id, which the plugin keeps unknown), the update's with it.
  const sent = checksOf(readFileSync(grpcLog, "utf8"), "web").map((news) => (news.links as unknown[])[0]);
  expect(sent.length).toBeGreaterThan(0);
  for (const link of sent)
    expect(link).toMatchObject({ "4dabf18193072939515e22adb298388d": REFERENCE, urn: expect.stringMatching(/::db$/) });
  expect(sent).toContainEqual(expect.objectContaining({ id: "" }));
  expect(sent).toContainEqual(expect.objectContaining({ id: db }));

  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 3 });
  await stack.destroy();
});
