// Property paths as the engine writes them in ignoreChanges, and what resetting one does
// (sdk/go/common/resource/properties_path.go), as case tables.
import {
  formatPropertyPath,
  parsePropertyPath,
  resetPath,
  type SecretWrapping,
  writablePath,
} from "../../provider/src/framework/paths";

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

  // What the engine's ParsePropertyPath (sdk v3.274.1) answers, run on each: the elements, or an error (undefined).
  test.each([
    ["", []],
    ['env[""]', ["env", ""]],
    ['[""]', [""]],
    ["env[-1]", ["env", -1]],
    ["env[01]", ["env", 1]],
    ["env[ 1]", undefined],
    ["env.*", ["env", "*"]],
    ["env[*]", ["env", "*"]],
    ['env["*"]', ["env", "*"]],
    ["a..b", ["a", "b"]],
    ["a.[0]", ["a", 0]],
    ["env.a\\", ["env", "a\\"]],
    ['env["a\\"]', undefined],
    ['env["x\\\\"y"]', ["env", 'x\\"y']],
  ] as const)("%j as the engine parses it", (path, expected) => expect(parsePropertyPath(path)).toEqual(expected));
});

describe("formatPropertyPath: a detailed diff path, written as the engine's PropertyPath.String writes it", () => {
  // The middle column is what PropertyPath{"env", key}.String() gives (sdk v3.274.1), run on each key;
  // every path written here reads back, with ParsePropertyPath, to the same key.
  test.each([
    ["LOG_LEVEL", "env.LOG_LEVEL", "env.LOG_LEVEL"],
    ["0", "env.0", "env.0"],
    ["__proto__", "env.__proto__", "env.__proto__"],
    ["a.b", 'env["a.b"]', 'env["a.b"]'],
    ["a[0]", 'env["a[0]"]', 'env["a[0]"]'],
    ['say "hi"', 'env["say \\"hi\\""]', 'env["say \\"hi\\""]'],
    ["a-b", 'env["a-b"]', 'env["a-b"]'],
    ["a b", 'env["a b"]', 'env["a b"]'],
    ["$x", 'env["$x"]', 'env["$x"]'],
    ["é", 'env["é"]', 'env["é"]'],
    ["*", 'env["*"]', 'env["*"]'],
    ['x\\"y', 'env["x\\\\"y"]', 'env["x\\\\"y"]'],
    // The engine's String writes these two as paths its own parser refuses; written so that it reads them.
    ["", "env.", 'env[""]'],
    ["a\\", 'env["a\\"]', "env.a\\"],
    ["\\", 'env["\\"]', "env.\\"],
  ])("key %j: the engine writes %s; here %s", (key, _engine, expected) => {
    expect(formatPropertyPath(["env", key])).toBe(expected);
    const back = parsePropertyPath(expected)!;
    expect(back).toEqual(["env", key]);
  });

  test("a key that no path can spell (it ends in \\ and holds a dot) is written as its parent", () => {
    expect(formatPropertyPath(["env", "a.b\\"])).toBeUndefined();
    expect(writablePath(["env", "a.b\\"])).toBe("env");
    expect(writablePath(["items", 2, "a.b\\"])).toBe("items[2]");
  });

  test("list indexes and the first element", () => {
    expect(formatPropertyPath(["links", 0])).toBe("links[0]");
    expect(formatPropertyPath(["my.prop", "x"])).toBe('["my.prop"].x');
  });
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

  // PropertyPath.Reset's answers, where they are not a plain put-back.
  test.each([
    ['the empty path resets nothing (ignoreChanges: [""])', [], { name: "web-2", env: { A: "9" } }],
    ["an index past both lists is left alone", ["items", 5], { items: [{ n: 5 }] }],
    ["an index only one list has cannot be reset", ["items", 1], { items: [{ n: 5 }] }],
    ["a key under a value that is no map on either side", ["name", "x"], { name: "web-2" }],
  ] as const)("%s", (_name, path, news) => {
    expect(resetPath(olds as any, news as any, [...path])).toEqual(news);
  });

  test("keys named like Object.prototype members are keys", () => {
    const old = JSON.parse('{"env": {"__proto__": "a", "constructor": "b"}}');
    const next = JSON.parse('{"env": {"__proto__": "x", "toString": "y"}}');
    const reset = resetPath(old, next, ["env", "__proto__"]);
    expect(Object.entries(reset.env as object)).toEqual([
      ["__proto__", "a"],
      ["toString", "y"],
    ]);
    expect(Object.entries(resetPath(old, next, ["env", "constructor"]).env as object)).toContainEqual([
      "constructor",
      "b",
    ]);
    expect(Object.keys(resetPath(old, next, ["env", "toString"]).env as object)).toEqual(["__proto__"]);
  });

  test("inside a secret, as the engine's Structs hold one: the put-back value is secret", () => {
    const SIG = "sig";
    const secrets: SecretWrapping = {
      isSecret: (v) => typeof v === "object" && v !== null && (v as any)[SIG] === true,
      inner: (v) => (v as any).value,
      wrap: (value) => ({ [SIG]: true, value }),
    };
    const old = { env: { [SIG]: true, value: { A: "1", B: "2" } } };
    const next = { env: { A: "9", B: "9" } };
    expect(resetPath(old as any, next as any, ["env", "A"], secrets)).toEqual({
      env: { A: { [SIG]: true, value: "1" }, B: "9" },
    });
  });
});
