// Every reference example, and the README's first program, in every language the docs show them in, under the real
// CLI. The reference pages show each declaration's examples (provider/src/framework/examples.ts) in TypeScript (that
// file's own) and in the languages `pulumi convert` writes from their YAML (docs/programs/reference-examples.json,
// make docs-languages); docs/first-program.md shows the README's first program converted from its YAML the same way.
// - The conversions are current: each example's YAML converted again gives what reference-examples.json holds, and
//   schema.json shows it (make docs-languages, make schema).
// - Each runs, in one program per language so that the suite pays each toolchain once: every example (each resource
//   once, as the examples agree on what they refer to) and the first program (its names prefixed `first-`), up then
//   destroy, with the platform's records read after each: every example's kind made, then none of them left. What
//   the lookups look up is made first by a stack of its own, by the names the examples give. YAML, TypeScript
//   (examples.ts's program of every example, as an inline program), Python, Go and Java run as in languages.test.ts.
//   C# is converted but never compiled: no .NET SDK can be installed here.
import * as hosting from "@hosting/pulumi";
import type * as pulumi from "@pulumi/pulumi";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import {
  everyExampleOutput,
  everyExampleProgram,
  everyExampleYaml,
  referenceExamples,
  sdkOf,
  type YamlProgram,
  yamlText,
} from "../../provider/src/framework/examples";
import { isExampleSecret, isReference } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import {
  CONVERTED_EXAMPLES,
  CONVERTED_LANGUAGES,
  convertedExamplesFile,
  exampleProject,
  fromPcl,
  LANGUAGES,
  type Language,
  PROGRAMS,
  toPcl,
} from "../../scripts/program-languages";
import { cliBinDir, programFromSource, ROOT, useE2E } from "./harness";
import { goInlineProgram, javaSdkInstalled, MAVEN_REPOSITORY, pythonWithSdk } from "./languages/toolchains";

const e2e = useE2E();
const SDK = sdkOf(hostingPackage);
const language = (id: Language["id"]) => LANGUAGES.find((l) => l.id === id)!;

/** The code generators for the languages whose host the CLI here lacks (scripts/pulumi-codegen.sh). */
let convertEnv: Promise<NodeJS.ProcessEnv>;

/** What the lookups of the examples look up (`getPostgres({ name: "orders-db" })`): by type name, its name. */
const LOOKED_UP = hostingPackage.functions.flatMap((fn) =>
  fn.examples
    .filter((example) => typeof example.args.name === "string" && "resource" in fn.result)
    .map((example) => ({
      fn,
      example,
      typeName: (fn.result as { resource: { typeName: string } }).resource.typeName,
      name: example.args.name as string,
    })),
);

beforeAll(async () => {
  convertEnv = new Promise((done, fail) =>
    execFile(join(ROOT, "scripts/pulumi-codegen.sh"), ["--bin-dir"], (err, stdout, stderr) =>
      err
        ? fail(new Error(`scripts/pulumi-codegen.sh failed: ${stderr}`))
        : done({ ...process.env, ...e2e.env, PATH: `${stdout.trim()}:${e2e.env.PATH}` }),
    ),
  );
  // The world the lookups find, made elsewhere, as "an existing database" is: each by the name its example gives,
  // from its kind's first example's plain inputs.
  const world = await e2e.stack("looked-up", "dev", async () => {
    for (const { typeName, name } of LOOKED_UP) {
      const { inputs } = hostingPackage.resources.find((r) => r.typeName === typeName)!.examples[0];
      const plain = Object.entries(inputs).filter(([, value]) => !isReference(value) && !isExampleSecret(value));
      const Resource = (hosting as unknown as Record<string, new (n: string, a: unknown) => pulumi.CustomResource>)[
        typeName
      ];
      new Resource(name, { ...Object.fromEntries(plain), name });
    }
  });
  await world.up();
});

