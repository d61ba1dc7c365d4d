// The pure part of hosting-export (provider/src/export/plan.ts): names, ids and types from what
// each kind's `list` found, as named case tables.
import { kindsOf, secretConfigKey } from "../../provider/src/export/cli";
import { importId, planExport, pulumiName, type World as Found } from "../../provider/src/export/plan";
import { hostingPackage } from "../../provider/src/package";

const P = "00000000-0000-4000-8000-0000000a11ce";
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** A name valid in every Pulumi language's code generator, in the form this command writes. */
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

describe("pulumiName", () => {
  test.each([
    ["web-api", "web-api"],
    ["web", "web"],
    ["Web_API", "web-api"],
    ["a--b", "a-b"],
    ["my.app v2", "my-app-v2"],
    ["-edge-", "edge"],
    ["Ärger", "arger"],
    ["9lives", "container-9lives"],
    ["", "container"],
    ["___", "container"],
  ])("%j → %j", (apiName, expected) => {
    expect(pulumiName(apiName, "container")).toBe(expected);
    expect(expected).toMatch(NAME);
  });
});

describe("importId", () => {
  test.each([
    ["project", id(1), `${P}/${id(1)}`],
    ["project", `${id(3)}:${id(1)}`, `${P}/${id(3)}:${id(1)}`],
    ["user", id(5), id(5)],
  ] as const)("%s %s → %s", (scope, given, expected) => {
    expect(importId(scope, given, P)).toBe(expected);
  });
});

test.each([
  ["ghcr", "ghcrPassword"],
  ["docker-hub", "dockerHubPassword"],
  ["registry-2", "registry2Password"],
])("a registry %s's password goes in config key %s", (name, key) => {
  expect(secretConfigKey(name, "password")).toBe(key);
});

/** The API's records, as the test writes them. */
interface World {
  projectId: string;
  services: Array<{ id: string; name: string; type: string }>;
  volumes: Array<{ id: string; name: string; attachment?: { containerId: string } | null }>;
  registries: Array<{ id: string; name: string }>;
  links: Array<{ id: string; consumerServiceId: string; providerServiceId: string; linkType?: string }>;
}

/** What each kind's `list` finds in those records: each in its resource's terms. */
function found(world: World): Found {
  const types: Record<string, string> = {
    container: "Container",
    postgres: "Postgres",
    mysql: "Mysql",
    redis: "Redis",
  };
  const ofType = (typeName: string) => world.services.filter((s) => types[s.type] === typeName);
  return {
    projectId: world.projectId,
    found: {
      Registry: world.registries,
      Container: ofType("Container"),
      Postgres: ofType("Postgres"),
      Mysql: ofType("Mysql"),
      Redis: ofType("Redis"),
      Volume: world.volumes.map(({ id, name }) => ({ id, name })),
      VolumeAttachment: world.volumes.flatMap((v) =>
        v.attachment
          ? [{ id: `${v.id}:${v.attachment.containerId}`, volumeId: v.id, containerId: v.attachment.containerId }]
          : [],
      ),
      ServiceLink: world.links,
    },
    strays: world.services.filter((s) => !types[s.type]),
  };
}

const plan = (world: World, options?: { version?: string; pluginDownloadURL?: string }) =>
  planExport(hostingPackage, kindsOf(), found(world), options);
const empty: World = { projectId: P, services: [], volumes: [], registries: [], links: [] };
const named = (world: Partial<World>) =>
  plan({ ...empty, ...world }).file.resources.map((r) => [r.type.split(":")[2], r.name]);

/** Service records numbered from 1: `[name, type]` each. */
const services = (...records: Array<[string, string]>) =>
  records.map(([name, type], i) => ({ id: id(i + 1), name, type }));

