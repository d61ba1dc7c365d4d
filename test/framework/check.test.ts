import { checkInputs, refusedChange } from "../../provider/src/framework/check";
import type { ObjectSpec } from "../../provider/src/framework/spec";
import { Unknown } from "../../provider/src/framework/values";
import { field, spec } from "./cases";

const config = { projectId: "p-default" };
const base = { name: "web", projectId: "p1" };

describe("checkInputs: named cases per flag", () => {
  test.each([
    ["default filled", { ...base }, undefined, { port: 8080 }],
    ["default kept when set", { ...base, port: 9000 }, undefined, { port: 9000 }],
    ["config default filled", { name: "web" }, undefined, { projectId: "p-default" }],
    ["unknown passes through unvalidated", { ...base, size: Unknown }, undefined, { size: Unknown }],
    ["a smaller size: Check does not judge changes", { ...base, size: 5 }, { size: 10 }, { size: 5 }],
    ["secret value accepted", { ...base, password: "p" }, undefined, { password: "p" }],
  ])("%s", (_name, news, _olds, expected) => {
    const { inputs, failures } = checkInputs(spec, news as any, { packageName: "hosting", config });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject(expected as any);
  });

  test.each([
    ["missing required", { projectId: "p1" }, undefined, "name", /name is required/],
    ["wrong type", { ...base, port: "80" }, undefined, "port", /port must be an integer, not a string \("80"\)/],
    ["fractional integer", { ...base, port: 80.5 }, undefined, "port", /port must be a whole number, not 80.5/],
    ["validator", { ...base, size: 0 }, undefined, "size", /^size must be greater than zero, not 0$/],
    ["map of strings", { ...base, env: { A: 1 } }, undefined, "env", /env.A must be a string/],
    [
      "unknown property",
      { ...base, colour: "blue" },
      undefined,
      "colour",
      /not a property of hosting:index:Sample; valid properties are name, image/,
    ],
    [
      "a __proto__ key, as any other unknown key (JSON.parse makes it an own property)",
      { ...base, ...JSON.parse('{"__proto__": "x"}') },
      undefined,
      "__proto__",
      /^__proto__ is not a property of hosting:index:Sample/,
    ],
    ["another __ key", { ...base, __defaults: [] }, undefined, "__defaults", /^__defaults is not a property of/],
    ["output set by the user", { ...base, status: "running" }, undefined, "status", /output computed by the service/],
    [
      "secret wrong type never echoes the value",
      { ...base, password: 12345 },
      undefined,
      "password",
      /^password must be a string, not a number$/,
    ],
  ])("%s fails naming the property", (_name, news, _olds, property, reason) => {
    const { failures } = checkInputs(spec, news as any, { packageName: "hosting", config });
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  test("an environment variable stands in for a configuration key: checked, but not stored", () => {
    const configSpec = {
      token: "pulumi:providers:hosting",
      fields: [
        {
          name: "token",
          type: { kind: "string" as const },
          required: true,
          description: "",
          env: ["TOKEN"],
          secret: true,
        },
      ],
    };
    expect(checkInputs(configSpec, {}, { packageName: "hosting", env: { TOKEN: "t" } })).toEqual({
      inputs: {},
      failures: [],
      autonamed: [],
    });
    const missing = checkInputs(configSpec, {}, { packageName: "hosting", env: {} });
    expect(missing.failures).toEqual([
      {
        property: "token",
        reason: expect.stringMatching(
          new RegExp(
            /missing required configuration key "hosting:token"/.source +
              /.*pulumi config set hosting:token --secret <value>.*or set TOKEN/.source,
          ),
        ),
      },
    ]);
  });

  test("object rules run once every property passes, and name the property", () => {
    const ruled = {
      ...spec,
      rules: [(values: any) => (values.image && values.env ? { property: "env", reason: "not both" } : undefined)],
    };
    expect(
      checkInputs(ruled, { ...base, image: "i", env: {} } as any, { packageName: "hosting", config }).failures,
    ).toEqual([{ property: "env", reason: "not both" }]);
    expect(checkInputs(ruled, { ...base, image: "i" } as any, { packageName: "hosting", config }).failures).toEqual([]);
  });

  test("a missing project with no provider default says how to set one", () => {
    const { failures } = checkInputs(spec, { name: "web" }, { packageName: "hosting" });
    expect(failures).toEqual([
      { property: "projectId", reason: expect.stringMatching(/pulumi config set hosting:projectId/) },
    ]);
  });

  test("a value that arrived secret is never repeated in a failure", () => {
    const secrets = new Set(["env.API_KEY", "image"]);
    const typed = checkInputs(spec, { ...base, env: { API_KEY: 12345 } } as any, {
      packageName: "hosting",
      config,
      secretPaths: secrets,
    });
    expect(typed.failures).toEqual([{ property: "env", reason: "env.API_KEY must be a string, not a number" }]);
    const validated = checkInputs(
      {
        ...spec,
        fields: spec.fields.map((f) =>
          f.name === "image" ? { ...f, validate: (v, path) => `${path} "${String(v)}" has no tag` } : f,
        ),
      },
      { ...base, image: "secret-registry.example.com/x" } as any,
      { packageName: "hosting", config, secretPaths: secrets },
    );
    expect(validated.failures).toEqual([{ property: "image", reason: 'image "[secret]" has no tag' }]);
  });

  test("a key of a map that arrived secret is never repeated either (a validator quotes the key it refuses)", () => {
    const keyed = checkInputs(
      {
        ...spec,
        fields: spec.fields.map((f) =>
          f.name === "env"
            ? { ...f, validate: (v, path) => `${path} key "${Object.keys(v as object)[0]}" is too long` }
            : f,
        ),
      },
      { ...base, env: { "internal-billing-db-password": "x" } } as any,
      { packageName: "hosting", config, secretPaths: new Set(["env"]) },
    );
    expect(keyed.failures).toEqual([{ property: "env", reason: 'env key "[secret]" is too long' }]);
  });
});

describe("refusedChange: what an update cannot do, judged against the live outputs", () => {
  test.each([
    ["grow-only: same", { size: 10 }, { size: 10 }],
    ["grow-only: grow", { size: 10 }, { size: 20 }],
    ["grow-only: the service had no value yet", {}, { size: 5 }],
    ["fixed: unchanged", { cpu: 250 }, { cpu: 250 }],
    ["fixed: set for the first time where the service has none", {}, { cpu: 250 }],
    ["an unknown (a preview) is judged when it is known", { size: 10 }, { size: Unknown }],
    ["append-only: an item added", { links: ["a"] }, { links: ["a", "b"] }],
    ["append-only: reordered", { links: ["a", "b"] }, { links: ["b", "a"] }],
    ["append-only: an unknown item (a preview) is judged when it is known", { links: ["a"] }, { links: [Unknown] }],
    ["append-only: the state has none yet (written before the property existed)", {}, { links: [] }],
  ])("%s: allowed", (_name, olds, news) => {
    expect(refusedChange(spec, olds as any, news as any)).toBeUndefined();
  });

  test.each([
    [
      "grow-only: shrink",
      { size: 10 },
      { size: 5 },
      "size",
      /size can only grow: it is 10 now, and 5 would shrink it.*Use 10 or more/,
    ],
    [
      "fixed: changed",
      { cpu: 250 },
      { cpu: 500 },
      "cpu",
      /cpu cannot change from 250 to 500: the API cannot resize it/,
    ],
    [
      "fixed: set to other than what the service chose",
      { cpu: 250 },
      { cpu: 1000 },
      "cpu",
      /cpu cannot change from 250 to 1000/,
    ],
    [
      "append-only: an item dropped",
      { links: ["a", "b"] },
      { links: ["b", "c"] },
      "links",
      /links cannot drop "a": the API cannot remove one/,
    ],
  ])("%s: refused, naming the property", (_name, olds, news, property, reason) => {
    expect(refusedChange(spec, olds as any, news as any)).toEqual({ property, reason: expect.stringMatching(reason) });
  });

  test("an append-only list's live item that the program never listed (made outside it) is not dropped by leaving it out", () => {
    const [olds, oldInputs] = [{ links: ["a", "b"] }, { links: ["a"] }];
    expect(refusedChange(spec, olds as any, { links: ["a", "c"] } as any, [], oldInputs as any)).toBeUndefined();
    expect(refusedChange(spec, olds as any, { links: ["c"] } as any, [], oldInputs as any)).toMatchObject({
      property: "links",
      reason: expect.stringMatching(/links cannot drop "a"/),
    });
  });
});

describe("refusedChange: a value the API never returns, resent whole by every update", () => {
  const registry: ObjectSpec = {
    token: "hosting:index:Registry",
    fields: [
      field("name", { kind: "string" }, { replaceOnChange: true }),
      field("username", { kind: "string" }, { clearedWhenRemoved: true }),
      field("password", { kind: "string" }, { secret: true, notReturned: true, resentOnUpdate: true }),
    ],
  };
  const imported = { name: "ghcr", username: "ci" };

  test("neither the state nor the program holds it (an imported registry): refused, saying how to set it or leave it", () => {
    expect(refusedChange(registry, imported, { name: "ghcr", username: "ci-bot" })).toEqual({
      property: "password",
      reason:
        'password is neither in the stack\'s state nor in the program (the API never returns it, so an imported Registry has none), and this update (of username) must send the whole Registry: sending no password would clear the one the platform holds, so nothing was sent. Set it in the program from a secret (`pulumi config set --secret registryPassword <value>`, then password: config.requireSecret("registryPassword")), or, to leave the Registry as it is, ignore the change deliberately with ignoreChanges: ["username"]; password: "" sends an empty one on purpose.',
    });
  });

  test.each([
    ["the program sets it", imported, { name: "ghcr", username: "ci-bot", password: "p" }],
    ["the program sets it empty, on purpose", imported, { name: "ghcr", username: "ci-bot", password: "" }],
    [
      "the state holds it (the program took it out: removal clears it)",
      { ...imported, password: "p" },
      { name: "ghcr" },
    ],
    ["the state and the program hold it", { ...imported, password: "p" }, { ...imported, password: "p" }],
  ])("%s: allowed", (_name, olds, news) => {
    expect(refusedChange(registry, olds, news)).toBeUndefined();
  });
});
