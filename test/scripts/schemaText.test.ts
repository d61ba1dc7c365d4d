import {
  exampleCode,
  firstSentence,
  referencePage,
  splitDescription,
  stripShortcodes,
  tableCell,
  typesReferenced,
  typeToken,
} from "../../scripts/schema-text";
import { CONTAINER_DESCRIPTION, FUNCTION_DESCRIPTION } from "./fixtures";

describe("stripShortcodes", () => {
  test("drops Pulumi's shortcode lines and keeps the markdown", () => {
    const text = stripShortcodes(FUNCTION_DESCRIPTION);
    expect(text).not.toContain("{{%");
    expect(text).toBe(
      [
        "Reads the log text of a container app.",
        "",
        "## Example Usage",
        "",
        "### The logs of an app",
        "",
        "```typescript",
        "export const logs = hosting.getContainerLogsOutput({ containerId: web.id }).logs;",
        "```",
      ].join("\n"),
    );
  });

  test("leaves a description without shortcodes as it is, and a shortcode inside a line alone", () => {
    expect(stripShortcodes("Plain.\nText with `{{% x %}}` inside.")).toBe("Plain.\nText with `{{% x %}}` inside.");
  });
});

describe("splitDescription", () => {
  test("a resource's summary, examples (each title and its code) and import section", () => {
    const parts = splitDescription(CONTAINER_DESCRIPTION);
    expect(parts.summary).toBe("A container app: an HTTP service that runs one image.\nEvery rollout is awaited.");
    expect(parts.examples).toMatch(/^### A public web app\n\n```typescript\nimport \* as hosting/);
    expect(parts.examples).toContain("### Stopped");
    expect(parts.examples).not.toMatch(/\{\{%|## Example Usage/);
    expect(parts.importSection).toBe("```sh\npulumi import hosting:index:Container web <projectId>/<id>\n```");
  });

  test("a description with neither is all summary", () => {
    expect(splitDescription("A managed Redis database service.\nIt cannot be resized.")).toEqual({
      summary: "A managed Redis database service.\nIt cannot be resized.",
    });
    expect(splitDescription(undefined)).toEqual({ summary: "" });
  });

  test("an import section followed by another section keeps that section in the summary", () => {
    const parts = splitDescription("Text.\n\n## Import\n\nby id\n\n## Notes\n\nmore");
    expect(parts).toEqual({ summary: "Text.\n\n## Notes\n\nmore", importSection: "by id" });
  });
});

test("exampleCode: the code of each fenced block, in order", () => {
  const code = exampleCode(splitDescription(CONTAINER_DESCRIPTION).examples);
  expect(code).toHaveLength(2);
  expect(code[0]).toMatch(/^import \* as hosting from "@hosting\/pulumi";\n\nconst web = /);
  expect(code[1]).toMatch(/^new hosting\.Container\("batch"/);
  expect(exampleCode(undefined)).toEqual([]);
});

test("firstSentence: the summary's first sentence on one line, not fooled by dots inside words", () => {
  expect(firstSentence(CONTAINER_DESCRIPTION)).toBe("A container app: an HTTP service that runs one image.");
  expect(firstSentence("Base URL, such as `https://api.example.com`. More.")).toBe(
    "Base URL, such as `https://api.example.com`.",
  );
  expect(firstSentence("No full stop")).toBe("No full stop");
});

test("referencePage: the lowercased name, as Pulumi's registry names its pages", () => {
  expect(referencePage("hosting:index:ServiceLink")).toBe("servicelink.md");
  expect(referencePage("hosting:index:getContainerLogs")).toBe("getcontainerlogs.md");
});

describe("typesReferenced (the walk reference-docs.ts takes)", () => {
  const ref = (name: string) => ({ $ref: `#/types/t:index:${name}` });
  const pkg = {
    name: "t",
    version: "1.0.0",
    types: {
      "t:index:Outer": { properties: { inner: ref("Inner"), again: ref("Outer") } },
      "t:index:Inner": { properties: { leaf: { type: "array" as const, items: ref("Leaf") } } },
      "t:index:Leaf": { properties: { text: { type: "string" as const } } },
      "t:index:InMap": { properties: {} },
      "t:index:Unused": { properties: {} },
    },
  };

  test("follows refs through types, array items and map values, each type once", () => {
    const found = typesReferenced(pkg, [
      { outer: ref("Outer") },
      undefined,
      { byKey: { type: "object", additionalProperties: ref("InMap") } },
    ]);
    expect([...found].sort()).toEqual(["t:index:InMap", "t:index:Inner", "t:index:Leaf", "t:index:Outer"]);
  });

  test("finds nothing in plain properties", () => {
    expect(typesReferenced(pkg, [{ name: { type: "string" } }]).size).toBe(0);
  });

  test("a ref outside #/types/ is refused, naming it", () => {
    expect(() => typeToken("other.json#/types/x")).toThrow("unsupported $ref other.json#/types/x");
  });
});

test("tableCell puts a description on one line and escapes its pipes", () => {
  expect(tableCell(" a  |b\n  c ")).toBe("a \\|b c");
  expect(tableCell(undefined)).toBe("");
});
