import { referenceDocs } from "../../scripts/reference-docs";
import { schemaWithExamples } from "./fixtures";

const schema = require("../../schema.json");

/** The rows of the markdown table under `heading` (up to the next heading), as cells. */
function table(page: string, heading: string): string[][] {
  const start = page.indexOf(`${heading}\n`);
  if (start === -1) throw new Error(`no ${heading}`);
  const rest = page.slice(start + heading.length + 1);
  const end = rest.search(/^#/m);
  return (end === -1 ? rest : rest.slice(0, end))
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

const rowOf = (rows: string[][], name: string) => {
  const [headings, , ...body] = rows;
  const row = body.find((cells) => cells[0] === `\`${name}\``);
  return row && Object.fromEntries(headings.map((h, i) => [h, row[i]]));
};

describe("from schema.json as it is", () => {
  const pages = referenceDocs(schema);

  test("one page per resource and per function, the provider's, and an index that links them all", () => {
    const expected = [
      ...Object.keys(schema.resources).map((t: string) => `${t.split(":")[2].toLowerCase()}.md`),
      ...Object.keys(schema.functions).map((t: string) => `${t.split(":")[2].toLowerCase()}.md`),
      "provider.md",
    ];
    expect([...pages.keys()].sort()).toEqual(["_index.md", ...expected].sort());
    const index = pages.get("_index.md")!;
    for (const page of expected.filter((p) => p !== "provider.md")) expect(index).toContain(`](${page})`);
  });

  test("a resource's inputs say type, required, default, secret and replace-on-change, from the schema", () => {
    const inputs = table(pages.get("container.md")!, "## Inputs");
    expect(inputs[0]).toEqual(["name", "type", "required", "default", "secret", "replaces on change", "description"]);
    expect(rowOf(inputs, "image")).toMatchObject({ type: "string", required: "yes" });
    // Optional: left out, the provider names the resource (autonaming).
    expect(rowOf(inputs, "name")).toMatchObject({ type: "string", required: "", "replaces on change": "yes" });
    expect(rowOf(inputs, "httpPort")).toMatchObject({
      type: "number",
      required: "",
      default: "`8080`",
      "replaces on change": "",
    });
    expect(rowOf(inputs, "env")).toMatchObject({ type: "map of string" });
    expect(rowOf(table(pages.get("registry.md")!, "## Inputs"), "password")).toMatchObject({ secret: "yes" });
    expect(rowOf(table(pages.get("provider.md")!, "## Inputs"), "token")).toMatchObject({
      secret: "yes",
      default: "env `HOSTING_TOKEN`",
    });
  });

  test("a resource's outputs are those besides its inputs; object types are listed and linked", () => {
    const page = pages.get("postgres.md")!;
    const outputs = table(page, "## Outputs");
    expect(rowOf(outputs, "status")).toBeDefined();
    expect(rowOf(outputs, "name")).toBeUndefined();
    expect(rowOf(outputs, "connection")).toMatchObject({ type: "[DatabaseConnection](#databaseconnection)" });
    expect(rowOf(table(page, "### DatabaseConnection"), "instructions")).toMatchObject({ secret: "yes" });
  });

  test("every resource and function has an example; the import section is the description's", () => {
    for (const [name, page] of pages)
      if (name !== "_index.md" && name !== "provider.md")
        expect({ name, example: page.includes("## Example usage") }).toEqual({ name, example: true });
    expect(pages.get("volume.md")).toContain("## Import\n\nAn existing Volume is imported by its id");
  });

  test("a function's arguments and result", () => {
    const page = pages.get("getcontainers.md")!;
    expect(rowOf(table(page, "## Arguments"), "type")).toMatchObject({ required: "" });
    expect(rowOf(table(page, "## Result"), "services")).toMatchObject({
      type: "[getContainersItem](#getcontainersitem)[]",
      "always set": "yes",
    });
  });

  test("the same schema gives the same pages, byte for byte", () => {
    expect(referenceDocs(structuredClone(schema))).toEqual(pages);
  });
});

describe("from descriptions with neither examples nor an import section", () => {
  const bare = structuredClone(schema);
  for (const spec of [...Object.values(bare.resources), ...Object.values(bare.functions)] as Array<{
    description: string;
  }>)
    spec.description = spec.description.split("\n\n")[0];
  const pages = referenceDocs(bare);

  test("no example section", () => {
    expect(pages.get("getcontainers.md")).not.toContain("## Example usage");
  });

  test("a resource gets the import command for its id", () => {
    expect(pages.get("volume.md")).toMatch(
      new RegExp(
        /## Import\n\nThe id is the one the API assigned:\n\n/.source +
          /```sh\npulumi import hosting:index:Volume <resource name> <id>\n```\n$/.source,
      ),
    );
  });
});

describe("from descriptions with Pulumi's example shortcodes and an import section", () => {
  const pages = referenceDocs(schemaWithExamples());

  test("the examples come after the summary, the shortcodes gone, and the import section is the description's", () => {
    const page = pages.get("container.md")!;
    expect(page).not.toContain("{{%");
    expect(page).toMatch(
      new RegExp(
        /A container app: an HTTP service that runs one image\.\nEvery rollout is awaited\.\n\n/.source +
          /## Example usage\n\n### A public web app\n\n```typescript\nimport \* as hosting/.source,
      ),
    );
    expect(page).toContain("### Stopped");
    expect(page.indexOf("## Example usage")).toBeLessThan(page.indexOf("## Inputs"));
    expect(page).toMatch(/## Import\n\n```sh\npulumi import hosting:index:Container web <projectId>\/<id>\n```\n$/);
    expect(page).not.toContain("The id is the one the API assigned");
  });

  test("a function's examples", () => {
    const page = pages.get("getcontainerlogs.md")!;
    expect(page).toMatch(/## Example usage\n\n### The logs of an app\n\n```typescript\nexport const logs = /);
    expect(page).not.toContain("{{%");
  });

  test("the index lists each by its summary's first sentence, not its examples", () => {
    expect(pages.get("_index.md")).toContain(
      "| [Container](container.md) | A container app: an HTTP service that runs one image. |",
    );
  });
});