/** The README's first program, its names (and what refers to them) prefixed `first-`, to fit beside the examples. */
function firstProgram(): YamlProgram {
  const source = PROGRAMS.find((p) => p.name === "first-program")!.source;
  const { resources = {}, outputs = {} } = load(readFileSync(join(ROOT, source), "utf8")) as YamlProgram;
  const names = Object.keys(resources);
  const renamed = (text: string) => names.reduce((t, name) => t.replaceAll(`\${${name}.`, `\${first-${name}.`), text);
  const deep = (value: unknown): unknown =>
    typeof value === "string"
      ? renamed(value)
      : Array.isArray(value)
        ? value.map(deep)
        : value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]))
          : value;
  return {
    resources: Object.fromEntries(Object.entries(resources).map(([name, r]) => [`first-${name}`, deep(r) as any])),
    outputs: Object.fromEntries(Object.entries(outputs).map(([name, o]) => [`first-${name}`, renamed(o)])),
  };
}

/** Every example and the first program in one YAML program. */
function everything(): YamlProgram {
  const examples = everyExampleYaml(SDK, hostingPackage.functions);
  const first = firstProgram();
  return {
    ...examples,
    resources: { ...examples.resources, ...first.resources },
    outputs: { ...examples.outputs, ...first.outputs },
  };
}
const PROJECT = "reference-examples";
const SOURCE = yamlText(everything(), { name: PROJECT });

/** The configuration the program reads beside the provider's: the registry's password, a secret. */
const config = () => ({ ...e2e.providerConfig, ghcrToken: { value: "ghcr-token-e2e", secret: true } });

/** The program, converted once (its PCL shared by every language): each language's project folder. */
let pcl: Promise<string> | undefined;
async function converted(id: Language["id"]): Promise<string> {
  pcl ??= (async () => {
    const source = join(e2e.work, "every-example", "source");
    mkdirSync(source, { recursive: true });
    writeFileSync(join(source, "Pulumi.yaml"), SOURCE);
    await toPcl(source, join(e2e.work, "every-example", "pcl"), await convertEnv);
    return join(e2e.work, "every-example", "pcl");
  })();
  const out = join(e2e.work, "every-example", id);
  await fromPcl(await pcl, language(id), out, await convertEnv);
  return out;
}

const byType = (type: string) => e2e.records("services").filter((s) => s.type === type);
const named = (records: any[], name: string) => records.filter((r) => r.name.startsWith(`${name}-`));

/** How many live records the platform has of each kind: what the lookups' stack made, before and after each run. */
const liveCounts = () =>
  Object.fromEntries(
    (["services", "volumes", "attachments", "registries", "links"] as const).map((kind) => [
      kind,
      e2e.records(kind).length,
    ]),
  );
let before: Record<string, number>;
beforeAll(() => {
  before = liveCounts();
});

/**
 * The platform after `up`: a record of every example's resource, autonamed from its name, the lookups' values, and
 * (`first`) the first program's app and database.
 */
function expectEveryExample(outputs: Record<string, unknown>, { first = true, without = [] as string[] } = {}) {
  const one = (records: any[], name: string) => {
    const found = named(records, name);
    expect({ name, found: found.length }).toEqual({ name, found: 1 });
    return found[0];
  };
  const services = (typeName: string) => byType(typeName.toLowerCase());
  const made: Record<string, any> = {};
  for (const resource of hostingPackage.resources)
    for (const example of resource.examples) {
      const records =
        resource.typeName === "Registry"
          ? e2e.records("registries")
          : resource.typeName === "Volume"
            ? e2e.records("volumes")
            : ["ServiceLink", "VolumeAttachment"].includes(resource.typeName)
              ? []
              : services(resource.typeName);
      if (records.length > 0) made[example.name] = one(records, example.name);
    }
  expect(Object.keys(made).sort()).toEqual(["api", "cache", "data", "ghcr", "legacy-db", "orders-db", "web"].sort());
  // The service link and the attachment, between the records of what they refer to.
  expect(e2e.records("links")).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ consumer_service_id: made.web.id, provider_service_id: made["orders-db"].id }),
      expect.objectContaining({ consumer_service_id: made.api.id, provider_service_id: made["orders-db"].id }),
    ]),
  );
  expect(e2e.records("attachments")).toEqual([
    expect.objectContaining({ volume_id: made.data.id, container_id: made.web.id, mount_path: "/data" }),
  ]);
  // The first program: its database linked to its app.
  if (first) {
    const [firstDb, firstWeb] = [one(byType("postgres"), "first-db"), one(byType("container"), "first-web")];
    expect(e2e.records("links")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ consumer_service_id: firstWeb.id, provider_service_id: firstDb.id }),
      ]),
    );
    expect(outputs["first-url"]).toBe(firstWeb.public_url);
  }
  // Each function's value, and the lookups' from what they looked up.
  const expected = hostingPackage.functions
    .flatMap((fn) => fn.examples.map((e) => everyExampleOutput(fn, e)))
    .filter((output) => !without.includes(output));
  expect(Object.keys(outputs).sort()).toEqual([...expected, ...(first ? ["first-url"] : [])].sort());
  for (const { fn, example, typeName, name } of LOOKED_UP) {
    const kind = typeName === "Registry" ? "registries" : typeName === "Volume" ? "volumes" : "services";
    const record = e2e.records(kind).find((r) => r.name === name);
    const field = example.show.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect({ output: everyExampleOutput(fn, example), value: outputs[everyExampleOutput(fn, example)] }).toEqual({
      output: everyExampleOutput(fn, example),
      value: record[field],
    });
  }
}

