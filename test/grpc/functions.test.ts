// The lookup functions through Invoke, as the engine sends it, against the simulator: found by
// id and by name, not found, the wrong kind, both or neither of id and name, unknown arguments in
// a preview, and secrets wrapped in the result as the resource of that kind wraps them. The world is
// every resource's first example (the one the docs show), made through the plugin in the package's
// order, and the lookups by id or name are the package's, each looking for its resource's example.
import {
  isExampleSecret,
  isReference,
  type ExampleValue,
  type ResourceDeclaration,
} from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import { ALICE, BOB } from "../../simulator/src";
import { UNKNOWN, isSecret, plain, secret } from "./engine";
import { PROJECT, useFixture, type Fixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 20 });
const tok = (name: string) => `hosting:index:${name}`;
/** The list functions the package declares. */
const LISTS = hostingPackage.functions.filter((fn) => "resource" in fn.result && fn.result.list).map((fn) => fn.name);
const RESOURCES = hostingPackage.resources as ResourceDeclaration[];
const exampleOf = (typeName: string) => RESOURCES.find((r) => r.typeName === typeName)!.examples[0];

/** What the world holds: each example's logical name (and the two the list filters add) -> id, and -> name. */
const ids: Record<string, string> = {};
/** The ids made, by type name: what an example's references point to. */
const byType: Record<string, string> = {};
/** The names the resources took (the examples leave `name` out: the provider names them from their logical name). */
const names: Record<string, string> = {};

async function create(f: Fixture, type: string, name: string, props: Record<string, unknown>) {
  const { inputs, failures } = await f.plugin.check(tok(type), name, props);
  expect(failures).toEqual([]);
  const created = await f.plugin.create(tok(type), name, inputs);
  ids[name] = created.id;
  if (typeof created.properties.name === "string") names[name] = created.properties.name;
  return created.id;
}

/** An example's inputs as the engine sends them: references as the ids made, secrets wrapped. */
const program = (values: Record<string, ExampleValue>) =>
  Object.fromEntries(
    Object.entries(values).map(([k, v]) => [
      k,
      isReference(v) ? byType[v.reference] : isExampleSecret(v) ? secret(v.sample) : v,
    ]),
  );

beforeAll(async () => {
  for (const resource of RESOURCES) {
    const example = resource.examples[0];
    byType[resource.typeName] = await create(fixture, resource.typeName, example.name, program(example.inputs));
  }
  // A second app, linked to the cache: what keeps the list filters from passing with one of each.
  await create(fixture, "Container", "worker", {
    name: "worker",
    image: exampleOf("Container").inputs.image,
    replicas: 1,
  });
  await create(fixture, "ServiceLink", "worker-to-cache", {
    consumerServiceId: ids.worker,
    providerServiceId: byType.Redis,
  });
});

/** Invokes a function and counts the API requests it made. */
async function invoke(fn: string, args: Record<string, unknown>) {
  const mark = fixture.mark();
  const result = await fixture.plugin.invoke(tok(fn), args);
  return { ...result, requests: fixture.requestsSince(mark) };
}

const failureOf = (fn: string, args: Record<string, unknown>) =>
  fixture.plugin.invoke(tok(fn), args).then(
    () => {
      throw new Error(`${fn} succeeded`);
    },
    (err) => err as { code: number; details: string },
  );

/** What a lookup shows beyond its example's inputs, where its kind has something to show (a new kind needs none). */
const SHOWS: Record<string, Record<string, unknown>> = {
  getContainer: { httpPort: 8080, running: true, type: "container" },
  getPostgres: { connection: expect.objectContaining({ envVar: "DATABASE_URL" }) },
  getMysql: { connection: expect.objectContaining({ port: "3306" }) },
  getRedis: { connection: expect.objectContaining({ envVar: "REDIS_URL" }) },
  getVolume: { attached: true, accessMode: "ReadWriteOnce" },
};

/**
 * One case per lookup by id or name: the resource's example, found by its name, with its inputs (but secrets and
 * references); what it says of something else names its noun.
 */
