import { ResponseValidationError } from "../../provider/src/api/errors";
// The wire format (api/wire.ts) with the records the resources declare: how they are read
// (snake_case in, camelCase out, tolerant of what may be missing) and how bodies are written.
import { formatIssuePath, listOf, parseList, parseWire, toWire } from "../../provider/src/api/wire";
import { ServiceRecord as ServiceRecordSchema } from "../../provider/src/resources/services";
import { VolumeListRecord, VolumeRecord as VolumeRecordSchema } from "../../provider/src/resources/volume";

const ServiceRecordListSchema = listOf(ServiceRecordSchema);
const VolumeRecordListSchema = listOf(VolumeListRecord, "volumes");

const ctx = { method: "GET", path: "/v1/projects/p/containers", status: 200, requestId: "r1" };

const service = {
  id: "s1",
  project_id: "p",
  name: "web",
  display_name: "web",
  type: "container",
  runtime: "docker",
  image: "r.example/a/b:1",
  port: 8080,
  replicas: 1,
  status: "running",
  internal_host: "web.p.svc.cluster.local:8080",
  public_url: "https://web.apps.example",
  public: true,
  cpu_milli: 250,
  memory_mb: 256,
  storage_gb: 1,
  env: { A: "1" },
  connection: null,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  marketplace_app: null,
};

