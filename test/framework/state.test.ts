// What the flags say about state around a lifecycle call, as case tables: the inputs an update
// works towards, the outputs recorded, and the inputs a read implies (refresh and import).
import { desiredInputs, impliedInputs, recordedOutputs } from "../../provider/src/framework/state";
import { spec } from "./cases";

describe("desiredInputs: what an update works towards", () => {
  test.each([
    ["defaults filled in", { name: "web" }, {}, { name: "web", port: 8080, rollback: false }],
    ["a set value kept", { name: "web", port: 9090, rollback: true }, {}, { name: "web", port: 9090, rollback: true }],
    [
      "a removed map that removal clears becomes empty",
      { name: "web" },
      { env: { A: "1" } },
      { name: "web", port: 8080, rollback: false, env: {} },
    ],
    [
      "a removed scalar that removal clears stays absent",
      { name: "web" },
      { password: "p" },
      { name: "web", port: 8080, rollback: false },
    ],
    [
      "a removed value the service keeps stays absent",
      { name: "web" },
      { image: "r.io/a/b:1" },
      { name: "web", port: 8080, rollback: false },
    ],
  ])("%s", (_name, news, oldInputs, expected) =>
    expect(desiredInputs(spec, news as any, oldInputs as any)).toEqual(expected),
  );
});

test("recordedOutputs: the live values, and what the API never returns from the inputs", () => {
  expect(recordedOutputs(spec, { name: "web", status: "running" }, { name: "web", password: "p" })).toEqual({
    name: "web",
    status: "running",
    password: "p",
  });
  expect(recordedOutputs(spec, { name: "web" }, {})).toEqual({ name: "web" });
});

describe("impliedInputs: the inputs a read implies", () => {
  const live = {
    name: "web",
    projectId: "p1",
    port: 8080,
    size: 10,
    image: "r.io/a/b:1",
    env: {},
    status: "running",
    cpu: 250,
  };
  test.each([
    [
      "refresh: what the program set, at its live value",
      { name: "web", size: 5 },
      { name: "web", projectId: "p1", port: 8080, size: 10 },
    ],
    [
      "refresh: a property the API never returns keeps its old input",
      { name: "web", password: "p" },
      { name: "web", projectId: "p1", port: 8080, password: "p" },
    ],
    [
      "refresh: an empty map the program set stays (its drift shows)",
      { name: "web", env: { A: "1" } },
      { name: "web", projectId: "p1", port: 8080, env: {} },
    ],
    [
      "import: every input the API returns, but not an empty cleared-by-removal map",
      {},
      { name: "web", projectId: "p1", port: 8080, size: 10, image: "r.io/a/b:1", cpu: 250 },
    ],
  ])("%s", (_name, oldInputs, expected) =>
    expect(impliedInputs(spec, live as any, oldInputs as any)).toEqual(expected),
  );

  test("import keeps a map that holds something", () => {
    expect(impliedInputs(spec, { ...live, env: { A: "1" } } as any)).toMatchObject({ env: { A: "1" } });
  });
});

describe("impliedInputs with the provider's defaults: an import leaves the default project to Check", () => {
  const live = {
    name: "web",
    projectId: "p1",
    port: 8080,
    size: 10,
    cpu: 250,
    env: {},
    status: "running",
    image: "r.io/a/b:1",
  };
  test.each([
    [
      "import: the provider's default project is left to Check",
      {},
      { projectId: "p1" },
      { name: "web", port: 8080, size: 10, cpu: 250, image: "r.io/a/b:1" },
    ],
    [
      "import: another project than the provider's default is kept",
      {},
      { projectId: "p2" },
      { name: "web", projectId: "p1", port: 8080, size: 10, cpu: 250, image: "r.io/a/b:1" },
    ],
    [
      "refresh: what the program set, and what Check fills in",
      { name: "web", projectId: "p1", port: 8080 },
      { projectId: "p1" },
      { name: "web", projectId: "p1", port: 8080 },
    ],
  ])("%s", (_name, oldInputs, config, expected) => {
    expect(impliedInputs(spec, live, oldInputs, config)).toEqual(expected);
  });
});