const lookups = hostingPackage.functions.flatMap((fn) => {
  if (!("resource" in fn.result) || fn.result.list) return [];
  const resource = fn.result.resource as ResourceDeclaration;
  const example = resource.examples[0];
  const plainInputs = Object.entries(example.inputs).filter(([, v]) => !isReference(v) && !isExampleSecret(v));
  return [
    {
      fn: fn.name,
      logicalName: example.name,
      kind: resource.lookups!.byIdOrName!.noun,
      expected: { ...Object.fromEntries(plainInputs), ...SHOWS[fn.name] },
    },
  ];
});

describe.each(lookups)("$fn", ({ fn, logicalName, kind, expected }) => {
  const inProject = fn !== "getRegistry";
  let name: string;
  beforeAll(() => {
    name = names[logicalName];
  });

  test("finds it by id, with the resource's properties and its id", async () => {
    const found = await invoke(fn, { id: ids[logicalName] });
    expect(found.failures).toEqual([]);
    expect(plain(found.return)).toMatchObject({
      id: ids[logicalName],
      name,
      ...expected,
      ...(inProject ? { projectId: PROJECT } : {}),
    });
  });

  test("finds it by name, the same as by id", async () => {
    const [byName, byId] = [await invoke(fn, { name }), await invoke(fn, { id: ids[logicalName] })];
    expect(byName.failures).toEqual([]);
    expect(plain(byName.return)).toEqual(plain(byId.return));
  });

  if (inProject) {
    test("takes the project from its arguments as well as from the provider", async () => {
      const found = await invoke(fn, { name, projectId: PROJECT });
      expect(plain(found.return)).toMatchObject({ id: ids[logicalName] });
    });
  }

  test("finding nothing fails, naming what was looked up and where", async () => {
    const where = inProject ? ` in project ${PROJECT}` : "";
    await expect(failureOf(fn, { name: "nothing-here" })).resolves.toMatchObject({
      code: 3,
      details: expect.stringContaining(`no ${kind} with name "nothing-here"${where}`),
    });
    const missingId = "00000000-0000-4000-8000-00000000dead";
    await expect(failureOf(fn, { id: missingId })).resolves.toMatchObject({
      details: expect.stringContaining(`no ${kind} with id ${missingId}${where}`),
    });
  });

  test("both id and name, or neither, fail at Check, naming the property, before any API call", async () => {
    const both = await invoke(fn, { id: ids[logicalName], name });
    expect(both.failures).toEqual([
      { property: "name", reason: "set exactly one of id or name: id and name were both given" },
    ]);
    const neither = await invoke(fn, {});
    expect(neither.failures).toEqual([{ property: "id", reason: "set exactly one of id or name: neither was given" }]);
    expect([...both.requests, ...neither.requests]).toEqual([]);
    expect(both.return).toEqual({});
  });

  test("arguments still unknown (a preview) are not sent to the API", async () => {
    for (const args of [{ id: UNKNOWN }, { name: UNKNOWN }, ...(inProject ? [{ name, projectId: UNKNOWN }] : [])]) {
      const preview = await invoke(fn, args);
      expect(preview).toEqual({ return: {}, failures: [], requests: [] });
    }
  });
});

describe("the wrong kind", () => {
  test("a Postgres id through getContainer says which kind the id is", async () => {
    await expect(failureOf("getContainer", { id: ids["orders-db"] })).resolves.toMatchObject({
      code: 3,
      details: expect.stringMatching(new RegExp(`service ${ids["orders-db"]} is a postgres, not a container`)),
    });
  });

  test.each([
    ["getPostgres", "web", "container", "postgres"],
    ["getMysql", "cache", "redis", "mysql"],
    ["getRedis", "legacy-db", "mysql", "redis"],
    ["getContainer", "cache", "redis", "container"],
  ])("%s of %s (a %s) says it is a %s, by id and by name", async (fn, name, is, wanted) => {
    for (const args of [{ id: ids[name] }, { name: names[name] }]) {
      await expect(failureOf(fn, args)).resolves.toMatchObject({
        details: expect.stringContaining(`is a ${is}, not a ${wanted}`),
      });
    }
  });

  test("an app's id through getVolume is no volume", async () => {
    await expect(failureOf("getVolume", { id: ids.web })).resolves.toMatchObject({
      details: expect.stringContaining(`no volume with id ${ids.web}`),
    });
  });
});

