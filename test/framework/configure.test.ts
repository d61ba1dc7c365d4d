// The one configuration resolver, as case tables: where each setting comes from, and what
// CheckConfig says about it.
import { checkConfig, decodeSettings, resolveConfig } from "../../provider/src/framework/configure";
import type { ObjectSpec } from "../../provider/src/framework/spec";

const spec: ObjectSpec = {
  token: "pulumi:providers:hosting",
  fields: [
    { name: "baseUrl", type: { kind: "string" }, required: true, description: "", env: ["BASE"] },
    { name: "token", type: { kind: "string" }, required: true, description: "", env: ["TOKEN"], secret: true },
    { name: "retries", type: { kind: "integer" }, required: false, description: "", default: 5 },
  ],
};
const variables = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([k, v]) => [`hosting:config:${k}`, v]));

describe(
  "resolveConfig: the provider's inputs, then the engine's variables, then the environment, " + "then the default",
  () => {
    test.each([
      [
        "inputs win",
        { baseUrl: "a", token: "t" },
        { baseUrl: "b" },
        { BASE: "c" },
        { baseUrl: "a", token: "t", retries: 5 },
      ],
      ["variables next", {}, { baseUrl: "b", token: "t" }, { BASE: "c" }, { baseUrl: "b", token: "t", retries: 5 }],
      ["the environment next", {}, {}, { BASE: "c", TOKEN: "t" }, { baseUrl: "c", token: "t", retries: 5 }],
      [
        "an empty setting is no setting",
        { baseUrl: "" },
        {},
        { BASE: "c", TOKEN: "t" },
        { baseUrl: "c", token: "t", retries: 5 },
      ],
      [
        "numbers arrive as strings and are decoded",
        { retries: "3" },
        {},
        { BASE: "c", TOKEN: "t" },
        { baseUrl: "c", token: "t", retries: 3 },
      ],
    ])("%s", (_name, args, vars, env, expected) => {
      const resolved = resolveConfig(spec, "hosting", args, variables(vars), env);
      expect(resolved).toMatchObject({ missing: [], failures: [] });
      expect(Object.fromEntries(Object.entries(resolved.values).filter(([, v]) => v !== undefined))).toEqual(expected);
    });

    test("what is nowhere is missing; what is wrong fails naming the key", () => {
      const resolved = resolveConfig(spec, "hosting", { retries: "three" }, new Map(), {});
      expect(resolved.missing.map((f) => f.name)).toEqual(["baseUrl", "token"]);
      expect(resolved.failures).toEqual([
        { property: "retries", reason: expect.stringMatching(/retries must be an integer/) },
      ]);
    });
  },
);

describe("checkConfig", () => {
  test("the engine's own keys pass through; the environment counts without being stored", () => {
    const { inputs, failures } = checkConfig(spec, "hosting", { version: "1.0.0", baseUrl: "a" }, { TOKEN: "t" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ version: "1.0.0", baseUrl: "a", retries: 5 });
  });

  test("an empty required setting is missing, and says how to set it", () => {
    const { failures } = checkConfig(spec, "hosting", { baseUrl: "a", token: "" }, {});
    expect(failures).toEqual([
      {
        property: "token",
        reason: expect.stringMatching(/missing required configuration key "hosting:token".*--secret/),
      },
    ]);
  });

  test("decodeSettings leaves strings and what is not JSON alone", () => {
    expect(decodeSettings(spec, { baseUrl: "1", retries: "x", other: 2 })).toEqual({
      baseUrl: "1",
      retries: "x",
      other: 2,
    });
  });
});
