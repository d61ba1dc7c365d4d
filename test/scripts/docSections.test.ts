import {
  docSections,
  endpointTable,
  exampleExpression,
  functionArgumentsTable,
  resourceTable,
  withSections,
} from "../../scripts/doc-sections";
import type { Route } from "../../simulator/src/context";
import { CONTAINER_DESCRIPTION, schemaWithExamples } from "./fixtures";

const handler: Route["handler"] = () => ({ status: 204 });

describe("exampleExpression", () => {
  test("the last statement of a program, as an expression", () => {
    const program = [
      'import * as hosting from "@hosting/pulumi";',
      "",
      'const web = new hosting.Container("web", { name: "web" });',
      'const link = new hosting.ServiceLink("l", { consumerServiceId: web.id, providerServiceId: db.id });',
    ].join("\n");
    expect(exampleExpression(program)).toBe(
      'new hosting.ServiceLink("l", { consumerServiceId: web.id, providerServiceId: db.id })',
    );
    expect(
      exampleExpression("export const logs = hosting.getContainerLogsOutput({ containerId: web.id }).logs;\n"),
    ).toBe("hosting.getContainerLogsOutput({ containerId: web.id }).logs");
  });

  test("an object broken over lines comes out on one, without its trailing commas", () => {
    const program = 'const web = new hosting.Container("web", {\n    name: "web",\n    env: { A: "1" },\n});';
    expect(exampleExpression(program)).toBe('new hosting.Container("web", { name: "web", env: { A: "1" } })');
  });
});

describe("the tables of schema.json", () => {
  const schema = schemaWithExamples();

  test("one row per resource, linked to its reference page, with its first example", () => {
    const rows = resourceTable(schema, "docs/reference").split("\n");
    expect(rows.slice(0, 2)).toEqual(["| resource | example |", "|---|---|"]);
    expect(rows).toHaveLength(2 + Object.keys(schema.resources).length);
    expect(rows).toContain(
      '| [Container](docs/reference/container.md) | `new hosting.Container("web", { name: "web", image: "registry.example.com/team/web:1.4.2" })` |',
    );
    expect(CONTAINER_DESCRIPTION).toContain("batch"); // the second example is left to the reference page
    expect(rows.join("\n")).not.toContain("batch");
  });

  test("a function's arguments, the required ones said", () => {
    const rows = functionArgumentsTable(schema, "reference").split("\n");
    expect(rows).toContain(
      "| [getContainerLogs](reference/getcontainerlogs.md) | Reads the log text of a container app. | `containerId` (required), `projectId` |",
    );
    expect(rows.find((row) => row.startsWith("| [getRegistries]"))).toMatch(/ \| \|$/);
  });
});

describe("endpointTable", () => {
  test("a route's own body text, else the names of its body's fields, else nothing; pipes escaped", () => {
    const routes: Route[] = [
      { method: "GET", pattern: "/v1/projects/:projectId/things", doc: { answers: "200: `{things}`" }, handler },
      {
        method: "POST",
        pattern: "/v1/projects/:projectId/things",
        body: ["name", "size_gb"],
        doc: { answers: "201: the thing" },
        handler,
      },
      {
        method: "PATCH",
        pattern: "/v1/projects/:projectId/things/:thingId",
        body: ["size_gb"],
        doc: { body: "`size_gb` (required)", answers: "200 | 409" },
        handler,
      },
    ];
    expect(endpointTable(routes).split("\n")).toEqual([
      "| endpoint | body | answers |",
      "|---|---|---|",
      "| `GET /v1/projects/{projectId}/things` | | 200: `{things}` |",
      "| `POST /v1/projects/{projectId}/things` | `name`, `size_gb` | 201: the thing |",
      "| `PATCH /v1/projects/{projectId}/things/{thingId}` | `size_gb` (required) | 200 \\| 409 |",
    ]);
  });
});

describe("withSections", () => {
  const page = "# Title\n\nProse.\n\n<!-- generated: things -->\nold\n<!-- /generated -->\n\nMore prose.\n";

  test("replaces what stands between the markers and keeps the rest", () => {
    const fresh = withSections("page.md", page, { things: "| a |" });
    expect(fresh).toBe(
      "# Title\n\nProse.\n\n<!-- generated: things -->\n\n| a |\n\n<!-- /generated -->\n\nMore prose.\n",
    );
    expect(withSections("page.md", fresh, { things: "| a |" })).toBe(fresh);
  });

  test("a page without the section, or with it twice, is refused, saying where the markers go", () => {
    expect(() => withSections("page.md", "# Title\n", { things: "x" })).toThrow(
      'page.md has no generated section "things" (make docs writes it once): put <!-- generated: things --> and <!-- /generated --> on lines of their own where it goes',
    );
    expect(() => withSections("page.md", page + page, { things: "x" })).toThrow(
      'page.md has 2 generated section "things"',
    );
  });

  test("a section no generator writes is refused, naming the ones it writes", () => {
    expect(() => withSections("page.md", page, {})).toThrow(
      "page.md has a generated section that make docs does not write: things; it writes ",
    );
  });
});

test("docSections: the README's and docs/functions.md's tables link the reference from where each page is", () => {
  const sections = docSections(schemaWithExamples(), { routes: [], kinds: ["services", "volumes"] });
  expect(Object.keys(sections)).toEqual(["README.md", "docs/functions.md", "docs/simulator.md"]);
  expect(sections["README.md"].resources).toContain("](docs/reference/container.md)");
  expect(sections["docs/functions.md"].functions).toContain("](reference/getcontainer.md)");
  expect(sections["docs/simulator.md"].kinds).toBe("`{kind}` is a collection of the world: `services`, `volumes`.");
});
