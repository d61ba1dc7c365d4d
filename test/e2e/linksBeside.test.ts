// An app whose program sets `links`, with a ServiceLink to it beside (from this stack here; from another
// stack is the same to the app), under the real CLI: the ServiceLink's link reads back in the app's
// `links` output and is warned of as made outside the app's program, but it is not the program's to
// remove, so previews show no change and updates work. Before, the next `up` failed with
// `links cannot drop "<id>"`, and so did every one after it.
import * as hosting from "@hosting/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useE2E } from "./harness";

const e2e = useE2E();

test("an app with links, and a ServiceLink to it: up, refresh, preview with no changes, an update, destroy", async () => {
  let image = "registry.example.com/team/api:1.0.0";
  const stack = await e2e.stack("links-beside", "dev", async () => {
    const db = new hosting.Postgres("db");
    const cache = new hosting.Redis("cache");
    const api = new hosting.Container("api", { image, links: [db.id] });
    new hosting.ServiceLink("api-cache", { consumerServiceId: api.id, providerServiceId: cache.id });
    return { links: api.links, apiId: api.id, dbId: db.id, cacheId: cache.id };
  });
  const up = await stack.up();
  const [apiId, dbId, cacheId] = ["apiId", "dbId", "cacheId"].map((key) => up.outputs[key].value as string);
  const linksOfApi = () =>
    e2e
      .records("links")
      .filter((l) => l.consumer_service_id === apiId)
      .map((l) => l.provider_service_id)
      .sort();
  expect(linksOfApi()).toEqual([dbId, cacheId].sort());

  const warnings: string[] = [];
  const onEvent = (event: EngineEvent) => {
    const diagnostic = event.diagnosticEvent;
    if (diagnostic?.severity === "warning" && diagnostic.urn?.endsWith("::api")) warnings.push(diagnostic.message);
  };
  await stack.refresh({ onEvent });
  const state = (await stack.exportStack()).deployment.resources.find((r: any) => r.urn.endsWith("::api"));
  expect([...state.outputs.links].sort()).toEqual([dbId, cacheId].sort()); // read back
  expect(state.inputs.links).toEqual([dbId]); // the program's own
  expect(warnings.join("\n")).toMatch(/changed outside Pulumi .*\(links\)/);
  await stack.preview({ expectNoChanges: true });

  image = "registry.example.com/team/api:1.1.0";
  const updated = await stack.up();
  expect(updated.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(e2e.records("services").find((s) => s.id === apiId)?.image).toBe(image);
  expect(linksOfApi()).toEqual([dbId, cacheId].sort());
  await stack.preview({ expectNoChanges: true });

  await stack.destroy();
  expect(e2e.records("services")).toEqual([]);
});
