// Property paths as the engine writes them in ignoreChanges, and what resetting one does
// (sdk/go/common/resource/properties_path.go), as case tables.
import { parsePropertyPath, resetPath } from "../../provider/src/framework/paths";

describe("parsePropertyPath", () => {
  test.each([
    ["env", ["env"]],
    ["env.LOG_LEVEL", ["env", "LOG_LEVEL"]],
    ['env["my.key"]', ["env", "my.key"]],
    ['env["say \\"hi\\""]', ["env", 'say "hi"']],
    ["items[0].name", ["items", 0, "name"]],
    ["items[*]", ["items", "*"]],
    ["foo-bar", ["foo-bar"]],
    ['["root key"].nested', ["root key", "nested"]],
  ] as const)("%s", (path, expected) => expect(parsePropertyPath(path)).toEqual(expected));

  test.each([".env", "env.", "env[", 'env["open', "items[x]"])("%s is no path", (path) =>
    expect(parsePropertyPath(path)).toBeUndefined(),
  );
});

describe("resetPath: the value at the path back to the old one", () => {
  const olds = { env: { A: "1", B: "2" }, name: "web", items: [{ n: 1 }, { n: 2 }] };
  test.each([
    ["a top-level value", ["name"], { name: "web-2" }, { name: "web" }],
    ["a value the old side lacks is removed", ["port"], { port: 80 }, {}],
    ["one map key", ["env", "A"], { env: { A: "9", B: "9" } }, { env: { A: "1", B: "9" } }],
    ["one map key the old side lacks", ["env", "C"], { env: { C: "3" } }, { env: {} }],
    ["every map key", ["env", "*"], { env: { A: "9", C: "3" } }, { env: { A: "1", B: "2" } }],
    ["one list item's field", ["items", 1, "n"], { items: [{ n: 5 }, { n: 6 }] }, { items: [{ n: 5 }, { n: 2 }] }],
    ["every list item", ["items", "*"], { items: [{ n: 5 }, { n: 6 }] }, { items: [{ n: 1 }, { n: 2 }] }],
  ] as const)("%s", (_name, path, news, expected) => {
    const before = JSON.stringify(news);
    expect(resetPath(olds as any, news as any, [...path])).toEqual(expected);
    expect(JSON.stringify(news)).toBe(before);
  });
});
