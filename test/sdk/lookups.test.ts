// The SDK's lookup functions (imported from the generated TypeScript sources, so the root
// `tsc -p tsconfig.json` typechecks this file as a program against them) under
// pulumi.runtime.setMocks: each sends its token, its arguments and the plugin version; the
// get…Output form takes outputs and returns one; arguments still unknown are never sent.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { hosting } from "./sdk";
import { startMockEngine, outputValue, type MockEngine } from "./mockEngine";
import { typecheckAgainstSdk } from "./typecheck";

const schema = require("../../schema.json");

// These tests run tsc (or make schema sdk), which a loaded machine can slow past the default 60 s.
const PROJECT = "00000000-0000-4000-8000-0000000a11ce";
const ID = "11111111-2222-4333-8444-555555555555";
const IMAGE = "registry.example.com/team/web:1.4.2";

/** What the mock provider answers, per function: enough of each result to read it typed. */
const connection = {
  host: "db.ns.svc.cluster.local:5432",
  port: "5432",
  envVar: "DATABASE_URL",
  instructions: "postgres://u:pw@db/app",
  requiresAuth: true,
};
const answers: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
  getContainer: (args) => ({
    id: args.id ?? ID,
    name: args.name ?? "web",
    image: IMAGE,
    httpPort: 8080,
    running: true,
    projectId: PROJECT,
    env: { LOG_LEVEL: "info" },
  }),
  getPostgres: (args) => ({
    id: args.id ?? ID,
    name: args.name ?? "db",
    projectId: PROJECT,
    status: "running",
    internalHost: connection.host,
    connection,
  }),
  getMysql: (args) => ({
    id: args.id ?? ID,
    name: args.name ?? "legacy",
    projectId: PROJECT,
    connection: { ...connection, port: "3306" },
  }),
  getRedis: (args) => ({
    id: args.id ?? ID,
    name: args.name ?? "cache",
    projectId: PROJECT,
    connection: { ...connection, port: "6379", envVar: "REDIS_URL" },
  }),
  getVolume: (args) => ({
    id: args.id ?? ID,
    name: args.name ?? "data",
    projectId: PROJECT,
    sizeGb: 20,
    attached: false,
  }),
  getRegistry: (args) => ({ id: args.id ?? ID, name: args.name ?? "ghcr", host: "ghcr.io", username: "ci" }),
  getContainers: (args) => ({ services: [{ id: ID, name: "web", type: args.type ?? "container", image: IMAGE }] }),
  getVolumes: () => ({ volumes: [{ id: ID, name: "data", sizeGb: 20 }] }),
  getRegistries: () => ({ registries: [{ id: ID, name: "ghcr", host: "ghcr.io" }] }),
  getServiceLinks: (args) => ({
    links: [
      {
        id: ID,
        consumerServiceId: args.consumerServiceId ?? ID,
        providerServiceId: ID,
        linkType: "http",
        injectedEnv: { DATABASE_URL: "x" },
      },
    ],
  }),
};

let engine: MockEngine;
beforeAll(async () => {
  engine = await startMockEngine({
    call: (token, args) => answers[token.replace("hosting:index:", "")]?.(args) ?? {},
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
    expect({ id: web.id, port, env, image: web.image }).toEqual({
      id: ID,
      port: 8080,
      env: { LOG_LEVEL: "info" },
      image: IMAGE,
    });
  });

  test("getPostgres, getMysql and getRedis by id, in a project, answer their connection", async () => {
    const pg = await hosting.getPostgres({ id: ID, projectId: PROJECT });
    expect(lastInvocation()).toMatchObject({
      token: "hosting:index:getPostgres",
      args: { id: ID, projectId: PROJECT },
    });
    const instructions: string = pg.connection.instructions;
    const requiresAuth: boolean = pg.connection.requiresAuth;
    expect({ instructions, requiresAuth }).toEqual({ instructions: "postgres://u:pw@db/app", requiresAuth: true });
    expect((await hosting.getMysql({ name: "legacy" })).connection.port).toBe("3306");
    expect((await hosting.getRedis({ name: "cache" })).connection.envVar).toBe("REDIS_URL");
  });

  test("getVolume and getRegistry", async () => {
    const size: number = (await hosting.getVolume({ name: "data" })).sizeGb;
    expect(size).toBe(20);
    const registry = await hosting.getRegistry({ id: ID });
    expect(lastInvocation()).toMatchObject({ token: "hosting:index:getRegistry", args: { id: ID } });
    expect(registry.host).toBe("ghcr.io");
    // The result has no password (shape.test.ts: the type has none either): the API never returns it.
    expect(registry.password).toBeUndefined();
  });
});

