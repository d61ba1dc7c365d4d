import { checkInputs } from "../../provider/src/framework/check";
import { Unknown } from "../../provider/src/framework/values";
import { spec } from "./cases";

const config = { projectId: "p-default" };
const base = { name: "web", projectId: "p1" };

describe("checkInputs: named cases per flag", () => {
  test.each([
    ["default filled", { ...base }, undefined, { port: 8080 }],
    ["default kept when set", { ...base, port: 9000 }, undefined, { port: 9000 }],
    ["config default filled", { name: "web" }, undefined, { projectId: "p-default" }],
    ["unknown passes through unvalidated", { ...base, size: Unknown }, undefined, { size: Unknown }],
    ["grow-only: same", { ...base, size: 10 }, { size: 10 }, { size: 10 }],
    ["grow-only: grow", { ...base, size: 20 }, { size: 10 }, { size: 20 }],
    ["grow-only: first value", { ...base, size: 5 }, {}, { size: 5 }],
    ["fixed: equal to old", { ...base, cpu: 250 }, { cpu: 250 }, { cpu: 250 }],
    ["fixed: first set", { ...base, cpu: 250 }, {}, { cpu: 250 }],
    ["secret value accepted", { ...base, password: "p" }, undefined, { password: "p" }],
  ])("%s", (_name, news, olds, expected) => {
    const { inputs, failures } = checkInputs(spec, news as any, olds as any, { config });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject(expected as any);
  });

  test.each([
    ["missing required", { projectId: "p1" }, undefined, "name", /name is required/],
    ["wrong type", { ...base, port: "80" }, undefined, "port", /port must be an integer, not a string \("80"\)/],
    ["fractional integer", { ...base, port: 80.5 }, undefined, "port", /port must be a whole number, not 80.5/],
    ["grow-only: shrink", { ...base, size: 5 }, { size: 10 }, "size", /size can only grow: it is 10 now, and 5 would shrink it.*Use 10 or more/],
    ["validator", { ...base, size: 0 }, undefined, "size", /^size must be greater than zero, not 0$/],
    ["fixed: changed", { ...base, cpu: 500 }, { cpu: 250 }, "cpu", /cpu cannot change from 250 to 500: the API cannot resize it/],
    ["map of strings", { ...base, env: { A: 1 } }, undefined, "env", /env.A must be a string/],
    ["unknown property", { ...base, colour: "blue" }, undefined, "colour", /not a property of hosting:index:Sample; valid properties are name, image/],
    ["output set by the user", { ...base, status: "running" }, undefined, "status", /output computed by the service/],
    ["secret wrong type never echoes the value", { ...base, password: 12345 }, undefined, "password", /^password must be a string, not a number$/],
  ])("%s fails naming the property", (_name, news, olds, property, reason) => {
    const { failures } = checkInputs(spec, news as any, olds as any, { config });
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  test("an environment variable stands in for a configuration key: checked, but not stored", () => {
    const configSpec = { token: "pulumi:providers:hosting", fields: [{ name: "token", type: { kind: "string" as const }, required: true, description: "", env: ["TOKEN"], secret: true }] };
    expect(checkInputs(configSpec, {}, undefined, { env: { TOKEN: "t" } })).toEqual({ inputs: {}, failures: [] });
    const missing = checkInputs(configSpec, {}, undefined, { env: {} });
    expect(missing.failures).toEqual([{ property: "token", reason: expect.stringMatching(/missing required configuration key "hosting:token".*pulumi config set hosting:token --secret <value>.*or set TOKEN/) }]);
  });

  test("object rules run once every property passes, and name the property", () => {
    const ruled = { ...spec, rules: [(values: any) => (values.image && values.env ? { property: "env", reason: "not both" } : undefined)] };
    expect(checkInputs(ruled, { ...base, image: "i", env: {} } as any, undefined, { config }).failures).toEqual([{ property: "env", reason: "not both" }]);
    expect(checkInputs(ruled, { ...base, image: "i" } as any, undefined, { config }).failures).toEqual([]);
  });

  test("a missing project with no provider default says how to set one", () => {
    const { failures } = checkInputs(spec, { name: "web" }, undefined, {});
    expect(failures).toEqual([{ property: "projectId", reason: expect.stringMatching(/pulumi config set hosting:projectId/) }]);
  });

  test("a value that arrived secret is never repeated in a failure", () => {
    const secrets = new Set(["env.API_KEY", "image"]);
    const typed = checkInputs(spec, { ...base, env: { API_KEY: 12345 } } as any, undefined, { config, secretPaths: secrets });
    expect(typed.failures).toEqual([{ property: "env", reason: "env.API_KEY must be a string, not a number" }]);
    const validated = checkInputs(
      { ...spec, fields: spec.fields.map((f) => (f.name === "image" ? { ...f, validate: (v, path) => `${path} "${String(v)}" has no tag` } : f)) },
      { ...base, image: "secret-registry.example.com/x" } as any, undefined, { config, secretPaths: secrets },
    );
    expect(validated.failures).toEqual([{ property: "image", reason: 'image "[secret]" has no tag' }]);
  });
});
