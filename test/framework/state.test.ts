// What a read implies as inputs (framework/state.ts): named cases for a refresh and an import.
import { impliedInputs } from "../../provider/src/framework/state";
import { spec } from "./cases";

const live = { name: "web", projectId: "p1", port: 8080, size: 10, cpu: 250, env: {}, status: "running", image: "r.io/a/b:1" };

describe("impliedInputs", () => {
  test.each([
    ["import: every input the API returns", {}, {}, { name: "web", projectId: "p1", port: 8080, size: 10, cpu: 250, image: "r.io/a/b:1" }],
    ["import: the provider's default project is left to Check", {}, { projectId: "p1" }, { name: "web", port: 8080, size: 10, cpu: 250, image: "r.io/a/b:1" }],
    ["import: another project than the provider's default is kept", {}, { projectId: "p2" }, { name: "web", projectId: "p1", port: 8080, size: 10, cpu: 250, image: "r.io/a/b:1" }],
    ["refresh: what the program set, and what Check fills in", { name: "web", projectId: "p1", port: 8080 }, { projectId: "p1" }, { name: "web", projectId: "p1", port: 8080 }],
    ["refresh: a password the API never returns keeps its input", { name: "web", password: "pw" }, {}, { name: "web", password: "pw", port: 8080, projectId: "p1" }],
  ])("%s", (_name, oldInputs, config, expected) => {
    expect(impliedInputs(spec, live, oldInputs, config)).toEqual(expected);
  });
});
