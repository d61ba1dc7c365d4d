// The SDK's lookup functions (imported from the generated TypeScript sources, so the root
// `tsc -p tsconfig.json` typechecks this file as a program against them) under
// pulumi.runtime.setMocks: each sends its token, its arguments and the plugin version; the
// get…Output form takes outputs and returns one; arguments still unknown are never sent. What the
// mock answers derives from the declarations: each lookup answers with its resource's first example
// as the platform makes it (in the simulator), kept to the properties schema.json gives its result,
// so a new resource needs nothing here.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { HostingClient } from "../../provider/src/api/client";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { hostingPackage } from "../../provider/src/package";
import { ALICE, startSimulator } from "../../simulator/src";
import { contextFor, makeEveryExample, type Made } from "../resources/inProcess";
import { hosting } from "./sdk";
import { startMockEngine, outputValue, type MockEngine } from "./mockEngine";
import { typecheckAgainstSdk } from "./typecheck";

const schema = require("../../schema.json");

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.
const PROJECT = ALICE.projects[0];
const ID = "11111111-2222-4333-8444-555555555555";

/** Each lookup the package declares: its resource and, for a list, the key its answer holds the items under. */
const LOOKUPS = hostingPackage.functions.flatMap((fn) =>
  "resource" in fn.result ? [{ name: fn.name, typeName: fn.result.resource.typeName, list: fn.result.list }] : [],
);
const lookup = (name: string) => LOOKUPS.find((l) => l.name === name)!;

/** Every resource's first example, made in the simulator: its id and outputs, by type name. */
let made: Map<string, Made>;
/** The first example of `fn`'s resource, as `fn`'s result in schema.json has it (an item, for a list). */
function example(fn: string): Record<string, any> {
  const { typeName, list } = lookup(fn);
  const { id, outputs } = made.get(typeName)!;
  const result = schema.functions[`hosting:index:${fn}`].outputs.properties;
  const properties = list ? schema.types[result[list].items.$ref.replace("#/types/", "")].properties : result;
  return Object.fromEntries(Object.entries({ ...outputs, id }).filter(([key]) => key in properties));
}
/** What the mock answers a lookup: the example (by id: with that id), or a list of it. */
function answer(fn: string, args: Record<string, unknown>): Record<string, unknown> {
  const list = lookup(fn).list;
  return list ? { [list]: [example(fn)] } : { ...example(fn), ...(args.id ? { id: args.id } : {}) };
}

let engine: MockEngine;
beforeAll(async () => {
  const sim = await startSimulator({ port: 0, serviceStartMs: 0, volumeProvisioningMs: 0 });
  try {
    const client = new HostingClient({ baseUrl: sim.url, token: ALICE.token, maxRetries: 0 });
    made = await makeEveryExample(contextFor(client, PROJECT), schema);
  } finally {
    await closeSharedDispatcher();
    await sim.close();
  }
  engine = await startMockEngine({
    call: (token, args) => {
      const fn = token.replace("hosting:index:", "");
      return lookup(fn) ? answer(fn, args) : {};
    },
  });
});

const lastInvocation = () => engine.invocations.at(-1)!;