describe("planExport: names", () => {
  test.each<[string, Partial<World>, string[][]]>([
    [
      "API names are kept when nothing else wants them",
      {
        services: services(["web", "container"], ["orders-db", "postgres"]),
        volumes: [{ id: id(3), name: "uploads" }],
        registries: [{ id: id(4), name: "ghcr" }],
      },
      [
        ["Registry", "ghcr"],
        ["Container", "web"],
        ["Postgres", "orders-db"],
        ["Volume", "uploads"],
      ],
    ],
    [
      "a name several kinds share gets each one's kind as a suffix",
      {
        services: services(["data", "container"]),
        volumes: [{ id: id(2), name: "data" }],
        registries: [{ id: id(3), name: "data" }],
      },
      [
        ["Registry", "data-registry"],
        ["Container", "data-container"],
        ["Volume", "data-volume"],
      ],
    ],
    [
      "reserved words (of a language, or of the generated program) get the kind as a suffix",
      {
        services: services(
          ["new", "container"],
          ["hosting", "container"],
          ["pulumi", "redis"],
          ["default", "mysql"],
          ["newest", "container"],
        ),
      },
      [
        ["Container", "hosting-container"],
        ["Container", "new-container"],
        ["Container", "newest"],
        ["Mysql", "default-mysql"],
        ["Redis", "pulumi-redis"],
      ],
    ],
  ])("%s", (_name, world, expected) => {
    expect(named(world)).toEqual(expected);
  });

  /** Each service's name, by its id. */
  const namesById = (world: Partial<World>) =>
    Object.fromEntries(plan({ ...empty, ...world }).file.resources.map((r) => [r.id.split("/")[1], r.name]));

  test("of names that would be one variable in some language (webApi2), the exact API name is kept; the rest are numbered", () => {
    const world = {
      services: services(
        ["web-api-2", "container"],
        ["web-api2", "container"],
        ["web--api", "container"],
        ["web-api", "container"],
      ),
    };
    expect(named(world)).toEqual([
      ["Container", "web-api"],
      ["Container", "web-api-2"],
      ["Container", "web-api-3"],
      ["Container", "web-api2-2"],
    ]);
    expect(namesById(world)).toEqual({
      [id(1)]: "web-api-2",
      [id(2)]: "web-api2-2",
      [id(3)]: "web-api-3",
      [id(4)]: "web-api",
    });
  });

  test("a numbered name never takes a name the records hold", () => {
    const world = { services: services(["Web", "container"], ["web", "container"], ["web-2", "container"]) };
    expect(namesById(world)).toEqual({ [id(1)]: "web-3", [id(2)]: "web", [id(3)]: "web-2" });
  });

  test("attachments are <volume>-on-<app>; links <consumer>-to-<provider>, by type when a pair has several", () => {
    expect(
      named({
        services: services(["worker", "container"], ["db", "postgres"], ["cache", "redis"]),
        volumes: [
          { id: id(4), name: "data", attachment: { containerId: id(1) } },
          { id: id(5), name: "scratch", attachment: null },
        ],
        links: [
          { id: id(6), consumerServiceId: id(1), providerServiceId: id(2), linkType: "http" },
          { id: id(7), consumerServiceId: id(1), providerServiceId: id(3), linkType: "http" },
          { id: id(8), consumerServiceId: id(1), providerServiceId: id(3), linkType: "tcp" },
          {
            id: id(9),
            consumerServiceId: id(1),
            providerServiceId: "ffffffff-0000-4000-8000-000000000000",
            linkType: "http",
          },
        ],
      }),
    ).toEqual([
      ["Container", "worker"],
      ["Postgres", "db"],
      ["Redis", "cache"],
      ["Volume", "data"],
      ["Volume", "scratch"],
      ["VolumeAttachment", "data-on-worker"],
      // The app's http links are its Container's `links`, which its import reads back.
      ["ServiceLink", "worker-to-cache-tcp"],
    ]);
  });
});

