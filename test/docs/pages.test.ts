// What the pages must hold for a newcomer: a short README that is the front door, registry-style
// docs that cover every configuration key and error code, and a README for every example.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, linkTargets, read } from "./markdown";

const schema = require("../../schema.json");

describe("README.md", () => {
  const readme = read("README.md");

  test("is the front door: under 330 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(330);
  });

  test("leads with what it is, how to install it, a first program, previews and drift jobs, then the docs index", () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 4)).toEqual([
      "Install",
      "A first program against the simulator",
      "Pull-request previews and drift jobs",
      "Documentation",
    ]);
    for (const later of ["Configuration", "Resources and functions", "Languages", "The two commands"])
      expect(headings).toContain(later);
    // Which languages run under the real CLI here, and that C# does not.
    const languages = readme.slice(readme.indexOf("## Languages"), readme.indexOf("## The two commands"));
    for (const language of ["TypeScript", "Python", "Go", "Java", "YAML"])
      expect(languages).toMatch(new RegExp(`^\\| ${language} \\|[^\\n]*\\| yes: `, "m"));
    expect(languages).toMatch(/^\| C# \| `sdk\/dotnet` \| \*\*no\*\*: /m);
  });

  test("contributor material comes after the docs index: the two commands, each said for what it is, benchmark figures with the command that made them, and the API assumptions table", () => {
    const twoCommands = readme.slice(readme.indexOf("## The two commands"));
    expect(twoCommands).toMatch(
      /^make demo +# examples\/app-with-postgres under the real Pulumi CLI, against the simulator/m,
    );
    expect(twoCommands).toMatch(/^make test +# every test/m);
    // Both get the pinned CLI (make pulumi-cli), and say where from: the README names the version and the three ways.
    const pinned = /^PULUMI_VERSION=(\S+)$/m.exec(read("scripts/pulumi-cli.sh"))![1];
    expect(twoCommands).toContain(`the Pulumi CLI at the version the project pins (${pinned})`);
    expect(twoCommands).toMatch(
      /on PATH if it is that version, else the\s+official release, else a build from its Go modules/,
    );
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const after = (heading: string) => headings.indexOf(heading) > headings.indexOf("Documentation");
    expect(["The two commands", "Performance", "API assumptions"].every(after)).toBe(true);
    const assumptions = readme.slice(readme.indexOf("## API assumptions"));
    expect(assumptions).toContain("| question | assumption |");
    const performance = readme.slice(readme.indexOf("## Performance"), readme.indexOf("## API assumptions"));
    expect(performance).toContain("`npm run bench`");
    expect(performance).toMatch(/Jain's fairness index/);
    expect(read("CONTRIBUTING.md")).toContain("npm run bench");
  });

  test("lists every configuration key, and every resource and function with a link to its reference page", () => {
    for (const key of Object.keys(schema.config.variables)) expect(readme).toContain(`\`hosting:${key}\``);
    const links = linkTargets(readme);
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
      expect(links).toContain(`docs/reference/${token.split(":")[2].toLowerCase()}.md`);
    }
  });

  test("links every page of docs/", () => {
    const pages = readdirSync(join(ROOT, "docs")).filter((file) => file.endsWith(".md") && file !== "CONTRACTS.md");
    const links = linkTargets(readme).map((target) => target.split("#")[0]);
    expect(pages.filter((page) => !links.includes(`docs/${page}`))).toEqual([]);
  });
});

test("docs/_index.md and docs/installation-configuration.md carry the front matter Pulumi's registry reads", () => {
  for (const page of ["docs/_index.md", "docs/installation-configuration.md"]) {
    expect(read(page)).toMatch(/^---\ntitle: .+\nmeta_desc: .+\nlayout: package\n---\n/);
  }
});

test("docs/installation-configuration.md names every configuration key and environment variable of the schema", () => {
  const page = read("docs/installation-configuration.md");
  for (const [key, spec] of Object.entries<any>(schema.config.variables)) {
    expect(page).toContain(`\`hosting:${key}\``);
    for (const variable of spec.defaultInfo?.environment ?? []) expect(page).toContain(`\`${variable}\``);
  }
  expect(page).toContain("pulumi package add");
  expect(page).toContain("pulumi package gen-sdk");
});

test(
  "docs/troubleshooting.md says what to do for every error code the API (as the simulator plays it) " + "answers with",
  () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
      );
    const text = sources("simulator/src")
      .map((file) => readFileSync(join(ROOT, file), "utf8"))
      .join("\n");
    const codes = new Set(
      [...text.matchAll(/(?:new ApiFailure\(\s*\d+,\s*|conflict\(\s*)"([A-Z_]+)"/g)].map((m) => m[1]),
    );
    expect(codes.size).toBeGreaterThan(15);
    const page = read("docs/troubleshooting.md");
    expect([...codes].filter((code) => !new RegExp(`^\\|[^\\n]*\`${code}\``, "m").test(page)).sort()).toEqual([]);
  },
);

test.each(readdirSync(join(ROOT, "examples")))(
  "examples/%s has a README that says what it builds and how to run it",
  (example) => {
    const file = join(ROOT, "examples", example, "README.md");
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^# /);
    expect(text).toContain("simulator");
    if (existsSync(join(ROOT, "examples", example, "Pulumi.yaml"))) {
      expect(text).toContain("npm install");
      expect(text).toContain("npm run simulator");
      expect(text).toContain("pulumi up");
    }
  },
);