describe("another user's project", () => {
  test("a lookup there fails, saying the token cannot see the project (not that nothing is there)", async () => {
    const project = BOB.projects[0];
    for (const args of [
      { name: names.web, projectId: project },
      { id: ids.web, projectId: project },
    ]) {
      await expect(failureOf("getContainer", args)).resolves.toMatchObject({
        details: expect.stringMatching(
          new RegExp(`project ${project} reads as 404 NOT_FOUND: the token cannot see it`),
        ),
      });
    }
  });
});

describe("secrets in lookups' results are wrapped as in the resource", () => {
  test.each(["getPostgres", "getMysql", "getRedis"])(
    "%s: connection.instructions is secret, the rest of the connection is not",
    async (fn) => {
      const name = names[exampleOf(fn.slice(3)).name];
      const { return: found } = await invoke(fn, { name });
      const connection = found.connection as Record<string, unknown>;
      expect(isSecret(connection.instructions)).toBe(true);
      expect(typeof (connection.instructions as { value: unknown }).value).toBe("string");
      for (const key of ["host", "port", "envVar", "requiresAuth"]) expect(isSecret(connection[key])).toBe(false);
      expect(isSecret(found.connection)).toBe(false);
    },
  );

  test("getRegistry never returns a password", async () => {
    const { return: found } = await invoke("getRegistry", { name: names.ghcr });
    expect(found).not.toHaveProperty("password");
    expect(JSON.stringify(found)).not.toContain("registry-pass");
  });

  test("an argument given as a secret stays a secret in the result", async () => {
    const { return: found } = await invoke("getContainer", { name: secret(names.web) });
    expect(isSecret(found.name)).toBe(true);
    expect(isSecret(found.image)).toBe(false);
  });
});

describe("getContainers", () => {
  test("lists every service of the project in a Container's terms, databases included", async () => {
    const { return: result, failures } = await invoke("getContainers", {});
    expect(failures).toEqual([]);
    const services = plain(result.services) as Array<Record<string, unknown>>;
    expect(services.map((s) => s.name).sort()).toEqual(
      [names.cache, names["legacy-db"], names["orders-db"], names.web, "worker"].sort(),
    );
    expect(services.find((s) => s.name === names.web)).toMatchObject({
      id: ids.web,
      image: exampleOf("Container").inputs.image,
      env: { LOG_LEVEL: "info" },
      type: "container",
      projectId: PROJECT,
    });
    expect(services.find((s) => s.name === names["orders-db"])).toMatchObject({
      id: ids["orders-db"],
      type: "postgres",
    });
  });

  test("`type` keeps one kind", async () => {
    const { return: result } = await invoke("getContainers", { type: "container" });
    expect((plain(result.services) as Array<{ name: string }>).map((s) => s.name).sort()).toEqual(
      [names.web, "worker"].sort(),
    );
    const { return: redis } = await invoke("getContainers", { type: "redis" });
    expect(plain(redis.services)).toEqual([expect.objectContaining({ id: ids.cache, type: "redis" })]);
  });

  test("env is not secret (a Container's is not), and holds no variable a link injects", async () => {
    const { return: result } = await invoke("getContainers", { type: "container" });
    const web = (result.services as Array<Record<string, unknown>>).find((s) => plain(s.name) === names.web)!;
    expect(isSecret(web.env)).toBe(false);
    expect(web.env).toEqual({ LOG_LEVEL: "info" });
    expect(isSecret(result.services)).toBe(false);
  });
});

