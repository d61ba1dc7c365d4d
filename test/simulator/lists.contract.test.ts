// Every list answer of the simulator is one the provider reads. For each collection of the simulator
// (simulator/src/collections.ts), its list endpoint (a GET of the collection's own path) answered
// over HTTP, in a world that holds every resource's first example, parses with the list shape of the
// provider's Collection at that path (provider/src/resources/*.ts, read through api/client.ts and
// api/wire.ts), and holds its records where the provider looks: a bare array, or an object with the
// array under the Collection's `key`. Both sides are found from their own tables, so a new kind is
// checked as soon as it is declared; a wrong envelope key fails here, not at `make record-state`.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Collection, HostingClient } from "../../provider/src/api/client";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { listOf } from "../../provider/src/api/wire";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { COLLECTIONS, KINDS } from "../../simulator/src/collections";
import type { Route } from "../../simulator/src/context";
import { contextFor, makeEveryExample } from "../resources/inProcess";

const ROOT = join(__dirname, "../..");
const PROJECT = ALICE.projects[0];
const BASES = { project: "/v1/projects/:projectId", user: "/v1" } as const;

/** A collection's list endpoint: a GET of its own path, under a project or the user's. */
function listRoute(route: Route): { scope: keyof typeof BASES; path: string } | undefined {
  if (route.method !== "GET") return undefined;
  for (const [scope, base] of Object.entries(BASES) as Array<[keyof typeof BASES, string]>) {
    const path = route.pattern.slice(base.length + 1);
    if (route.pattern.startsWith(`${base}/`) && /^[\w-]+$/.test(path)) return { scope, path };
  }
  return undefined;
}

const isCollection = (value: unknown): value is Collection<unknown, unknown> =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Collection).path === "string" &&
  ((value as Collection).scope === "project" || (value as Collection).scope === "user") &&
  typeof (value as Collection).record?.safeParse === "function";

/** Every API Collection the provider's resources export, whatever their file. */
const PROVIDER_COLLECTIONS = readdirSync(join(ROOT, "provider/src/resources"))
  .filter((file) => file.endsWith(".ts"))
  .flatMap((file) => Object.values(require(join(ROOT, "provider/src/resources", file)) as object))
  .filter(isCollection);

/** The list endpoints of the simulator, each with its collection: `[kind, "GET /v1/…", scope, path]`. */
const SIMULATOR_LISTS = KINDS.flatMap((kind) =>
  COLLECTIONS[kind].routes.flatMap((route) => {
    const list = listRoute(route);
    return list ? [{ kind, endpoint: `GET ${route.pattern}`, ...list }] : [];
  }),
);

let sim: Simulator;
let client: HostingClient;
/** Why the examples could not all be made (a kind whose list the provider cannot read fails its create), if so. */
let unmade: Error | undefined;

beforeAll(async () => {
  sim = await startSimulator({ volumeProvisioningMs: 0, serviceStartMs: 0 });
  client = new HostingClient({ baseUrl: sim.url, token: ALICE.token, maxRetries: 0 });
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  unmade = await makeEveryExample(contextFor(client, PROJECT), schema).then(
    () => undefined,
    (error: Error) => error,
  );
});

afterAll(async () => {
  await closeSharedDispatcher();
  await sim?.close();
});

/** Where an answer holds its records: `undefined` for a bare array, else the key of the array it holds. */
function envelopeOf(answer: unknown): string | undefined | null {
  if (Array.isArray(answer)) return undefined;
  if (typeof answer !== "object" || answer === null) return null;
  const keys = Object.entries(answer).filter(([, value]) => Array.isArray(value));
  return keys.length === 1 ? keys[0][0] : null;
}

const where = (key: string | undefined | null) =>
  key === undefined ? "as a bare array" : key === null ? "nowhere one array" : `under "${key}"`;

/**
 * What keeps the provider's `collection` from reading the simulator's list answer: each problem, or none. The answer
 * is fetched as the API sends it, then read through the provider's client (its transport, its list shape).
 */
async function listProblems(collection: Collection<unknown, unknown>): Promise<string[]> {
  const path = client.of(collection).base(PROJECT);
  const response = await fetch(sim.url + path, { headers: { authorization: `Bearer ${ALICE.token}` } });
  const answer: unknown = await response.json();
  const problems: string[] = [];
  const key = collection.list?.key;
  if (envelopeOf(answer) !== key)
    problems.push(
      `GET ${path}: the simulator answers with its records ${where(envelopeOf(answer))}, the provider reads them ${where(key)}`,
    );
  try {
    const records = await client.of(collection).list(PROJECT);
    if (records.length === 0) problems.push(`GET ${path}: the list is empty, so no record of it was checked`);
  } catch (error) {
    problems.push((error as Error).message);
  }
  return problems;
}

test("every resource's first example is made, so that every list holds a record to check", () => {
  expect(unmade?.message).toBeUndefined();
});

test("the simulator has list endpoints, at most one per collection", () => {
  expect(SIMULATOR_LISTS.length).toBeGreaterThan(0);
  expect(new Set(SIMULATOR_LISTS.map((list) => list.kind)).size).toBe(SIMULATOR_LISTS.length);
});

describe.each(SIMULATOR_LISTS.map((list) => [`${list.kind}: ${list.endpoint}`, list] as const))("%s", (_name, list) => {
  const readers = () => PROVIDER_COLLECTIONS.filter((c) => c.scope === list.scope && c.path === list.path);

  test("the provider has a Collection for it, with a list shape", () => {
    expect(readers().map((c) => ({ path: c.path, hasList: c.list !== undefined }))).toEqual([
      { path: list.path, hasList: true },
    ]);
  });

  test("its answer, with a record of every example in the world, parses with the provider's list shape", async () => {
    const [collection] = readers();
    expect(await listProblems(collection)).toEqual([]);
  });
});

test("every list the provider reads is a list endpoint of the simulator", () => {
  const lists = PROVIDER_COLLECTIONS.filter((c) => c.list).map((c) => `${c.scope} ${c.path}`);
  expect(lists.filter((list) => !SIMULATOR_LISTS.some((s) => `${s.scope} ${s.path}` === list))).toEqual([]);
});

test("a wrong envelope key fails the contract, naming where the records are and where the provider looks", async () => {
  const volumes = PROVIDER_COLLECTIONS.find((c) => c.path === "volumes" && c.list?.key === "volumes")!;
  const wrong = { ...volumes, list: listOf(volumes.list!.item, "cronjobs") };
  const problems = await listProblems(wrong);
  expect(problems[0]).toBe(
    `GET /v1/projects/${PROJECT}/volumes: the simulator answers with its records under "volumes", the provider reads them under "cronjobs"`,
  );
  expect(problems[1]).toContain("cronjobs: expected array, received undefined");
  const bare = await listProblems({ ...volumes, list: listOf(volumes.list!.item) });
  expect(bare[0]).toContain('with its records under "volumes", the provider reads them as a bare array');
});