describe("get<Kind> by id or by name", () => {
  test("getContainer by name sends the token, the arguments and the plugin version, and answers typed", async () => {
    const web = await hosting.getContainer({ name: "web" });
    expect(lastInvocation()).toEqual({
      token: "hosting:index:getContainer",
      args: { name: "web" },
      version: schema.version,
      pluginDownloadURL: schema.pluginDownloadURL,
    });
    const port: number = web.httpPort;
    const env: { [key: string]: string } | undefined = web.env;
    const { id, httpPort, env: exampleEnv, image } = example("getContainer");
    expect({ id: web.id, port, env, image: web.image }).toEqual({ id, port: httpPort, env: exampleEnv, image });
    expect(port).toBe(8080);
  });

  test("getPostgres, getMysql and getRedis by id, in a project, answer their connection", async () => {
    const pg = await hosting.getPostgres({ id: ID, projectId: PROJECT });
    expect(lastInvocation()).toMatchObject({
      token: "hosting:index:getPostgres",
      args: { id: ID, projectId: PROJECT },
    });
    const instructions: string = pg.connection.instructions;
    const requiresAuth: boolean = pg.connection.requiresAuth;
    expect({ id: pg.id, instructions, requiresAuth }).toEqual({
      id: ID,
      instructions: example("getPostgres").connection.instructions,
      requiresAuth: example("getPostgres").connection.requiresAuth,
    });
    expect((await hosting.getMysql({ name: "legacy-db" })).connection).toEqual(example("getMysql").connection);
    expect((await hosting.getRedis({ name: "cache" })).connection.envVar).toBe("REDIS_URL");
  });

  test("getVolume and getRegistry", async () => {
    const size: number = (await hosting.getVolume({ name: "data" })).sizeGb;
    expect(size).toBe(example("getVolume").sizeGb);
    const registry = await hosting.getRegistry({ id: ID });
    expect(lastInvocation()).toMatchObject({ token: "hosting:index:getRegistry", args: { id: ID } });
    expect(registry.host).toBe(example("getRegistry").host);
    // The result has no password (shape.test.ts: the type has none either): the API never returns it.
    expect(registry.password).toBeUndefined();
  });
});

describe("get<Kind>Output", () => {
  test("takes an output (another resource's id) and returns an output of the result", async () => {
    const app = new hosting.Container("app", { name: "app", image: example("getContainer").image });
    const found = hosting.getContainerOutput({ id: app.id });
    expect(await outputValue(found.image)).toBe(example("getContainer").image);
    expect(lastInvocation()).toMatchObject({
      token: "hosting:index:getContainer",
      args: { id: "app-id" },
      version: schema.version,
    });
  });

  test("every get…Output form invokes its function", async () => {
    const outputs: Array<[string, pulumi.Output<{ id: string }>, string]> = [
      ["getContainer", hosting.getContainerOutput({ name: pulumi.output("web") }), example("getContainer").id],
      [
        "getPostgres",
        hosting.getPostgresOutput({ name: "orders-db", projectId: pulumi.output(PROJECT) }),
        example("getPostgres").id,
      ],
      ["getMysql", hosting.getMysqlOutput({ id: ID }), ID],
      ["getRedis", hosting.getRedisOutput({ id: ID }), ID],
      ["getVolume", hosting.getVolumeOutput({ name: "data" }), example("getVolume").id],
      ["getRegistry", hosting.getRegistryOutput({ name: "ghcr" }), example("getRegistry").id],
    ];
    for (const [fn, output, id] of outputs) {
      expect(await outputValue(output.id)).toBe(id);
      expect(engine.invocations.some((i) => i.token === `hosting:index:${fn}`)).toBe(true);
    }
  });

  test("a database's connection through the output form reads as an output", async () => {
    const url: pulumi.Output<string> = hosting.getPostgresOutput({ name: "orders-db" }).connection.instructions;
    expect(await outputValue(url)).toBe(example("getPostgres").connection.instructions);
  });

  test("arguments still unknown (a preview) are never sent: the result is unknown", async () => {
    const before = engine.invocations.length;
    const unknownId = pulumi.output(pulumi.unknown as unknown as string);
    const found = hosting.getContainerOutput({ id: unknownId });
    // isKnown is the SDK's own (not in its public typings): what a preview reads.
    expect(await (found as unknown as { isKnown: Promise<boolean> }).isKnown).toBe(false);
    expect(engine.invocations.length).toBe(before);
  });
});