/** After destroy: what the lookups' stack made, and nothing else. */
function expectNoneLeft() {
  expect(liveCounts()).toEqual(before);
}

/** A program run as an inline program in another language (languages/inline.py, languages/go/inline.go). */
function inlineRunner(command: string[], stack: string) {
  const env = {
    ...process.env,
    ...e2e.env,
    HOSTING_E2E_PROJECT: PROJECT,
    HOSTING_E2E_STACK: stack,
    HOSTING_E2E_WORK_DIR: join(e2e.work, "inline", stack),
    HOSTING_E2E_CONFIG: JSON.stringify(config()),
  };
  mkdirSync(env.HOSTING_E2E_WORK_DIR, { recursive: true });
  return (step: "up" | "destroy") =>
    new Promise<any>((done, fail) =>
      execFile(command[0], [...command.slice(1), step], { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        err
          ? fail(new Error(`${step} failed: ${stdout}${stderr}`))
          : done(JSON.parse(stdout.trim().split("\n").pop()!)),
      ),
    );
}

async function upAndDestroy(step: ReturnType<typeof inlineRunner>) {
  const up = await step("up");
  expectEveryExample(up.outputs);
  await step("destroy");
  expectNoneLeft();
}

/** The same for a project the CLI runs from its folder (YAML, Java). */
async function upAndDestroyInFolder(
  dir: string,
  stack: string,
  env: Record<string, string> = {},
  without: string[] = [],
) {
  // Each command must succeed; a failure says what the CLI said.
  const cli = async (args: string[]) => {
    const result = await e2e.cli(args, { cwd: dir, env });
    if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed: ${result.stdout}${result.stderr}`);
    return result;
  };
  await cli(["stack", "init", stack]);
  const pairs = Object.entries(config()).flatMap(([key, { value, secret }]) => [
    secret ? "--secret" : "--plaintext",
    `${key}=${value}`,
  ]);
  await cli(["config", "set-all", ...pairs]);
  await cli(["up", "--yes"]);
  expectEveryExample(JSON.parse((await cli(["stack", "output", "--json", "--show-secrets"])).stdout), { without });
  await cli(["destroy", "--yes"]);
  expectNoneLeft();
}

const ran: string[] = [];
afterAll(() => process.stderr.write(`reference examples: ran under the real CLI: ${ran.join(", ") || "none"}\n`));

test(`${CONVERTED_EXAMPLES} holds what pulumi convert writes of each example's YAML now, and schema.json shows it`, async () => {
  const env = await convertEnv;
  const examples = referenceExamples(hostingPackage);
  const fresh: Array<{ token: string; yaml: string } & Record<string, string>> = [];
  for (const [index, { token, yaml }] of examples.entries()) {
    const dir = join(e2e.work, "examples", String(index));
    mkdirSync(join(dir, "source"), { recursive: true });
    writeFileSync(join(dir, "source", "Pulumi.yaml"), exampleProject(yaml));
    await toPcl(join(dir, "source"), join(dir, "pcl"), env);
    const files: Record<string, string> = {};
    for (const l of CONVERTED_LANGUAGES) {
      await fromPcl(join(dir, "pcl"), l, join(dir, l.id), env);
      files[l.id] = readFileSync(join(dir, l.id, l.file), "utf8");
    }
    fresh.push({ token, yaml, ...files });
  }
  if (convertedExamplesFile(fresh) !== readFileSync(join(ROOT, CONVERTED_EXAMPLES), "utf8"))
    throw new Error(`${CONVERTED_EXAMPLES} is stale: run make docs-languages sdk docs and commit the result`);
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  for (const { token, ...example } of fresh) {
    const description: string = schema.resources[token]?.description ?? schema.functions[token].description;
    for (const l of CONVERTED_LANGUAGES)
      expect(description).toContain(`\`\`\`${l.fence}\n${example[l.id].trimEnd()}\n\`\`\``);
  }
});

test("YAML: pulumi-language-yaml runs every example from its folder", async () => {
  const dir = join(e2e.work, "every-example", "yaml");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), SOURCE);
  await upAndDestroyInFolder(dir, "yaml");
  ran.push("YAML");
});

