import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { SECRET_SIG, SPECIAL_SIG_KEY, UNKNOWN_SENTINEL, fromStruct, toStruct } from "../../provider/src/server/marshal";
import type { Field } from "../../provider/src/framework/spec";
import { Unknown } from "../../provider/src/framework/values";

const secret = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });
const field = (name: string, extra: Partial<Field> = {}): Field => ({ name, type: { kind: "string" }, required: false, description: "", ...extra });
const fields = [field("password", { secret: true }), field("connection", { secretSubfields: ["instructions"] }), field("env"), field("name")];

describe("marshalling between the engine's Structs and plain values", () => {
  test("unknowns become the Unknown marker and back", () => {
    const { values } = fromStruct(Struct.fromJavaScript({ name: UNKNOWN_SENTINEL }));
    expect(values.name).toBe(Unknown);
    expect(toStruct(values, fields).toJavaScript()).toEqual({ name: UNKNOWN_SENTINEL });
  });

  test("secret in: unwrapped, and its path remembered; secret out: wrapped at the same depth", () => {
    const { values, secrets } = fromStruct(Struct.fromJavaScript({ env: secret({ A: "1" }), connection: { host: "h", instructions: secret("pw") } } as any));
    expect(values).toEqual({ env: { A: "1" }, connection: { host: "h", instructions: "pw" } });
    expect([...secrets].sort()).toEqual(["connection.instructions", "env"]);
    expect(toStruct(values, fields, secrets).toJavaScript()).toEqual({ env: secret({ A: "1" }), connection: { host: "h", instructions: secret("pw") } });
  });

  test("declared secrets are wrapped even when they arrived plain", () => {
    const out = toStruct({ password: "p", connection: { host: "h", instructions: "i" }, name: "n" }, fields).toJavaScript();
    expect(out).toEqual({ password: secret("p"), connection: { host: "h", instructions: secret("i") }, name: "n" });
  });

  test("an unknown secret stays a bare unknown", () => {
    expect(toStruct({ password: Unknown }, fields).toJavaScript()).toEqual({ password: UNKNOWN_SENTINEL });
  });
});
