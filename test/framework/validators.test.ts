import {
  absolutePath,
  atLeast,
  between,
  dnsLabel,
  exactlyOneOf,
  hostname,
  imageReference,
  keys,
  matches,
  uuid,
  variableName,
} from "../../provider/src/framework/validators";

describe("imageReference()", () => {
  const image = imageReference();
  test.each([
    "registry.example.com/team/app:1.4.2",
    "localhost:5000/team/app:v1",
    "ghcr.io/a/b:sha-abc123",
    `r.io/a/b:1@sha256:${"a".repeat(64)}`,
  ])("accepts %s", (value) => expect(image(value, "image")).toBeUndefined());
  test.each([
    ["registry.example.com/team/app", /has no tag/],
    ["registry.example.com/team/app:latest", /mutable tag "latest"/],
    [`registry.example.com/team/app@sha256:${"a".repeat(64)}`, /digest but no tag/],
    ["registry.example.com/Team/App:1", /uppercase/],
    ["registry.example.com/team/app: 1", /whitespace/],
    ["team/app:1", /no registry host/],
    ["", /must not be empty/],
  ])("rejects %s", (value, reason) => expect(image(value, "image")).toMatch(reason));
});

describe("validators are parameterised and start their message with the property's path", () => {
  test.each([
    [dnsLabel(), "web-1", undefined],
    [dnsLabel(), "", /^name must not be empty/],
    [dnsLabel(), "a".repeat(64), /^name is 64 characters long; use at most 63/],
    [dnsLabel(10), "a".repeat(11), /^name is 11 characters long; use at most 10/],
    [dnsLabel(), "Web_1", /^name "Web_1" is not valid/],
    [between(1, 65535), 8080, undefined],
    [between(1, 65535), 0, /^name 0 is out of range; use a value from 1 to 65535$/],
    [between(1, 10, "usually 5"), 11, /from 1 to 10 \(usually 5\)$/],
    [atLeast(1), 1, undefined],
    [atLeast(1), 0, /^name must be greater than zero, not 0$/],
    [atLeast(0), -1, /^name must be zero or more, not -1$/],
    [atLeast(5), 4, /^name must be at least 5, not 4$/],
    [absolutePath(), "/data", undefined],
    [absolutePath(), "data", /^name "data" is relative/],
    [absolutePath(), "", /^name must not be empty/],
    [absolutePath(), "/data/../etc", /"\.\." segments/],
    [absolutePath(), "/", /whole file system/],
    [keys(variableName()), { LOG_LEVEL: "x" }, undefined],
    [keys(variableName()), { "A=B": "x" }, /^name variable name "A=B" is not valid/],
    [keys(variableName()), { "": "x" }, /^name has an empty variable name/],
    [keys(variableName({ maxBytes: 5 })), { ABCDE: "x" }, undefined],
    [
      keys(variableName({ maxBytes: 5 })),
      { ABCDEF: "x" },
      /^name variable name "ABCDEF" is 6 bytes; a name may be at most 5 bytes$/,
    ],
    [
      keys(variableName({ maxBytes: 50, why: "a reason" })),
      { ["K".repeat(60)]: "x" },
      /^name variable name "K{40}…" is 60 bytes; a name may be at most 50 bytes \(a reason\)$/,
    ],
    [keys(variableName({ maxBytes: 5 })), { "A=BCDEFGH": "x" }, /is 9 bytes; a name may be at most 5 bytes$/],
    [hostname(), "ghcr.io", undefined],
    [hostname(), "https://ghcr.io", /no scheme or path/],
    [uuid(), "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00", undefined],
    [uuid(), "web", /^name "web" is not an id/],
    [matches(/^[a-z]+$/, "lowercase letters"), "http", undefined],
    [matches(/^[a-z]+$/, "lowercase letters"), "HTTP", /^name "HTTP" is not valid; use lowercase letters$/],
  ] as const)("%#: %j", (validate, value, expected) => {
    const result = (validate as any)(value, "name");
    if (expected === undefined) expect(result).toBeUndefined();
    else expect(result).toMatch(expected);
  });

  test("the path is whatever the caller names, never a field name built in", () => {
    expect(atLeast(1)(0, "replicas")).toBe("replicas must be greater than zero, not 0");
    expect(atLeast(1)(0, "services[2].replicas")).toBe("services[2].replicas must be greater than zero, not 0");
  });
});

describe("exactlyOneOf (an object rule)", () => {
  const rule = exactlyOneOf("id", "name");
  test.each([
    [{ id: "a" }, undefined],
    [{ name: "b" }, undefined],
    [{}, { property: "id", reason: "set exactly one of id or name: neither was given" }],
    [
      { id: "a", name: "b" },
      { property: "name", reason: "set exactly one of id or name: id and name were both given" },
    ],
  ])("%j", (values, expected) => expect(rule(values)).toEqual(expected));
});