describe("the lists", () => {
  test("getContainers with a type, getVolumes, getRegistries and getServiceLinks answer their arrays", async () => {
    const services = (await hosting.getContainers({ type: "container" })).services;
    expect(lastInvocation()).toMatchObject({ token: "hosting:index:getContainers", args: { type: "container" } });
    expect(services).toEqual([expect.objectContaining({ id: example("getContainers").id, type: "container" })]);
    expect((await hosting.getVolumes()).volumes.map((v: { sizeGb: number }) => v.sizeGb)).toEqual([
      example("getVolumes").sizeGb,
    ]);
    expect((await hosting.getRegistries()).registries.map((r: { name: string }) => r.name)).toEqual([
      example("getRegistries").name,
    ]);
    const consumer = example("getServiceLinks").consumerServiceId;
    const links = (await hosting.getServiceLinks({ consumerServiceId: consumer })).links;
    expect(lastInvocation()).toMatchObject({
      token: "hosting:index:getServiceLinks",
      args: { consumerServiceId: consumer },
    });
    const injected: { [key: string]: string } | undefined = links[0].injectedEnv;
    expect(injected).toEqual(example("getServiceLinks").injectedEnv);
    expect(Object.keys(injected ?? {})).toEqual(["DATABASE_URL"]);
    expect(links[0].name).toBeUndefined();
  });

  test("the Output forms of the lists", async () => {
    const app = new hosting.Container("consumer", { name: "consumer", image: example("getContainer").image });
    const links = hosting.getServiceLinksOutput({ consumerServiceId: app.id }).links;
    expect((await outputValue<any>(links))[0].consumerServiceId).toBe(example("getServiceLinks").consumerServiceId);
    expect(lastInvocation()).toMatchObject({ args: { consumerServiceId: "consumer-id" } });
    expect(
      (await outputValue<any>(hosting.getContainersOutput({ type: pulumi.output("container") }).services))[0].type,
    ).toBe("container");
    expect(await outputValue(hosting.getVolumesOutput().volumes.apply((v: unknown[]) => v.length))).toBe(1);
    expect(
      await outputValue(hosting.getRegistriesOutput().registries.apply((r: Array<{ host: string }>) => r[0].host)),
    ).toBe("ghcr.io");
  });
});

/** The lookups schema.json has: every function the package does not declare by hand (getContainerLogs). */
const schemaLookups = () => {
  const declared = new Set(hostingPackage.functions.filter((fn) => !("resource" in fn.result)).map((fn) => fn.name));
  return Object.keys(schema.functions)
    .map((token) => token.split(":")[2])
    .filter((fn) => !declared.has(fn));
};

test("every lookup in the schema is answered from its resource's first example, and the SDK has both forms", () => {
  expect(schemaLookups().sort()).toEqual(LOOKUPS.map((l) => l.name).sort());
  for (const fn of schemaLookups()) {
    expect(Object.keys(answer(fn, {})).length).toBeGreaterThan(0);
    expect(typeof (hosting as Record<string, unknown>)[fn]).toBe("function");
    expect(typeof (hosting as Record<string, unknown>)[`${fn}Output`]).toBe("function");
  }
});

test("the Lookups example of docs/functions.md calls only lookups schema.json has and typechecks against the generated SDK; every lookup has its row in the page's generated table", async () => {
  const ROOT = resolve(__dirname, "../..");
  const readme = readFileSync(join(ROOT, "docs/functions.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Lookups"));
  const program = /```ts\n([\s\S]*?)```/.exec(section)![1];
  const called = [...program.matchAll(/hosting\s*\.(get\w+?)(Output)?\(/g)].map((m) => m[1]);
  expect(called.length).toBeGreaterThan(0);
  expect(called.filter((fn) => !schemaLookups().includes(fn))).toEqual([]);
  // Every lookup has its example in the generated table of the same page (make docs), from schema.json.
  for (const fn of schemaLookups()) expect(readme).toContain(`| [${fn}](reference/${fn.toLowerCase()}.md) |`);
  expect(await typecheckAgainstSdk({ "index.ts": program })).toBe("");
});
