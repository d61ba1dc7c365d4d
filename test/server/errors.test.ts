import { RECORDED_STATE_LIMIT_BYTES, fittedState } from "../../provider/src/server/errors";
import { encodeStruct } from "../../provider/src/server/codec";

const size = (state: Record<string, unknown>) => encodeStruct(state as any).length;

describe("fittedState: the state a partial failure carries in its trailer", () => {
  test("all of it when it fits", () => {
    const properties = { name: "web", env: { A: "1" } };
    expect(fittedState(properties, { name: "web" })).toEqual({ properties, inputs: { name: "web" }, leftOut: [] });
  });

  test("without its largest properties, from the outputs and the inputs alike, until it fits", () => {
    const env = { BLOB: "x".repeat(40 * 1024) };
    const links = ["y".repeat(10 * 1024)];
    const fitted = fittedState({ name: "web", env, links, status: "failed" }, { name: "web", env, links });
    expect(fitted.leftOut).toEqual(["env"]);
    expect(fitted.properties).toEqual({ name: "web", links, status: "failed" });
    expect(fitted.inputs).toEqual({ name: "web", links });
    expect(size(fitted.properties) + size(fitted.inputs)).toBeLessThanOrEqual(RECORDED_STATE_LIMIT_BYTES);
  });

  test("several when one is not enough", () => {
    const blob = (c: string) => c.repeat(20 * 1024);
    const fitted = fittedState({ a: blob("a"), b: blob("b"), c: blob("c"), id: "x" }, {}, 32 * 1024);
    expect(fitted.leftOut).toHaveLength(2);
    expect(fitted.properties).toHaveProperty("id", "x");
  });
});