describe("planExport: the file", () => {
  const world: World = {
    projectId: P,
    services: [
      { id: id(1), name: "web", type: "container" },
      { id: id(2), name: "db", type: "postgres" },
      { id: id(3), name: "legacy", type: "mysql" },
      { id: id(4), name: "cache", type: "redis" },
      { id: id(5), name: "jobs", type: "worker" },
    ],
    volumes: [{ id: id(6), name: "web", attachment: { containerId: id(1) } }],
    registries: [
      { id: id(7), name: "ghcr" },
      { id: id(8), name: "Docker Hub" },
    ],
    links: [{ id: id(9), consumerServiceId: id(1), providerServiceId: id(2), linkType: "http" }],
  };

  test("every entry is a type, a name and an id the provider's Read accepts, pinned to the plugin's version and where it is published", () => {
    const plugin = { version: "0.2.0", pluginDownloadURL: "github://api.github.com/acme/hosting" };
    expect(plan(world, plugin).file.resources).toEqual(
      [
        { type: "hosting:index:Registry", name: "docker-hub", id: id(8) },
        { type: "hosting:index:Registry", name: "ghcr", id: id(7) },
        { type: "hosting:index:Container", name: "web-container", id: `${P}/${id(1)}` },
        { type: "hosting:index:Postgres", name: "db", id: `${P}/${id(2)}` },
        { type: "hosting:index:Mysql", name: "legacy", id: `${P}/${id(3)}` },
        { type: "hosting:index:Redis", name: "cache", id: `${P}/${id(4)}` },
        { type: "hosting:index:Volume", name: "web-volume", id: `${P}/${id(6)}` },
        { type: "hosting:index:VolumeAttachment", name: "web-on-web", id: `${P}/${id(6)}:${id(1)}` },
      ].map((entry) => ({ ...entry, ...plugin })),
    );
  });

  test("counts per type, registries that need their password, and services of other types left out", () => {
    const planned = plan(world);
    expect(planned.counts).toEqual([
      { type: "Registry", count: 2 },
      { type: "Container", count: 1 },
      { type: "Postgres", count: 1 },
      { type: "Mysql", count: 1 },
      { type: "Redis", count: 1 },
      { type: "Volume", count: 1 },
      { type: "VolumeAttachment", count: 1 },
    ]);
    expect(planned.secretsToSet).toEqual([
      { name: "docker-hub", apiName: "Docker Hub", typeName: "Registry", property: "password" },
      { name: "ghcr", apiName: "ghcr", typeName: "Registry", property: "password" },
    ]);
    expect(planned.skipped).toEqual([{ id: id(5), name: "jobs", type: "worker" }]);
    expect(planned.file.resources.some((r) => r.id.endsWith(id(5)))).toBe(false);
    expect(planned.file.resources[0]).not.toHaveProperty("version");
  });

  test("the same records in any order give the same file (stable across runs)", () => {
    const reversed: World = {
      projectId: P,
      services: [...world.services].reverse(),
      volumes: [...world.volumes].reverse(),
      registries: [...world.registries].reverse(),
      links: [...world.links].reverse(),
    };
    expect(plan(reversed, { version: "1" })).toEqual(plan(world, { version: "1" }));
  });

  test("names are valid everywhere and unique, even as variables", () => {
    const many: World = {
      projectId: P,
      services: ["a", "A", "a-1", "a1", "new", "x--y", "x-y", "9"].map((name, i) => ({
        id: id(i + 1),
        name,
        type: i % 2 ? "container" : "redis",
      })),
      volumes: ["a", "new", "x-y"].map((name, i) => ({ id: id(i + 20), name, attachment: { containerId: id(i + 1) } })),
      registries: ["a", "9", ""].map((name, i) => ({ id: id(i + 30), name })),
      links: [{ id: id(40), consumerServiceId: id(1), providerServiceId: id(2) }],
    };
    const names = plan(many).file.resources.map((r) => r.name);
    for (const name of names) expect(name).toMatch(NAME);
    expect(new Set(names.map((n) => n.replace(/-/g, ""))).size).toBe(names.length);
  });
});
