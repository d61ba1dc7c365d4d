import { absolutePath, environment, hostname, imageReference, port, resourceName } from "../../provider/src/framework/validators";

describe("imageReference", () => {
  test.each(["registry.example.com/team/app:1.4.2", "localhost:5000/team/app:v1", "ghcr.io/a/b:sha-abc123", "r.io/a/b:1@sha256:" + "a".repeat(64)])(
    "accepts %s",
    (image) => expect(imageReference(image)).toBeUndefined(),
  );
  test.each([
    ["registry.example.com/team/app", /has no tag/],
    ["registry.example.com/team/app:latest", /mutable tag "latest"/],
    ["registry.example.com/team/app@sha256:" + "a".repeat(64), /digest but no tag/],
    ["registry.example.com/Team/App:1", /uppercase/],
    ["registry.example.com/team/app: 1", /whitespace/],
    ["team/app:1", /no registry host/],
    ["", /must not be empty/],
  ])("rejects %s", (image, reason) => expect(imageReference(image)).toMatch(reason));
});

describe("other formats", () => {
  test.each([
    [resourceName, "web-1", undefined],
    [resourceName, "", /must not be empty/],
    [resourceName, "a".repeat(64), /at most 63/],
    [resourceName, "Web_1", /not valid/],
    [port, 8080, undefined],
    [port, 0, /out of range/],
    [port, 65536, /out of range/],
    [absolutePath, "/data", undefined],
    [absolutePath, "data", /relative/],
    [absolutePath, "", /must not be empty/],
    [absolutePath, "/data/../etc", /"\.\." segments/],
    [absolutePath, "/", /whole file system/],
    [environment, { LOG_LEVEL: "x" }, undefined],
    [environment, { "A=B": "x" }, /not valid/],
    [environment, { "": "x" }, /empty variable name/],
    [hostname, "ghcr.io", undefined],
    [hostname, "https://ghcr.io", /no scheme or path/],
  ] as const)("%p(%j)", (validate, value, expected) => {
    const result = (validate as any)(value);
    if (expected === undefined) expect(result).toBeUndefined();
    else expect(result).toMatch(expected);
  });
});
