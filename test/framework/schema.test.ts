// Each flag adds its sentence to the property's documentation in schema.json, so that no
// description restates a flag by hand (and none can drift from it).
import { flagSentences } from "../../provider/src/framework/schema";

const schema = require("../../schema.json");
const property = (type: string, name: string) => schema.resources[`hosting:index:${type}`].inputProperties[name];

describe("a sentence per flag, in the generated schema", () => {
  test.each([
    ["replaceOnChange", "Container", "name", "Changing it replaces the resource."],
    ["growOnly", "Volume", "sizeGb", "It can only grow: a smaller value fails at preview."],
    ["fixedAfterCreate", "Postgres", "cpuMilli", "Fixed at creation: a change fails at preview."],
    ["default", "Container", "httpPort", "Defaults to `8080`."],
    ["configDefault", "Volume", "projectId", "Defaults to the provider's `projectId`."],
    ["clearedWhenRemoved", "Container", "env", "Taking it out of the program clears it."],
    ["notReturned", "Registry", "password", "The API never returns it: state keeps the value the program set."],
    ["secret", "Registry", "password", "Secret."],
  ])("%s (%s.%s)", (_flag, type, name, sentence) => {
    expect(property(type, name).description).toContain(sentence);
  });

  test("env (provider configuration)", () => {
    expect(schema.config.variables.token.description).toContain(
      "Can also be set with the environment variable `HOSTING_TOKEN`.",
    );
  });

  test("no sentence where no flag is set, and none restated by hand in the interface's own text", () => {
    expect(flagSentences({})).toEqual([]);
    for (const resource of Object.values<any>(schema.resources)) {
      for (const [name, p] of Object.entries<any>(resource.inputProperties)) {
        for (const sentence of ["Changing it replaces", "can only grow", "Defaults to"]) {
          const count = (p.description.match(new RegExp(sentence, "gi")) ?? []).length;
          expect({ name, count: Math.min(count, 2) }).toEqual({ name, count: Math.min(count, 1) });
        }
      }
    }
  });
});
