// The autonaming configuration as docs/resources.md ("Autonaming configuration") shows it, under the
// real CLI: each YAML block of that section is written where its first line says (Pulumi.yaml, or a
// stack's file), a YAML program is deployed with it, and the names in the simulator's records are the
// ones the block's pattern makes. And what the page says of replacements: a pattern without a random
// part makes the engine delete before it creates, one with it creates first.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALICE } from "../../simulator/src";
import { codeBlocks, read } from "../docs/markdown";
import { type CliResult, PROJECT_ID, useE2E } from "./harness";

const yaml = require("js-yaml");

const e2e = useE2E();

const page = read("docs/resources.md");
const section = page.slice(page.indexOf("### Autonaming configuration"), page.indexOf("### Replacements"));
/** The section's YAML blocks, by the file their first line names (`# Pulumi.yaml`, `# Pulumi.pr-12.yaml`). */
const blocks = codeBlocks(section, "yaml").map((text) => ({ file: /^# (\S+)\n/.exec(text)?.[1], text }));
const [projectForm, stackForm, overrides] = blocks;

/** What the engine makes of a pattern for one resource, as a regular expression (random parts as their alphabets). */
function namesOf(pattern: string, values: { name: string; stack: string; project: string }): RegExp {
  const parts = pattern.split(/(\$\{[^}]+\})/).map((part) => {
    const fn = /^\$\{(\w+)(?:\((\d+)\))?\}$/.exec(part);
    if (!fn) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const [, name, n] = fn;
    const alphabet: Record<string, string> = { hex: "[0-9a-f]", alphanum: "[a-z0-9]", string: "[a-z]", num: "[0-9]" };
    if (alphabet[name]) return `${alphabet[name]}{${n}}`;
    if (name === "uuid") return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    if (name === "organization") return "organization";
    return values[name as keyof typeof values];
  });
  return new RegExp(`^${parts.join("")}$`);
}

const token = { HOSTING_TOKEN: ALICE.token };
async function pulumi(dir: string, args: string[]): Promise<CliResult> {
  const ran = await e2e.cli(args, { cwd: dir, env: token });
  if (ran.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${ran.code}: ${ran.stdout}${ran.stderr}`);
  return ran;
}

/** A YAML project: its program's resources, and Pulumi.yaml's `config` as a block of the page writes it. */
function project(name: string, resources: Record<string, unknown>, pulumiYaml?: string): string {
  const config = pulumiYaml ? yaml.load(pulumiYaml).config : undefined;
  return e2e.yamlProject(name, { ...(config ? { config } : {}), resources });
}

async function deployed(dir: string, stack: string, stackFile?: string): Promise<void> {
  if (stackFile) writeFileSync(join(dir, `Pulumi.${stack}.yaml`), stackFile);
  await pulumi(dir, ["stack", "init", stack]);
  await pulumi(dir, ["config", "set", "--stack", stack, "hosting:baseUrl", e2e.sim.url]);
  await pulumi(dir, ["config", "set", "--stack", stack, "hosting:projectId", PROJECT_ID]);
  await pulumi(dir, ["up", "--yes", "--stack", stack]);
}

const WEB = { type: "hosting:Container", properties: { image: "registry.example.com/shop/web:1.4.2" } };
const CACHE = { type: "hosting:Redis" };
const nameOf = (kind: "services" | "registries", id: string) => e2e.records(kind).find((r) => r.id === id)?.name;
const idOf = async (dir: string, stack: string, logical: string): Promise<string> => {
  const state = JSON.parse((await pulumi(dir, ["stack", "export", "--stack", stack])).stdout);
  return state.deployment.resources.find((r: any) => r.urn.endsWith(`::${logical}`)).id;
};
const patternOf = (block: string, at: (value: any) => string) => at(yaml.load(block).config["pulumi:autonaming"]);

afterEach(async () => {
  // Every test's stack destroyed: the records are empty again.
  for (const [dir, stack] of deployedStacks.splice(0)) await pulumi(dir, ["destroy", "--yes", "--stack", stack]);
  expect(e2e.records("services")).toEqual([]);
  expect(e2e.records("registries")).toEqual([]);
});
const deployedStacks: Array<[string, string]> = [];

test("the page shows the Pulumi.yaml form, a stack's file form and the overrides, in that order", () => {
  expect(blocks.map((block) => block.file)).toEqual(["Pulumi.yaml", "Pulumi.pr-12.yaml", "Pulumi.yaml"]);
  expect(yaml.load(projectForm.text).config["pulumi:autonaming"]).toEqual({ value: expect.any(Object) });
  expect(yaml.load(stackForm.text).config["pulumi:autonaming"]).toEqual({ pattern: expect.any(String) });
});

test("Pulumi.yaml with value: names every resource by the pattern", async () => {
  const dir = project("names-project", { web: WEB, cache: CACHE }, projectForm.text);
  await deployed(dir, "production");
  deployedStacks.push([dir, "production"]);
  const pattern = patternOf(projectForm.text, (c) => c.value.pattern);
  const values = { stack: "production", project: "names-project" };
  expect(nameOf("services", await idOf(dir, "production", "web"))).toMatch(
    namesOf(pattern, { ...values, name: "web" }),
  );
  expect(nameOf("services", await idOf(dir, "production", "cache"))).toMatch(
    namesOf(pattern, { ...values, name: "cache" }),
  );
});

test("Pulumi.yaml without value: is refused, with the message the page quotes", async () => {
  const bare = yaml.load(stackForm.text).config;
  const dir = e2e.yamlProject("names-bare", { config: bare, resources: { web: WEB } });
  // The CLI validates Pulumi.yaml before anything else: even the stack cannot be made.
  const ran = await e2e.cli(["stack", "init", "dev"], { cwd: dir, env: token });
  expect(ran.code).not.toBe(0);
  expect(ran.stderr).toContain("#/config/pulumi:autonaming: additionalProperties 'pattern' not allowed");
  expect(section.replace(/\n/g, " ")).toContain(
    "`#/config/pulumi:autonaming: additionalProperties 'pattern' not allowed`",
  );
  expect(e2e.records("services")).toEqual([]);
});

test("a stack's file without value: names that stack's resources by its pattern", async () => {
  const dir = project("names-stack", { web: WEB });
  await deployed(dir, "pr-12", stackForm.text);
  deployedStacks.push([dir, "pr-12"]);
  const pattern = patternOf(stackForm.text, (c) => c.pattern);
  expect(nameOf("services", await idOf(dir, "pr-12", "web"))).toMatch(
    namesOf(pattern, { name: "web", stack: "pr-12", project: "names-stack" }),
  );
});

test("per provider and per resource type: the most specific wins (a registry entry verbatim)", async () => {
  const registry = { type: "hosting:Registry", properties: { host: "ghcr.io", username: "ci", password: "token" } };
  const dir = project("names-overrides", { web: WEB, ghcr: registry }, overrides.text);
  await deployed(dir, "staging");
  deployedStacks.push([dir, "staging"]);
  const hosting = patternOf(overrides.text, (c) => c.value.providers.hosting.pattern);
  expect(patternOf(overrides.text, (c) => c.value.pattern)).not.toBe(hosting);
  expect(nameOf("services", await idOf(dir, "staging", "web"))).toMatch(
    namesOf(hosting, { name: "web", stack: "staging", project: "names-overrides" }),
  );
  expect(nameOf("registries", await idOf(dir, "staging", "ghcr"))).toBe("ghcr");
});

test.each([
  ["without a random part, the engine deletes first", "${name}-${stack}", "DELETE"],
  ["with the page's pattern, it creates first", "", "POST"],
])("a replacement (pulumi up --replace) %s", async (_name, given, first) => {
  const pattern = given || patternOf(projectForm.text, (c) => c.value.pattern);
  const config = { "pulumi:autonaming": { value: { pattern } } };
  const dir = e2e.yamlProject(`names-replace-${first.toLowerCase()}`, { config, resources: { web: WEB } });
  await deployed(dir, "production");
  deployedStacks.push([dir, "production"]);
  const old = await idOf(dir, "production", "web");
  e2e.sim.control.clearRequests();
  const urn = `urn:pulumi:production::names-replace-${first.toLowerCase()}::hosting:index:Container::web`;
  await pulumi(dir, ["up", "--yes", "--stack", "production", "--replace", urn]);
  const writes = e2e.sim.control
    .requests()
    .filter(
      (r) => (r.method === "POST" && /\/containers$/.test(r.path)) || (r.method === "DELETE" && r.path.endsWith(old)),
    )
    .map((r) => r.method);
  expect(writes).toEqual(first === "DELETE" ? ["DELETE", "POST"] : ["POST", "DELETE"]);
  expect(await idOf(dir, "production", "web")).not.toBe(old);
});
