// Replacements under the real Pulumi CLI: `pulumi up --replace`, `replaceOnChanges` on a nested path,
// `ignoreChanges`, `deleteBeforeReplace` and `replacementTrigger`, each read on the platform: a replaced app has a new
// id, the old one is gone and nothing is orphaned (the apps on the platform are exactly the stack's), and which came
// first, the new app's create or the old one's delete, is read from the simulator's request log. The names decide
// it: an autonamed app is created first (it gets a fresh name), one whose name the program gives is deleted first
// (Diff says so), and a replacement the engine makes without Diff (`--replace`, `replacementTrigger`) deletes first
// only with the `deleteBeforeReplace` option, else meets the name it keeps.
//
// Not here: an app replaced under a VolumeAttachment with deletedWith (volumeAttachmentReplace.test.ts), and
// replaceOnChanges on a secret env value (diffPaths.test.ts). 67 s here (2 cores, load 11 to 16).
// Run: node_modules/.bin/jest --selectProjects e2e -- test/e2e/replacements
import * as hosting from "@hosting/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { EngineEvents, createsAndDeletes, useE2E } from "./harness";

const e2e = useE2E();

const image = "registry.example.com/team/app:1.0.0";
/** What the next run's program declares: the tests change it between runs. */
const program = {
  web: { KEY: "a", OTHER: "x", IGNORED: "1" },
  api: { KEY: "a" },
  trigger: "v1",
};

let stack: Stack;
const urn = (name: string) => `urn:pulumi:dev::replacements::hosting:index:Container::${name}`;

/** The apps on the platform, by id. */
const apps = () => new Map(e2e.records("services").map((s) => [s.id as string, s]));

/** The stack's ids, by logical name, and the platform holds those apps and no other. */
async function idsWithNoOrphan(): Promise<Record<string, string>> {
  const ids = (await stack.outputs()).ids.value as Record<string, string>;
  expect([...apps().keys()].sort()).toEqual(Object.values(ids).sort());
  return ids;
}

/** `up` with its events, and the creates and deletes it sent. */
async function up(options: { replace?: string[] } = {}) {
  const events = new EngineEvents();
  const mark = e2e.sim.control.requests().length;
  const result = await stack.up({ ...options, onEvent: events.onEvent });
  return { result, events, writes: createsAndDeletes(e2e.sim.control.requests().slice(mark), "containers") };
}

beforeAll(async () => {
  stack = await e2e.stack("replacements", "dev", async () => {
    // Autonamed: a replacement gets a fresh name, so it is created before the original is deleted.
    const web = new hosting.Container(
      "web",
      { image, env: { ...program.web } },
      { replaceOnChanges: ["env.KEY"], ignoreChanges: ["env.IGNORED"] },
    );
    // Named by the program: a replacement that keeps the name must delete the original first.
    const api = new hosting.Container(
      "api",
      { name: "api", image, env: { ...program.api } },
      { replaceOnChanges: ["env.KEY"] },
    );
    const worker = new hosting.Container(
      "worker",
      { name: "worker", image },
      { deleteBeforeReplace: true, replacementTrigger: program.trigger },
    );
    return { ids: { web: web.id, api: api.id, worker: worker.id } };
  });
  const { result } = await up();
  expect(result.summary.resourceChanges).toEqual({ create: 4 });
  await idsWithNoOrphan();
});

test("replaceOnChanges on env.KEY of an autonamed app: a new app under a fresh name, created first", async () => {
  const before = await idsWithNoOrphan();
  const name = apps().get(before.web).name;
  program.web.KEY = "b";
  const { result, events, writes } = await up();
  expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
  expect(events.detailedDiff("web")).toEqual({ "env.KEY": "update-replace" });
  expect(events.ops("web")).toEqual(["create-replacement", "replace", "delete-replaced"]);
  const after = await idsWithNoOrphan();
  expect(after.web).not.toBe(before.web);
  expect(apps().get(after.web)).toMatchObject({ env: { KEY: "b", OTHER: "x", IGNORED: "1" } });
  expect(apps().get(after.web).name).not.toBe(name);
  expect(writes).toEqual(["create", `delete ${before.web}`]);
});

test("replaceOnChanges on env.KEY of an app the program names: the old one deleted first, the name kept", async () => {
  const before = await idsWithNoOrphan();
  program.api.KEY = "b";
  const { result, events, writes } = await up();
  expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
  expect(events.ops("api")).toEqual(["delete-replaced", "replace", "create-replacement"]);
  const after = await idsWithNoOrphan();
  expect(after.api).not.toBe(before.api);
  expect(apps().get(after.api)).toMatchObject({ name: "api", env: { KEY: "b" } });
  expect(writes).toEqual([`delete ${before.api}`, "create"]);
});

test("another env key updates in place; an ignored one is left as it is on the platform", async () => {
  const before = await idsWithNoOrphan();
  program.web.OTHER = "y";
  const { result, events } = await up();
  expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(events.detailedDiff("web")).toEqual({ "env.OTHER": "update" });
  expect((await idsWithNoOrphan()).web).toBe(before.web);

  program.web.IGNORED = "2";
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toMatchObject({ same: 4 });
  const { result: ignored, writes } = await up();
  expect(ignored.summary.resourceChanges).toEqual({ same: 4 });
  expect(writes).toEqual([]);
  expect(apps().get(before.web).env).toEqual({ KEY: "b", OTHER: "y", IGNORED: "1" });
});

test("up --replace of an autonamed app creates the new one first", async () => {
  const before = await idsWithNoOrphan();
  const { result, events, writes } = await up({ replace: [urn("web")] });
  expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
  expect(events.ops("web")).toEqual(["create-replacement", "replace", "delete-replaced"]);
  const after = await idsWithNoOrphan();
  expect(after.web).not.toBe(before.web);
  expect(writes).toEqual(["create", `delete ${before.web}`]);
  // A replacement is a new app: it takes the program's value of the ignored key (ignoreChanges holds updates only).
  expect(apps().get(after.web).env).toEqual({ KEY: "b", OTHER: "y", IGNORED: "2" });
});

test("up --replace of an app with deleteBeforeReplace deletes it first, and it keeps its name", async () => {
  const before = await idsWithNoOrphan();
  const { events, writes } = await up({ replace: [urn("worker")] });
  expect(events.ops("worker")).toEqual(["delete-replaced", "replace", "create-replacement"]);
  const after = await idsWithNoOrphan();
  expect(after.worker).not.toBe(before.worker);
  expect(apps().get(after.worker).name).toBe("worker");
  expect(writes).toEqual([`delete ${before.worker}`, "create"]);
});

test("a changed replacementTrigger replaces the app, as deleteBeforeReplace says", async () => {
  const before = await idsWithNoOrphan();
  program.trigger = "v2";
  const { result, writes } = await up();
  expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
  const after = await idsWithNoOrphan();
  expect(after.worker).not.toBe(before.worker);
  expect(writes).toEqual([`delete ${before.worker}`, "create"]);
  await stack.preview({ expectNoChanges: true });
});

test("up --replace of a named app without deleteBeforeReplace meets its own name, says how, and orphans nothing", async () => {
  const before = await idsWithNoOrphan();
  await expect(up({ replace: [urn("api")] })).rejects.toThrow(/NAME_TAKEN.*deleteBeforeReplace: true/s);
  expect(await idsWithNoOrphan()).toEqual(before);
  await stack.preview({ expectNoChanges: true });
});

test("destroy leaves no app", async () => {
  await stack.destroy();
  expect(e2e.records("services")).toEqual([]);
});
