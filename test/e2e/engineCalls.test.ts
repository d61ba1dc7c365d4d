// What the real engine sends the plugin, read from the CLI's own gRPC log (PULUMI_DEBUG_GRPC: useE2E's traceGrpc),
// held against the sequences test/grpc/engine.ts plays in the fast tier: if a CLI release changes one, this file
// fails and names the stand-in to change (each test names the Engine method it proves). With the real engine
// v3.274.1 (pkg/resource/deploy/step_generator.go, pkg/resource/plugin/provider_plugin.go):
// - Configure gets CheckConfig's answer (defaults filled in, the token secret, the engine's `version`), every key again
//   as a `hosting:config:<key>` variable, and the provider's id: Plugin.configureAsEngine.
// - a refresh Reads, then Diffs the other way round: Engine.refresh.
// - a replacement Diff asks for Checks twice (with the old inputs, then without, one seed): Engine.up; `--replace`
//   Checks once without them and asks no Diff: Engine.forceReplace; a `replacementTrigger` Checks twice and asks no
//   Diff: Engine.forceReplace with `way: "replacementTrigger"`.
// - a provider whose settings are not known yet (they come from a resource the same run creates) is never
//   configured in a preview: the engine answers Check, Diff and the preview for its resources itself, without the
//   plugin (test/grpc/unknownConfig.test.ts plays an engine that would send them).
// The Automation API's `up` runs without a preview (--skip-preview), so each `up` below is one pass.
// 42 s here (2 cores, load 11 to 16). Run: node_modules/.bin/jest --selectProjects e2e -- test/e2e/engineCalls
import * as hosting from "@hosting/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { ALICE } from "../../simulator/src";
import { PROJECT_ID, type ProviderCall, useE2E } from "./harness";

const e2e = useE2E({ traceGrpc: true });

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const image = "registry.example.com/team/web:1.0.0";
const program = { KEY: "a", trigger: "v1" };
let stack: Stack;

/** The calls about one resource (by its logical name) since `mark`. */
const callsTo = (mark: number, name: string) =>
  e2e
    .providerCalls()
    .slice(mark)
    .filter((c) => c.request.urn?.endsWith(`::${name}`));

/** A call as the stand-in's sequences tell them apart: `Check(olds)` (an update's) or `Check()` (a new resource's). */
const step = (call: ProviderCall) =>
  call.method === "Check" ? `Check(${Object.keys(call.request.olds ?? {}).length > 0 ? "olds" : ""})` : call.method;

/** `up` (or `refresh`), and the calls it made about `web`. */
async function calls(operation: () => Promise<unknown>, name = "web") {
  const mark = e2e.providerCalls().length;
  await operation();
  return callsTo(mark, name);
}

beforeAll(async () => {
  stack = await e2e.stack("engine-calls", "dev", async () => {
    const web = new hosting.Container(
      "web",
      { image, env: { KEY: program.KEY } },
      { replaceOnChanges: ["env.KEY"], replacementTrigger: program.trigger },
    );
    return { id: web.id };
  });
});

test("a new resource: Check without olds, then Create; Configure as Plugin.configureAsEngine sends it", async () => {
  const mark = e2e.providerCalls().length;
  const made = await calls(() => stack.up());
  expect(made.map(step)).toEqual(["Check()", "Create"]);
  const configure = e2e
    .providerCalls()
    .slice(mark)
    .find((c) => c.method === "Configure")!;
  const checkConfig = e2e
    .providerCalls()
    .slice(mark)
    .find((c) => c.method === "CheckConfig")!;
  expect(configure.request.args).toEqual(checkConfig.response.inputs);
  expect(configure.request.args).toMatchObject({ token: { ...SECRET, value: ALICE.token }, version: "0.2.0" });
  expect(configure.request.variables).toMatchObject({
    "hosting:config:token": ALICE.token,
    "hosting:config:maxRetries": "5",
    "hosting:config:projectId": PROJECT_ID,
  });
  expect(Object.keys(configure.request.variables)).not.toContain("hosting:config:version");
  expect(configure.request).toMatchObject({ id: expect.any(String), type: "pulumi:providers:hosting" });
});

test("refresh: Read with the stored inputs and outputs, then Diff the other way round (Engine.refresh)", async () => {
  const id = (await stack.outputs()).id.value;
  e2e.sim.control.mutate("services", id, { env: { KEY: "changed" } });
  const [read, diff, ...rest] = await calls(() => stack.refresh());
  expect([read, diff, ...rest].map(step)).toEqual(["Read", "Diff"]);
  expect(diff.request).toMatchObject({
    olds: read.response.properties,
    oldInputs: read.response.inputs,
    news: read.request.inputs,
  });
  expect(diff.response.detailedDiff).toEqual({ "env.KEY": { kind: "UPDATE" } });
});

test("replaceOnChanges: Check(olds), Diff, Check() with the same seed, Create, Delete (Engine.up)", async () => {
  program.KEY = "b";
  const made = await calls(() => stack.up());
  expect(made.map(step)).toEqual(["Check(olds)", "Diff", "Check()", "Create", "Delete"]);
  const [first, , second] = made;
  expect(second.request.randomSeed).toBe(first.request.randomSeed);
});

test("up --replace: one Check without olds and no Diff, Create, Delete (Engine.forceReplace)", async () => {
  const urn = "urn:pulumi:dev::engine-calls::hosting:index:Container::web";
  const made = await calls(() => stack.up({ replace: [urn] }));
  expect(made.map(step)).toEqual(["Check()", "Create", "Delete"]);
});

test("replacementTrigger: Check(olds), Check() with one seed, no Diff, Create, Delete (forceReplace's way)", async () => {
  program.trigger = "v2";
  const made = await calls(() => stack.up());
  expect(made.map(step)).toEqual(["Check(olds)", "Check()", "Create", "Delete"]);
  expect(made[1].request.randomSeed).toBe(made[0].request.randomSeed);
  await stack.destroy();
  expect(e2e.records("services")).toEqual([]);
});

test("a provider whose settings come from a resource the run creates: the preview never configures it", async () => {
  const unknown = await e2e.stack("engine-calls-unknown", "dev", async () => {
    const db = new hosting.Postgres("db");
    // The base URL is the simulator's, known only once the database exists: unknown in a preview.
    const baseUrl = db.id.apply(() => e2e.sim.url);
    const provider = new hosting.Provider("late", { baseUrl, token: ALICE.token, projectId: PROJECT_ID });
    const web = new hosting.Container("web", { image }, { provider });
    return { name: web.name };
  });
  const mark = e2e.providerCalls().length;
  const preview = await unknown.preview();
  expect(preview.changeSummary).toEqual({ create: 4 });
  const previewed = e2e.providerCalls().slice(mark);
  // CheckConfig sees the unknown; no Configure, and nothing about the app reaches the plugin: the engine answers.
  expect(previewed.filter((c) => c.method === "CheckConfig" && c.request.news.baseUrl === UNKNOWN)).toHaveLength(1);
  expect(previewed.filter((c) => c.method === "Configure").map((c) => c.request.args.baseUrl)).toEqual([e2e.sim.url]);
  expect(callsTo(mark, "web")).toEqual([]);

  const up = await unknown.up();
  expect(up.outputs.name.value).toMatch(/^web-[0-9a-f]{7}$/);
  expect(e2e.records("services").map((s) => s.name)).toContain(up.outputs.name.value);
  await unknown.destroy();
  expect(e2e.records("services")).toEqual([]);
});
