import { SECRET_SIG, SPECIAL_SIG_KEY, UNKNOWN_SENTINEL, fromWire, toWire } from "../../provider/src/server/marshal";
import type { Field } from "../../provider/src/framework/spec";
import { Unknown } from "../../provider/src/framework/values";

const secret = (value: unknown) => ({ [SPECIAL_SIG_KEY]: SECRET_SIG, value });
const field = (name: string, extra: Partial<Field> = {}): Field => ({ name, type: { kind: "string" }, required: false, description: "", ...extra });
const fields = [field("password", { secret: true }), field("connection", { secretSubfields: ["instructions"] }), field("env"), field("name")];

describe("marshalling between the engine's Structs (as codec.ts reads them) and plain values", () => {
  test("unknowns become the Unknown marker and back", () => {
    const { values } = fromWire({ name: UNKNOWN_SENTINEL });
    expect(values.name).toBe(Unknown);
    expect(toWire(values, fields)).toEqual({ name: UNKNOWN_SENTINEL });
  });

  test("secret in: unwrapped, and its path remembered; secret out: wrapped at the same depth", () => {
    const { values, secrets } = fromWire({ env: secret({ A: "1" }), connection: { host: "h", instructions: secret("pw") } } as any);
    expect(values).toEqual({ env: { A: "1" }, connection: { host: "h", instructions: "pw" } });
    expect([...secrets].sort()).toEqual(["connection.instructions", "env"]);
    expect(toWire(values, fields, secrets)).toEqual({ env: secret({ A: "1" }), connection: { host: "h", instructions: secret("pw") } });
  });

  test("declared secrets are wrapped even when they arrived plain", () => {
    const out = toWire({ password: "p", connection: { host: "h", instructions: "i" }, name: "n" }, fields);
    expect(out).toEqual({ password: secret("p"), connection: { host: "h", instructions: secret("i") }, name: "n" });
  });

  test("an unknown secret stays a bare unknown", () => {
    expect(toWire({ password: Unknown }, fields)).toEqual({ password: UNKNOWN_SENTINEL });
  });
});