test("TypeScript: examples.ts's program of every example as an inline program, on sdk/nodejs", async () => {
  const stack = await e2e.stack(
    PROJECT,
    "typescript",
    programFromSource(everyExampleProgram(SDK, hostingPackage.functions)),
  );
  await stack.setAllConfig(config());
  const up = await stack.up();
  // Without the first program: its TypeScript (docs/first-program.md) runs in examples.test.ts, as every program of
  // docs/ does.
  expectEveryExample(Object.fromEntries(Object.entries(up.outputs).map(([key, output]) => [key, output.value])), {
    first: false,
  });
  await stack.destroy();
  expectNoneLeft();
  ran.push("TypeScript");
});

test("Python: the converted __main__.py as an inline program of Python's Automation API, on sdk/python", async () => {
  const dir = await converted("python");
  const python = await pythonWithSdk();
  await upAndDestroy(
    inlineRunner([python, join(__dirname, "languages/inline.py"), join(dir, "__main__.py")], "python"),
  );
  ran.push("Python");
});

test("Go: the converted main.go as an inline program of Go's Automation API, on sdk/go", async () => {
  const dir = await converted("go");
  const binary = await goInlineProgram(readFileSync(join(dir, "main.go"), "utf8"));
  await upAndDestroy(inlineRunner([binary], "go"));
  ran.push("Go");
});

/**
 * The outputs of the listing functions' examples (`getContainers`: `services`, a list of result objects): pulumi-java
 * 1.x cannot export such objects as stack outputs (its Serializer takes no @CustomType class: "Type
 * 'GetContainersItem' is not a supported argument type"), so the Java program runs without those exports.
 */
const LIST_OUTPUTS = hostingPackage.functions
  .filter((fn) => "list" in fn.result && fn.result.list)
  .flatMap((fn) => fn.examples.map((example) => everyExampleOutput(fn, example)));

test("Java: pulumi-language-java runs the converted project from its folder with Maven, on sdk/java", async () => {
  expect(existsSync(join(cliBinDir(), "pulumi-language-java"))).toBe(true);
  const dir = await converted("java");
  const app = join(dir, language("java").file);
  const exports = new RegExp(`^\\s*ctx\\.export\\("(${LIST_OUTPUTS.join("|")})", .*\\n`, "gm");
  expect(readFileSync(app, "utf8").match(exports)).toHaveLength(LIST_OUTPUTS.length);
  writeFileSync(app, readFileSync(app, "utf8").replace(exports, ""));
  await javaSdkInstalled();
  const env = { MAVEN_OPTS: `-Dmaven.repo.local=${MAVEN_REPOSITORY}` };
  await upAndDestroyInFolder(dir, "java", env, LIST_OUTPUTS);
  ran.push("Java");
});

test("C#: converted (the reference pages show it), not run: no .NET SDK can be installed here", async () => {
  const program = readFileSync(join(await converted("csharp"), "Program.cs"), "utf8");
  for (const resource of hostingPackage.resources)
    expect(program).toContain(`new Hosting.${resource.typeName}("${resource.examples[0].name}"`);
  expect(program).toContain("Create = TimeSpan.FromMinutes(20),");
});
