// Previews from the flags alone, as case tables.
import { previewCreate, previewUpdate } from "../../provider/src/framework/preview";
import { Unknown } from "../../provider/src/framework/values";
import { spec } from "./cases";

test("a create's preview: the inputs, and every output unknown", () => {
  expect(previewCreate(spec, { name: "web", port: 8080 })).toEqual({
    name: "web",
    port: 8080,
    status: Unknown,
    host: Unknown,
    createdAt: Unknown,
  });
});

describe("an update's preview keeps the old outputs but those the update may move", () => {
  const olds = { name: "web", port: 8080, status: "running", host: "web:8080", createdAt: "t0", env: { A: "1" } };
  test.each([
    [
      "movesOnUpdate: true moves on any update; a listed output stays when its input stays",
      { name: "web", port: 8080, env: { A: "1" } },
      { status: Unknown, host: "web:8080", createdAt: "t0" },
    ],
    [
      "a listed output moves when its input changes",
      { name: "web", port: 9090, env: { A: "1" } },
      { status: Unknown, host: Unknown, port: 9090 },
    ],
    [
      "a listed output moves when its input is unknown",
      { name: "web", port: Unknown, env: { A: "1" } },
      { host: Unknown },
    ],
    ["a removed map that removal clears previews as empty", { name: "web", port: 8080 }, { env: {} }],
  ])("%s", (_name, news, expected) => {
    expect(previewUpdate(spec, olds as any, news as any, { name: "web", port: 8080, env: { A: "1" } })).toMatchObject(
      expected,
    );
  });
});
