import { argsTypeName, itemTypeToken, parseResourceId, resultTypeName, tokenOf } from "../../provider/src/framework/declare";

describe("parseResourceId: an import id, optionally prefixed by its project", () => {
  test.each([
    ["c1", true, { id: "c1" }],
    ["p1/c1", true, { projectId: "p1", id: "c1" }],
    ["p1/v1:c1", true, { projectId: "p1", id: "v1:c1" }],
    ["p1/r1", false, { id: "r1" }], // a resource outside projects ignores the prefix
  ] as const)("%s (project-scoped: %s)", (id, scoped, expected) => expect(parseResourceId(id, scoped)).toEqual(expected));
});

test("tokens and type names derive from the declared names", () => {
  const fn = { name: "getContainerLogs" } as any;
  expect(tokenOf("Container")).toBe("hosting:index:Container");
  expect([argsTypeName(fn), resultTypeName(fn), itemTypeToken(fn)]).toEqual(["GetContainerLogsArgs", "GetContainerLogsResult", "hosting:index:getContainerLogsItem"]);
});