describe("wire schemas", () => {
  test("a full service record parses; null optionals become undefined", () => {
    const s = parseWire(ServiceRecordSchema, service, ctx);
    expect(s.connection).toBeUndefined();
    expect(s.marketplaceApp).toBeUndefined();
    expect(s.env).toEqual({ A: "1" });
  });

  test("missing optional fields are tolerated; env defaults to {}", () => {
    const { marketplace_app: _m, connection: _c, env: _e, public_url: _p, ...rest } = service;
    const s = parseWire(ServiceRecordSchema, rest, ctx);
    expect(s.env).toEqual({});
    expect(s.publicUrl).toBeUndefined();
  });

  test("an env keeps keys named like Object.prototype members, __proto__ included, as the answer holds them", () => {
    const answer = JSON.parse(
      JSON.stringify({ ...service, env: { KEY: "a", constructor: "b", toString: "c" } }).replace(
        '"KEY"',
        '"__proto__"',
      ),
    );
    const { env } = parseWire(ServiceRecordSchema, answer, ctx);
    expect(Object.entries(env)).toEqual([
      ["__proto__", "a"],
      ["constructor", "b"],
      ["toString", "c"],
    ]);
    expect(Object.getPrototypeOf(env)).toBeNull();
    expect(JSON.stringify(toWire({ env }))).toBe('{"env":{"__proto__":"a","constructor":"b","toString":"c"}}');
  });

  test("an env value of another type is named at its key", () => {
    expect(() => parseWire(ServiceRecordSchema, { ...service, env: { A: 1 } }, ctx)).toThrow(
      "env.A: expected string, received number",
    );
    expect(() => parseWire(ServiceRecordSchema, { ...service, env: "A=1" }, ctx)).toThrow("env: expected record");
  });

  test("unknown extra fields are dropped", () => {
    const s = parseWire(ServiceRecordSchema, { ...service, surprise: 1 }, ctx) as Record<string, unknown>;
    expect("surprise" in s).toBe(false);
  });

  test("connection port and requires_auth accept numbers/booleans as text", () => {
    const s = parseWire(
      ServiceRecordSchema,
      {
        ...service,
        connection: { host: "db:5432", port: 5432, env_var: "DATABASE_URL", instructions: "x", requires_auth: true },
      },
      ctx,
    );
    expect(s.connection).toEqual({
      host: "db:5432",
      port: "5432",
      envVar: "DATABASE_URL",
      instructions: "x",
      requiresAuth: "true",
    });
  });

  test("a wrong type names the field path and the request", () => {
    const list = [service, { ...service, id: "s2" }, { ...service, id: "s3" }, { ...service, id: "s4", replicas: "3" }];
    try {
      parseList(ServiceRecordListSchema, list, ctx).all();
      throw new Error("should have failed");
    } catch (e) {
      expect(e).toBeInstanceOf(ResponseValidationError);
      const v = e as ResponseValidationError;
      expect(v.problems).toEqual(["[3].replicas: expected number, received string"]);
      expect(v.message).toBe(
        "GET /v1/projects/p/containers: [3].replicas: expected number, received string (unexpected response shape, HTTP 200, request r1)",
      );
    }
  });

  test("a list's records are checked when read: a bad one fails the reads of it, and of the whole list", () => {
    const answer = parseList(ServiceRecordListSchema, [service, { ...service, id: "s4", replicas: "3" }], ctx);
    expect(answer.withId("s1")?.name).toBe("web");
    expect(answer.withId("gone")).toBeUndefined();
    expect(() => answer.withId("s4")).toThrow("[1].replicas: expected number, received string");
    expect(() => answer.all()).toThrow(ResponseValidationError);
  });

  test("a record whose id is unreadable is not taken as gone: a read that misses reports it", () => {
    const answer = parseList(ServiceRecordListSchema, [service, { ...service, id: 7 }], ctx);
    expect(answer.withId("s1")?.name).toBe("web");
    expect(() => answer.withId("7")).toThrow("[1].id: expected string, received number");
  });

  test("two records with one id: the reads of that id and of the whole list fail naming it; neither is picked", () => {
    const list = [service, { ...service, id: "s2", name: "api" }, { ...service, status: "failed" }];
    const answer = parseList(ServiceRecordListSchema, list, ctx);
    expect(answer.withId("s2")?.name).toBe("api");
    const twice =
      "GET /v1/projects/p/containers: [2].id: \"s1\" is also the id of [0]: the answer holds 2 records with one id, so none of them is read (the API's list is inconsistent; try again, and ask the platform's support if it stays) (unexpected response shape, HTTP 200, request r1)";
    expect(() => answer.withId("s1")).toThrow(twice);
    expect(() => answer.all()).toThrow(twice);
    const keyed = parseList(
      VolumeRecordListSchema,
      { volumes: [{ id: "v" }, { id: "w" }, { id: "v" }, { id: "v" }] },
      ctx,
    );
    expect(() => keyed.withId("v")).toThrow(
      'volumes[2], volumes[3].id: "v" is also the id of volumes[0]: the answer holds 3 records',
    );
  });

  test("reading a list is linear in its size, however many of its records share an id", () => {
    // The ids were indexed by copying an array at every repeat: a 20 MB list with one id in every record got no answer
    // in 240 s. Linear work takes about 4 times as long for 4 times the records; that copying took 16 times as long.
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `id-${i % 50}` }));
    const [small, large] = [records(25_000), records(100_000)];
    const indexing = (list: unknown[]) => {
      const started = process.hrtime.bigint();
      expect(parseList(ServiceRecordListSchema, list, ctx).withId("absent")).toBeUndefined();
      return Number(process.hrtime.bigint() - started);
    };
    // The fastest of several runs: a loaded machine only makes a run slower.
    let [fastestSmall, fastestLarge] = [Infinity, Infinity];
    for (let run = 0; run < 15; run++) {
      fastestSmall = Math.min(fastestSmall, indexing(small));
      fastestLarge = Math.min(fastestLarge, indexing(large));
    }
    expect(fastestLarge / fastestSmall).toBeLessThan(10);
  });

  test("an id shared by thousands of records names the first few of them, and how many more", () => {
    const answer = parseList(
      ServiceRecordListSchema,
      Array.from({ length: 40_000 }, () => service),
      ctx,
    );
    expect(() => answer.withId("s1")).toThrow(
      '[1], [2], [3], [4], [5] and 39,994 more.id: "s1" is also the id of [0]: the answer holds 40,000 records with one id',
    );
  });

  test("every bad record of a list is named, not only the first", () => {
    const answer = parseList(
      ServiceRecordListSchema,
      [
        { ...service, replicas: "3" },
        { ...service, id: "s2" },
        { ...service, id: null },
      ],
      ctx,
    );
    expect(() => answer.all()).toThrow(
      expect.objectContaining({
        problems: ["[0].replicas: expected number, received string", "[2].id: expected string, received null"],
      }),
    );
  });

  test("a list answer must hold an array, where its shape says", () => {
    expect(() => parseList(ServiceRecordListSchema, { services: [] }, ctx)).toThrow(
      "(root): expected array, received object",
    );
    expect(() => parseList(VolumeRecordListSchema, [], ctx)).toThrow(
      '(root): expected an object holding "volumes", received array',
    );
    expect(() => parseList(VolumeRecordListSchema, null, ctx)).toThrow(
      '(root): expected an object holding "volumes", received null',
    );
    expect(() => parseList(VolumeRecordListSchema, {}, ctx)).toThrow("volumes: expected array, received undefined");
    expect(() => parseList(VolumeRecordListSchema, { volumes: null }, ctx)).toThrow(
      "volumes: expected array, received null",
    );
    expect(() => parseList(VolumeRecordListSchema, { volumes: [{ id: 1 }] }, ctx).all()).toThrow(
      /volumes\[0\]\.id: expected string/,
    );
  });

  test("what readers of a shared answer get is frozen: no reader can change another's", () => {
    const answer = parseList(ServiceRecordListSchema, [{ ...service, env: { A: "1" } }], ctx);
    expect(answer.withId("s1")).toBe(answer.all()[0]);
    expect(
      Object.isFrozen(answer.all()) && Object.isFrozen(answer.all()[0]) && Object.isFrozen(answer.all()[0].env),
    ).toBe(true);
  });

  test("a missing required field is reported", () => {
    const { id: _id, ...rest } = service;
    expect(() => parseWire(ServiceRecordSchema, rest, ctx)).toThrow("id: expected string, received undefined");
  });

  test("volume list items carry attached; a single volume carries attachment or null", () => {
    const v = { id: "v", project_id: "p", name: "d", size_gb: 1, status: "running" };
    expect(parseList(VolumeRecordListSchema, { volumes: [{ ...v, attached: true }] }, ctx).all()[0].attached).toBe(
      true,
    );
    expect(parseWire(VolumeRecordSchema, { ...v, attachment: null }, ctx).attachment).toBeNull();
    expect(parseWire(VolumeRecordSchema, v, ctx).attachment).toBeNull();
    expect(
      parseWire(VolumeRecordSchema, { ...v, attachment: { container_id: "c", mount_path: "/d", read_only: true } }, ctx)
        .attachment,
    ).toEqual({ containerId: "c", mountPath: "/d", readOnly: true });
  });

  test("records come out camelCase, and only their own keys are renamed: a map keeps its keys", () => {
    const s = parseWire(ServiceRecordSchema, { ...service, env: { LOG_LEVEL: "x", my_var: "y" } }, ctx);
    expect(s).toMatchObject({
      projectId: "p",
      displayName: "web",
      cpuMilli: 250,
      internalHost: "web.p.svc.cluster.local:8080",
    });
    expect(s.env).toEqual({ LOG_LEVEL: "x", my_var: "y" });
    expect(Object.keys(s).filter((k) => k.includes("_"))).toEqual([]);
  });

  test("request bodies leave snake_case, undefined entries left out, map keys untouched", () => {
    expect(toWire({ httpPort: 8080, displayName: undefined, env: { LOG_LEVEL: "x" }, cpuMilli: 1 })).toEqual({
      http_port: 8080,
      env: { LOG_LEVEL: "x" },
      cpu_milli: 1,
    });
  });

  test.each<[PropertyKey[], string]>([
    [[], "(root)"],
    [[3, "replicas"], "[3].replicas"],
    [["env", "A"], "env.A"],
    [["env", "odd-key"], 'env["odd-key"]'],
    [["volumes", 0, "attachment", "mount_path"], "volumes[0].attachment.mount_path"],
  ])("formatIssuePath %j -> %s", (path, expected) => {
    expect(formatIssuePath(path)).toBe(expected);
  });
});