describe("get<Kind>Output", () => {
  test("takes an output (another resource's id) and returns an output of the result", async () => {
    const app = new hosting.Container("app", { name: "app", image: IMAGE });
    const found = hosting.getContainerOutput({ id: app.id });
    expect(await outputValue(found.image)).toBe(IMAGE);
    expect(lastInvocation()).toMatchObject({
      token: "hosting:index:getContainer",
      args: { id: "app-id" },
      version: schema.version,
    });
  });

  test("every get…Output form invokes its function", async () => {
    const outputs: Array<[string, pulumi.Output<{ id: string }>]> = [
      ["getContainer", hosting.getContainerOutput({ name: pulumi.output("web") })],
      ["getPostgres", hosting.getPostgresOutput({ name: "db", projectId: pulumi.output(PROJECT) })],
      ["getMysql", hosting.getMysqlOutput({ id: ID })],
      ["getRedis", hosting.getRedisOutput({ id: ID })],
      ["getVolume", hosting.getVolumeOutput({ name: "data" })],
      ["getRegistry", hosting.getRegistryOutput({ name: "ghcr" })],
    ];
    for (const [fn, output] of outputs) {
      expect(await outputValue(output.id)).toBe(ID);
      expect(engine.invocations.some((i) => i.token === `hosting:index:${fn}`)).toBe(true);
    }
  });

  test("a database's connection through the output form reads as an output", async () => {
    const url: pulumi.Output<string> = hosting.getPostgresOutput({ name: "db" }).connection.instructions;
    expect(await outputValue(url)).toBe("postgres://u:pw@db/app");
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
    const services = (await hosting.getContainers({ type: "postgres" })).services;
    expect(lastInvocation()).toMatchObject({ token: "hosting:index:getContainers", args: { type: "postgres" } });
    expect(services).toEqual([expect.objectContaining({ id: ID, type: "postgres" })]);
    expect((await hosting.getVolumes()).volumes.map((v: { sizeGb: number }) => v.sizeGb)).toEqual([20]);
    expect((await hosting.getRegistries()).registries.map((r: { name: string }) => r.name)).toEqual(["ghcr"]);
    const links = (await hosting.getServiceLinks({ consumerServiceId: ID })).links;
    expect(lastInvocation()).toMatchObject({ token: "hosting:index:getServiceLinks", args: { consumerServiceId: ID } });
    const injected: { [key: string]: string } | undefined = links[0].injectedEnv;
    expect(injected).toEqual({ DATABASE_URL: "x" });
    expect(links[0].name).toBeUndefined();
  });

  test("the Output forms of the lists", async () => {
    const app = new hosting.Container("consumer", { name: "consumer", image: IMAGE });
    const links = hosting.getServiceLinksOutput({ consumerServiceId: app.id }).links;
    expect((await outputValue<any>(links))[0].consumerServiceId).toBe("consumer-id");
    expect(
      (await outputValue<any>(hosting.getContainersOutput({ type: pulumi.output("redis") }).services))[0].type,
    ).toBe("redis");
    expect(await outputValue(hosting.getVolumesOutput().volumes.apply((v: unknown[]) => v.length))).toBe(1);
    expect(
      await outputValue(hosting.getRegistriesOutput().registries.apply((r: Array<{ host: string }>) => r[0].host)),
    ).toBe("ghcr.io");
  });
});

test("every function in the schema has a case here, in both forms", () => {
  const lookups = Object.keys(schema.functions)
    .map((t) => t.split(":")[2])
    .filter((f) => f !== "getContainerLogs");
  expect(lookups.sort()).toEqual(Object.keys(answers).sort());
  for (const fn of lookups) {
    expect(typeof (hosting as Record<string, unknown>)[fn]).toBe("function");
    expect(typeof (hosting as Record<string, unknown>)[`${fn}Output`]).toBe("function");
  }
});

test("the Lookups example of docs/functions.md is a program that typechecks against the generated SDK and uses every lookup", async () => {
  const ROOT = resolve(__dirname, "../..");
  const readme = readFileSync(join(ROOT, "docs/functions.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Lookups"));
  const program = /```ts\n([\s\S]*?)```/.exec(section)![1];
  const lookups = Object.keys(answers);
  for (const fn of lookups) expect(program).toMatch(new RegExp(`hosting\\s*\\.${fn}(Output)?\\(`));
  expect(await typecheckAgainstSdk({ "index.ts": program })).toBe("");
});
