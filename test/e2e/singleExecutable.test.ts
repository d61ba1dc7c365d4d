// The plugin users install, once under the real Pulumi CLI: dist/pulumi-resource-hosting (`make package`: one
// executable with Node.js inside, no .js beside it) in the Pulumi home's plugin folder, running a whole program of
// every kind (a registry, two databases, an app that links one in `links` and has a volume mounted, a second app that
// a ServiceLink links to the other) through up, preview and refresh with no changes, an in-place update, and destroy,
// with the platform's records read at each step. The other e2e files run the development build (bin/).
// 19 s here (2 cores, load 11 to 16).
// Run: make package && node_modules/.bin/jest --selectProjects e2e -- test/e2e/singleExecutable
import { openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import * as hosting from "@hosting/pulumi";
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { KINDS } from "../../simulator/src/collections";
import { EngineEvents, useE2E } from "./harness";

const e2e = useE2E({ plugin: "single executable" });

let image = "registry.example.com/team/web:1.0.0";
let stack: Stack;

const program = async () => {
  const config = new pulumi.Config();
  new hosting.Registry("ghcr", { host: "ghcr.io", username: "ci", password: config.requireSecret("ghcrToken") });
  const db = new hosting.Postgres("db");
  const cache = new hosting.Redis("cache");
  const web = new hosting.Container("web", { image, env: { LOG_LEVEL: "info" }, replicas: 1, links: [db.id] });
  const data = new hosting.Volume("data", { sizeGb: 1 });
  new hosting.VolumeAttachment("web-data", { volumeId: data.id, containerId: web.id, mountPath: "/data" });
  const worker = new hosting.Container("worker", { image });
  new hosting.ServiceLink("worker-cache", { consumerServiceId: worker.id, providerServiceId: cache.id });
  return { web: web.id, worker: worker.id, db: db.id, cache: cache.id, data: data.id };
};

test("the engine runs the single executable: the plugin folder holds one native executable and nothing else", () => {
  const folder = join(e2e.env.PULUMI_HOME, "plugins", `resource-hosting-v${require("../../package.json").version}`);
  expect(readdirSync(folder)).toEqual(["pulumi-resource-hosting"]);
  const magic = Buffer.alloc(4);
  readSync(openSync(join(folder, "pulumi-resource-hosting"), "r"), magic, 0, 4, 0);
  expect(magic.toString("latin1")).toBe("\x7fELF");
});

test("up makes every kind, linked and mounted", async () => {
  stack = await e2e.stack("single-executable", "dev", program, {
    "single-executable:ghcrToken": { value: "sample-ghcr-token", secret: true },
  });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 9 });
  const ids = Object.fromEntries(Object.entries(up.outputs).map(([key, output]) => [key, output.value]));
  const services = e2e.records("services");
  expect(services.map((s) => s.type).sort()).toEqual(["container", "container", "postgres", "redis"]);
  expect(services.find((s) => s.id === ids.web)).toMatchObject({ image, env: { LOG_LEVEL: "info" } });
  expect(e2e.records("links").map((l) => [l.consumer_service_id, l.provider_service_id])).toEqual(
    expect.arrayContaining([
      [ids.web, ids.db],
      [ids.worker, ids.cache],
    ]),
  );
  expect(e2e.records("attachments")).toEqual([
    expect.objectContaining({ volume_id: ids.data, container_id: ids.web, mount_path: "/data" }),
  ]);
  expect(e2e.records("registries")).toEqual([expect.objectContaining({ host: "ghcr.io", username: "ci" })]);
});

test("preview and refresh show no changes", async () => {
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 9 });
  const events = new EngineEvents();
  const refresh = await stack.refresh({ expectNoChanges: true, onEvent: events.onEvent });
  expect(refresh.summary.resourceChanges).toEqual({ same: 9 });
  expect(events.warnings()).toEqual([]);
});

test("a new image updates both apps in place", async () => {
  const before = e2e.records("services").filter((s) => s.type === "container");
  image = "registry.example.com/team/web:1.1.0";
  const events = new EngineEvents();
  const up = await stack.up({ onEvent: events.onEvent });
  expect(up.summary.resourceChanges).toEqual({ same: 7, update: 2 });
  expect(events.detailedDiff("hosting:index:Container::web")).toEqual({ image: "update" });
  expect(e2e.records("services").filter((s) => s.type === "container")).toEqual(
    before.map(({ id }) => expect.objectContaining({ id, image })),
  );
});

test("destroy leaves nothing, and says the link it could not delete went with its app", async () => {
  const events = new EngineEvents();
  await stack.destroy({ onEvent: events.onEvent });
  expect(KINDS.filter((kind) => e2e.records(kind).length > 0)).toEqual([]);
  expect(events.warnings("hosting:index:ServiceLink::worker-cache")).toEqual([
    expect.stringMatching(/^the hosting API has no way to delete service links/),
  ]);
});