describe("getVolumes", () => {
  test("lists the project's volumes", async () => {
    const { return: result, failures } = await invoke("getVolumes", {});
    expect(failures).toEqual([]);
    expect(plain(result.volumes)).toEqual([
      expect.objectContaining({ id: ids.data, name: names.data, sizeGb: 20, attached: true, projectId: PROJECT }),
    ]);
  });

  test("a project that is not the user's fails as one the token cannot see, with the API's code", async () => {
    await expect(failureOf("getVolumes", { projectId: BOB.projects[0] })).resolves.toMatchObject({
      code: 9,
      details: expect.stringMatching(/the token cannot see it.*NOT_FOUND/),
    });
  });
});

describe("getRegistries", () => {
  test("lists the user's registries, never a password", async () => {
    const { return: result, failures } = await invoke("getRegistries", {});
    expect(failures).toEqual([]);
    expect(plain(result.registries)).toEqual([{ id: ids.ghcr, name: names.ghcr, host: "ghcr.io", username: "ci" }]);
    expect(JSON.stringify(result)).not.toContain("registry-pass");
  });

  test("takes no projectId", async () => {
    const { failures } = await invoke("getRegistries", { projectId: PROJECT });
    expect(failures).toEqual([
      {
        property: "projectId",
        reason: expect.stringContaining("projectId is not a property of hosting:index:getRegistries"),
      },
    ]);
  });
});

describe("getServiceLinks", () => {
  test("lists the project's links, each with its injectedEnv secret", async () => {
    const { return: result, failures } = await invoke("getServiceLinks", {});
    expect(failures).toEqual([]);
    const links = result.links as Array<Record<string, unknown>>;
    expect(links).toHaveLength(2);
    expect(isSecret(result.links)).toBe(false);
    for (const link of links) {
      expect(isSecret(link.injectedEnv)).toBe(true);
      expect(isSecret(link.consumerServiceId)).toBe(false);
    }
    expect(plain(links)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: ids["web-db"],
          consumerServiceId: ids.web,
          providerServiceId: ids["orders-db"],
          linkType: "http",
          projectId: PROJECT,
        }),
        expect.objectContaining({ id: ids["worker-to-cache"], injectedEnv: { REDIS_URL: expect.any(String) } }),
      ]),
    );
  });

  test("consumerServiceId and providerServiceId keep the links of one service", async () => {
    const byConsumer = await invoke("getServiceLinks", { consumerServiceId: ids.web });
    expect((plain(byConsumer.return.links) as Array<{ id: string }>).map((l) => l.id)).toEqual([ids["web-db"]]);
    const byProvider = await invoke("getServiceLinks", { providerServiceId: ids.cache });
    expect((plain(byProvider.return.links) as Array<{ id: string }>).map((l) => l.id)).toEqual([
      ids["worker-to-cache"],
    ]);
    const neither = await invoke("getServiceLinks", { consumerServiceId: ids.web, providerServiceId: ids.cache });
    expect(neither.return.links).toEqual([]);
  });
});

describe("the list functions check their arguments before any API call", () => {
  test.each([
    ["getContainers", { type: "Postgres!" }, "type", 'type "Postgres!" is not valid'],
    ["getServiceLinks", { consumerServiceId: "web" }, "consumerServiceId", 'consumerServiceId "web" is not an id'],
  ])("%s: a malformed argument fails at Check, naming it", async (fn, args, property, reason) => {
    const bad = await invoke(fn, args);
    expect(bad.failures).toEqual([{ property, reason: expect.stringContaining(reason) }]);
    expect(bad.requests).toEqual([]);
  });

  test.each([
    ["getContainers", { type: UNKNOWN }],
    ["getVolumes", { projectId: UNKNOWN }],
    ["getServiceLinks", { consumerServiceId: UNKNOWN }],
  ])("%s: unknown arguments are not sent", async (fn, args) => {
    expect(await invoke(fn, args)).toEqual({ return: {}, failures: [], requests: [] });
  });
});

test("no lookup result carries the token", async () => {
  for (const fn of LISTS) {
    expect(JSON.stringify((await invoke(fn, {})).return)).not.toContain(ALICE.token);
  }
});
