import {
  InputError,
  argsTypeName,
  itemTypeToken,
  parseResourceId,
  resourceAddress,
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

describe("resourceAddress: an id the engine sends is an id, never a path", () => {
  test.each([
    ["c1", "project", { id: "c1" }],
    ["p1/c1", "project", { projectId: "p1", id: "c1" }],
    ["p1/v1:c1", "project", { projectId: "p1", id: "v1:c1" }],
    ["p1/r1", "user", { id: "r1" }],
  ] as const)("%s (%s) is where it says", (id, scope, expected) =>
    expect(resourceAddress(id, scope)).toEqual(expected),
  );

  test.each([
    ["p1/..", "project", '".." is not a valid id: it would name another path'],
    ["p1/.", "project", '"." is not a valid id: it would name another path'],
    ["p1/a/b", "project", '"a/b" is not a valid id: it holds a character that is not part of an id'],
    ["p1/x?y=1", "project", '"x?y=1" is not a valid id: it holds a character'],
    ["../containers", "user", '".." is not a valid project id'],
    ["%2e%2e", "project", '"%2e%2e" is not a valid id'],
    ["p1/../x:y", "project", '"../x" is not a valid id'],
    ["p1/v1:", "project", '"" is not a valid id: it is empty'],
    ["../r1", "user", '".." is not a valid project id: it would name another path'],
  ] as const)("%s (%s) is refused as bad input, naming the part", (id, scope, message) => {
    expect(() => resourceAddress(id, scope)).toThrow(InputError);
    expect(() => resourceAddress(id, scope)).toThrow(message);
  });
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
