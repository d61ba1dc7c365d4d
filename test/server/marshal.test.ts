import {
  RESOURCE_REFERENCE_SIG,
  SECRET_SIG,
  SPECIAL_SIG_KEY,
  UNKNOWN_SENTINEL,
  fromStruct,
  secretStrings,
  toStruct,
} from "../../provider/src/server/marshal";
import type { Field } from "../../provider/src/framework/spec";
import { Unknown } from "../../provider/src/framework/values";

const secret = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });
const field = (name: string, extra: Partial<Field> = {}): Field => ({
  name,
  type: { kind: "string" },
  required: false,
  description: "",
  ...extra,
});
const fields = [
  field("password", { secret: true }),
  field("connection", { secretSubfields: ["instructions"] }),
  field("env"),
  field("name"),
];

describe("marshalling between the engine's Structs (as codec.ts reads them) and plain values", () => {
  test("unknowns become the Unknown marker and back", () => {
    const { values } = fromStruct({ name: UNKNOWN_SENTINEL });
    expect(values.name).toBe(Unknown);
    expect(toStruct(values, fields)).toEqual({ name: UNKNOWN_SENTINEL });
  });

  test("secret in: unwrapped, and its path remembered; secret out: wrapped at the same depth", () => {
    const { values, secrets } = fromStruct({
      env: secret({ A: "1" }),
      connection: { host: "h", instructions: secret("pw") },
    } as any);
    expect(values).toEqual({ env: { A: "1" }, connection: { host: "h", instructions: "pw" } });
    expect([...secrets].sort()).toEqual(["connection.instructions", "env"]);
    expect(toStruct(values, fields, secrets)).toEqual({
      env: secret({ A: "1" }),
      connection: { host: "h", instructions: secret("pw") },
    });
  });

  test("declared secrets are wrapped even when they arrived plain", () => {
    const out = toStruct({ password: "p", connection: { host: "h", instructions: "i" }, name: "n" }, fields);
    expect(out).toEqual({ password: secret("p"), connection: { host: "h", instructions: secret("i") }, name: "n" });
  });

  test("an unknown secret stays a bare unknown", () => {
    expect(toStruct({ password: Unknown }, fields)).toEqual({ password: UNKNOWN_SENTINEL });
  });

  test("unknowns deep inside a value that is not secret are marked too", () => {
    expect(toStruct({ env: { A: Unknown, B: "b" }, name: ["x", Unknown] as any }, fields)).toEqual({
      env: { A: UNKNOWN_SENTINEL, B: "b" },
      name: ["x", UNKNOWN_SENTINEL],
    });
  });

  test("a secret that arrived deep in a list is wrapped there, and only there", () => {
    const { values, secrets } = fromStruct({ env: { list: [{ a: "1" }, { a: secret("2") }] } } as any);
    expect(toStruct(values, fields, secrets)).toEqual({ env: { list: [{ a: "1" }, { a: secret("2") }] } });
  });

  test(
    "a value with no secret and no unknown inside is handed on as it is, " + "not copied (a list answer of thousands)",
    () => {
      const services = [{ name: "a", env: { A: "1" } }];
      const more = { deep: [1] };
      const out = toStruct({ env: services as any, connection: { host: "h", instructions: "i", more } }, fields);
      expect(out.env).toBe(services);
      expect((out.connection as Record<string, unknown>).more).toBe(more);
      expect(out.connection).toEqual({ host: "h", instructions: secret("i"), more: { deep: [1] } });
    },
  );
});

describe("a resource reference (where a program passed a resource) stands for its id, as the engine sends it to a provider that takes none", () => {
  const URN = "urn:pulumi:dev::shop::hosting:index:Postgres::db";
  const reference = (rest: Record<string, unknown>) => ({
    [SPECIAL_SIG_KEY]: RESOURCE_REFERENCE_SIG,
    urn: URN,
    ...rest,
  });
  const ID = "0b5e5c7e-6c1a-4d2f-9a51-4c3e2f1a0b9c";

  test.each([
    ["a custom resource's id", reference({ id: ID, packageVersion: "1.0.0" }), ID],
    [
      "with the name and type a newer engine adds",
      reference({ id: ID, name: "db", type: "hosting:index:Postgres" }),
      ID,
    ],
    ["an id not known yet (the engine sends it empty) is unknown", reference({ id: "" }), Unknown],
    ["an id sent as unknown is unknown", reference({ id: UNKNOWN_SENTINEL }), Unknown],
    ["a component's, which has no id, is its URN (Check refuses it where an id is expected)", reference({}), URN],
  ])("%s", (_name, sent, expected) => {
    expect(fromStruct({ consumerServiceId: sent } as any).values.consumerServiceId).toBe(expected);
  });

  test("wherever it stands: in a list, in a map, under a secret; and what goes back out holds no reference", () => {
    const db = reference({ id: ID });
    const { values, secrets } = fromStruct({
      links: [db, "a0000000-0000-4000-8000-000000000001", reference({ id: "" })],
      env: { DB_ID: db },
      hidden: secret(db),
    } as any);
    expect(values).toEqual({
      links: [ID, "a0000000-0000-4000-8000-000000000001", Unknown],
      env: { DB_ID: ID },
      hidden: ID,
    });
    expect([...secrets]).toEqual(["hidden"]);
    const out = JSON.stringify(toStruct(values, [field("links"), field("env"), field("hidden")], secrets));
    expect(out).not.toContain(RESOURCE_REFERENCE_SIG);
    expect(out).not.toContain(URN);
  });
});

test("every string that arrived secret is learned, a secret under a key with a dot and a secret map's keys included", () => {
  const wrapped = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });
  const unmarshalled = fromStruct({
    env: { "db.url": wrapped("postgres://u:p4ssw0rd@db") as any, PLAIN: "x" },
    token: wrapped("tok-123456") as any,
    nested: wrapped({ list: ["a-secret-item"] }) as any,
  });
  expect(new Set(secretStrings(unmarshalled))).toEqual(
    new Set(["postgres://u:p4ssw0rd@db", "tok-123456", "list", "a-secret-item"]),
  );
  expect(unmarshalled.secrets).toEqual(new Set(["env.db.url", "token", "nested"]));
});

test("the keys of a property the resource declares secret are not learned: the provider made it secret, not the program", () => {
  const wrapped = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });
  const unmarshalled = fromStruct({
    injectedEnv: wrapped({ DATABASE_URL: "postgres://u:p4ssw0rd@db" }) as any,
    env: wrapped({ BILLING_LEDGER_KEY: "v" }) as any,
  });
  const fields = [{ name: "injectedEnv", secret: true }, { name: "env" }] as Field[];
  expect(new Set(secretStrings(unmarshalled, fields))).toEqual(
    new Set(["postgres://u:p4ssw0rd@db", "v", "BILLING_LEDGER_KEY"]),
  );
});
