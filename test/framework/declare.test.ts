import {
  argsTypeName,
  itemTypeToken,
  parseResourceId,
  resultTypeName,
  tokenOf,
} from "../../provider/src/framework/declare";

describe("parseResourceId: an import id, optionally prefixed by its project", () => {
  test.each([
    ["c1", "project", { id: "c1" }],
    ["p1/c1", "project", { projectId: "p1", id: "c1" }],
    ["p1/v1:c1", "project", { projectId: "p1", id: "v1:c1" }],
    ["p1/r1", "user", { id: "r1" }], // a resource outside projects ignores the prefix
  ] as const)("%s (%s)", (id, scope, expected) => expect(parseResourceId(id, scope)).toEqual(expected));
});

test("tokens and type names derive from the declared names", () => {
  const fn = { name: "getContainerLogs" } as any;
  const pkg = { name: "hosting" };
  expect(tokenOf(pkg, "Container")).toBe("hosting:index:Container");
  expect([argsTypeName(fn), resultTypeName(fn), itemTypeToken(pkg, fn)]).toEqual([
    "GetContainerLogsArgs",
    "GetContainerLogsResult",
    "hosting:index:getContainerLogsItem",
  ]);
});
