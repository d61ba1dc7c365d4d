import type * as grpc from "@grpc/grpc-js";
import { Secrets } from "../../provider/src/redact";
import {
  STATUS_DETAILS_LIMIT_BYTES,
  fittedState,
  grpcStatusOf,
  resourceInitFailed,
} from "../../provider/src/server/errors";
import { encodeStruct } from "../../provider/src/server/codec";

const size = (state: Record<string, unknown>) => encodeStruct(state as any).length;

describe("fittedState: the state a partial failure carries in its trailer", () => {
  test("all of it when it fits", () => {
    const properties = { name: "web", env: { A: "1" } };
    expect(fittedState(properties, { name: "web" }, 32 * 1024)).toEqual({
      properties,
      inputs: { name: "web" },
      leftOut: [],
    });
  });

  test("without its largest properties, from the outputs and the inputs alike, until it fits", () => {
    const env = { BLOB: "x".repeat(40 * 1024) };
    const links = ["y".repeat(10 * 1024)];
    const fitted = fittedState({ name: "web", env, links, status: "failed" }, { name: "web", env, links }, 32 * 1024);
    expect(fitted.leftOut).toEqual(["env"]);
    expect(fitted.properties).toEqual({ name: "web", links, status: "failed" });
    expect(fitted.inputs).toEqual({ name: "web", links });
    expect(size(fitted.properties) + size(fitted.inputs)).toBeLessThanOrEqual(32 * 1024);
  });

  test("several when one is not enough", () => {
    const blob = (c: string) => c.repeat(20 * 1024);
    const fitted = fittedState({ a: blob("a"), b: blob("b"), c: blob("c"), id: "x" }, {}, 32 * 1024);
    expect(fitted.leftOut).toHaveLength(2);
    expect(fitted.properties).toHaveProperty("id", "x");
  });
});

describe("resourceInitFailed: the whole trailer of a partial failure", () => {
  const details = (err: unknown) => {
    const status = grpcStatusOf(err, new Secrets());
    return (status.metadata as grpc.Metadata).get("grpc-status-details-bin")[0] as Buffer;
  };

  test("a message cut to its limit and a large state together stay within the details' limit", () => {
    const message = "é".repeat(20_000); // 40 KB of UTF-8, cut to 8 KiB
    const env = Object.fromEntries([...Array(6).keys()].map((i) => [`BLOB_${i}`, "x".repeat(7 * 1024)]));
    const bytes = details(
      resourceInitFailed(message, "app-1", { name: "web", env, status: "failed" }, undefined, false),
    );
    expect(bytes.length).toBeLessThanOrEqual(STATUS_DETAILS_LIMIT_BYTES);
    expect(bytes.toString("latin1")).toContain("app-1");
  });

  test("a Create's or an Update's partial failure sends no inputs (the engine reads them from a Read's alone)", () => {
    const withInputs = details(
      resourceInitFailed("m", "a", { name: "web" }, { name: "web", note: "x".repeat(500) }, true),
    );
    const without = details(resourceInitFailed("m", "a", { name: "web" }, undefined, true));
    expect(without.length).toBeLessThan(withInputs.length - 500);
  });
});
