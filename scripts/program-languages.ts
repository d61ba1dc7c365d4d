// One program in every language Pulumi users write, from one source in YAML: `pulumi convert --from yaml --language
// pcl` (pulumi-converter-yaml) with what that converter drops put back, then `pulumi convert --from pcl --language
// <language>` (Pulumi's generators: the real hosts beside the CLI, or scripts/pulumi-codegen.sh's for the languages
// whose host is missing here), what the program generators get wrong put right, and the result as the docs show it:
// the Pulumi Registry's language chooser (docs/_index.md, docs/first-program.md, and the reference pages' examples
// through schema.json). make docs-languages writes them (scripts/gen-languages.ts); the end-to-end suite runs every
// language but C# and fails when the pages are stale (test/e2e/languages.test.ts, referenceExamples.test.ts).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import type { ConvertedExample } from "../provider/src/framework/examples";

/** The languages, as the Registry names them, in its order, with what `pulumi convert` calls them and the file. */
export const LANGUAGES = [
  { id: "typescript", title: "TypeScript", convert: "typescript", file: "index.ts", fence: "typescript" },
  { id: "python", title: "Python", convert: "python", file: "__main__.py", fence: "python" },
  { id: "go", title: "Go", convert: "go", file: "main.go", fence: "go" },
  { id: "csharp", title: "C#", convert: "csharp", file: "Program.cs", fence: "csharp" },
  {
    id: "java",
    title: "Java",
    convert: "java",
    file: "src/main/java/generated_program/App.java",
    fence: "java",
  },
  { id: "yaml", title: "YAML", convert: undefined, file: "Pulumi.yaml", fence: "yaml" },
] as const;
export type Language = (typeof LANGUAGES)[number];

/** The docs' programs: each one YAML source, and the pages that show it in every language. */
export const PROGRAMS = [
  { name: "example", source: "docs/programs/example/Pulumi.yaml", registry: "docs/_index.md" },
  { name: "first-program", source: "docs/programs/first-program/Pulumi.yaml", registry: "docs/first-program.md" },
] as const;

/** The declarations' examples in the languages `pulumi convert` writes (make docs-languages), for schema.json. */
export const CONVERTED_EXAMPLES = "docs/programs/reference-examples.json";
/**
 * The languages of the reference examples converted from YAML: their TypeScript is examples.ts's own (docs/sdk.md
 * says why).
 */
export const CONVERTED_LANGUAGES = LANGUAGES.filter((l) => l.id !== "typescript" && l.convert);

/** The converted examples file's form: by token, each example's YAML and code in the languages converted to. */
export type ConvertedExamples = Record<string, ConvertedExample[]>;

/** The converted examples as the file holds them: tokens sorted, one JSON document, a newline at the end. */
export function convertedExamplesFile(examples: Array<{ token: string } & ConvertedExample>): string {
  const byToken: ConvertedExamples = {};
  for (const { token, ...example } of [...examples].sort((a, b) =>
    a.token < b.token ? -1 : a.token > b.token ? 1 : 0,
  ))
    (byToken[token] ??= []).push(example);
  return `${JSON.stringify(byToken, null, 2)}\n`;
}

/** A YAML example as a project `pulumi convert` reads: under a name, with `runtime: yaml`. */
export const exampleProject = (yaml: string) => `name: example\nruntime: yaml\n${yaml}`;

const pulumi = async (args: string[], cwd: string, env: NodeJS.ProcessEnv) => {
  try {
    await promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd, env, maxBuffer: 16 << 20 });
  } catch (err: any) {
    throw new Error(`pulumi ${args.join(" ")} failed: ${err.stdout}${err.stderr}`);
  }
};

/**
 * `pulumi convert --from yaml --language pcl` of the YAML project in `sourceDir` into `out`, with the resource options
 * the YAML converter drops put back (withDroppedOptions). `env` carries PATH (the CLI and the code generators first)
 * and a PULUMI_HOME whose plugins include this package's: the converter reads the schema from the plugin.
 */
export async function toPcl(sourceDir: string, out: string, env: NodeJS.ProcessEnv): Promise<void> {
  await pulumi(["convert", "--from", "yaml", "--language", "pcl", "--out", out, "--generate-only"], sourceDir, env);
  const file = join(out, "program.pp");
  const yaml = readFileSync(join(sourceDir, "Pulumi.yaml"), "utf8");
  writeFileSync(file, withDroppedOptions(readFileSync(file, "utf8"), yaml));
}

/** `pulumi convert --from pcl --language <language>` of the PCL in `pclDir` into `out`, with the fixes below. */
export async function fromPcl(pclDir: string, language: Language, out: string, env: NodeJS.ProcessEnv) {
  if (!language.convert) throw new Error(`${language.title} is the source: there is nothing to convert`);
  const args = ["convert", "--from", "pcl", "--language", language.convert, "--out", out, "--generate-only"];
  await pulumi(args, pclDir, env);
  const pcl = readFileSync(join(pclDir, "program.pp"), "utf8");
  if (language.id === "java") fixConvertedJava(out, pcl);
  if (language.id === "go") fixConvertedGo(out);
  if (language.id === "csharp") fixConvertedCsharp(out, pcl);
}

/** The YAML project in `sourceDir` in one language, in `out` (its PCL beside it, in `<out>.pcl`). */
export async function convert(sourceDir: string, language: Language, out: string, env: NodeJS.ProcessEnv) {
  await toPcl(sourceDir, `${out}.pcl`, env);
  await fromPcl(`${out}.pcl`, language, out, env);
}

/** A resource of a PCL program: its variable, the name it has in the stack, and its custom timeouts. */
interface PclResource {
  variable: string;
  logicalName: string;
  customTimeouts?: Record<string, string>;
}

/** The resources of a PCL program as pulumi convert writes it (each block opens with its `__logicalName`). */
export function pclResources(pcl: string): PclResource[] {
  return [...pcl.matchAll(/^resource (\w+) "[^"]+" \{\n\t__logicalName = "([^"]+)"\n([\s\S]*?)^\}$/gm)].map(
    ([, variable, logicalName, body]) => {
      const timeouts = /^\t\tcustomTimeouts = \{ (.*) \}$/m.exec(body)?.[1];
      const customTimeouts = timeouts
        ? Object.fromEntries([...timeouts.matchAll(/(\w+) = "([^"]+)"/g)].map(([, key, value]) => [key, value]))
        : undefined;
      return { variable, logicalName, ...(customTimeouts ? { customTimeouts } : {}) };
    },
  );
}

/** The resource options pulumi-yaml v1.25.0's converter leaves out of the PCL ("not supported by PCL", its TODO). */
const DROPPED_OPTIONS = ["customTimeouts", "additionalSecretOutputs", "aliases", "deleteBeforeReplace", "version"];

/**
 * The PCL with what the YAML converter dropped put back: a resource's `customTimeouts` (PCL has them, and the Go,
 * Python and TypeScript generators write them). Any other dropped option fails the conversion, naming it, rather
 * than a program that silently lacks it.
 */
export function withDroppedOptions(pcl: string, yaml: string): string {
  const source = load(yaml) as { resources?: Record<string, { options?: Record<string, unknown> }> };
  let fixed = pcl;
  for (const [name, resource] of Object.entries(source.resources ?? {})) {
    const { customTimeouts, ...rest } = resource.options ?? {};
    const dropped = Object.keys(rest).filter((option) => DROPPED_OPTIONS.includes(option));
    if (dropped.length > 0)
      throw new Error(
        `the YAML converter drops ${dropped.join(", ")} of ${name}, and scripts/program-languages.ts puts back only customTimeouts: put it back there too, or leave it out of the program`,
      );
    if (!customTimeouts) continue;
    const value = Object.entries(customTimeouts as Record<string, string>)
      .map(([key, duration]) => `${key} = ${JSON.stringify(duration)}`)
      .join(", ");
    const block = new RegExp(
      `(^resource \\w+ "[^"]+" \\{\\n\\t__logicalName = ${JSON.stringify(name)}\\n[\\s\\S]*?)^\\}$`,
      "m",
    );
    if (!block.test(fixed)) throw new Error(`the PCL has no resource named ${name}`);
    fixed = fixed.replace(block, (whole, body: string) =>
      /^\toptions \{$/m.test(body)
        ? whole.replace(/^\toptions \{$/m, `\toptions {\n\t\tcustomTimeouts = { ${value} }`)
        : `${body}\toptions {\n\t\tcustomTimeouts = { ${value} }\n\t}\n}`,
    );
  }
  return fixed;
}

// The repository: make and jest both run from it.
const ROOT = process.cwd();

/**
 * What `pulumi convert --language java` (pulumi-java v1.22.0's program generator) gets wrong for this
 * package, put right in the converted project, each fix naming the generator's mistake:
 * - pom.xml names every package's group `com.pulumi` (GenerateProject ignores the schema's
 *   language.java.basePackage): sdk/java's group is the schema's;
 * - pom.xml asks for com.pulumi:pulumi 1.0.0, older than the one sdk/java is built on (its build.gradle's),
 *   and Maven takes the project's own version: the SDK's;
 * - a list of outputs (`links: [${db.id}]`) is passed as the output itself (`.links(db.id())`), which no
 *   overload takes: it is wrapped in Output.all(...), which makes the Output<List<String>> the builder takes;
 * - a function's class and arguments are imported from `com.pulumi.<package>` (HostingFunctions,
 *   inputs.GetRedisArgs) whatever the basePackage, where the resources' imports have it right;
 * - each resource and output is named by its variable (`new Postgres("ordersDb", …)`), not by its name in the
 *   program (`orders-db`, PCL's __logicalName, which genResource and genOutputAssignment ignore): javaLogicalNames;
 * - a resource's customTimeouts are left out (gen_program.go writes no such option): javaCustomTimeouts.
 */
export function fixConvertedJava(dir: string, pcl: string): void {
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  const gradle = readFileSync(join(ROOT, "sdk/java/build.gradle"), "utf8");
  const javaSdk = /implementation\("com\.pulumi:pulumi:([^"]+)"\)/.exec(gradle)![1];
  const pom = join(dir, "pom.xml");
  writeFileSync(
    pom,
    readFileSync(pom, "utf8")
      .replace(
        new RegExp(`<groupId>com\\.pulumi</groupId>(\\s*)<artifactId>${schema.name}</artifactId>`),
        `<groupId>${schema.language.java.basePackage}</groupId>$1<artifactId>${schema.name}</artifactId>`,
      )
      .replace(/(<artifactId>pulumi<\/artifactId>\s*<version>)[^<]+(<\/version>)/, `$1${javaSdk}$2`),
  );
  const app = join(dir, "src/main/java/generated_program/App.java");
  const javaPackage = `${schema.language.java.basePackage}.${schema.name}`;
  const source = readFileSync(app, "utf8").replace(
    new RegExp(`^import com\\.pulumi\\.${schema.name}\\.`, "gm"),
    `import ${javaPackage}.`,
  );
  const resources = pclResources(pcl);
  const outputs = new Map(
    [...pcl.matchAll(/^output (\w+) \{\n\t__logicalName = "([^"]+)"$/gm)].map(([, variable, name]) => [variable, name]),
  );
  const named = javaLogicalNames(javaListsOfOutputs(source, schema), resources, outputs);
  writeFileSync(app, javaCustomTimeouts(named, resources));
}

/**
 * `new Postgres("ordersDb", …)` as `new Postgres("orders-db", …)`, and `ctx.export("firstUrl", …)` as
 * `ctx.export("first-url", …)`: each resource and output under its name in the program.
 */
export function javaLogicalNames(source: string, resources: PclResource[], outputs: Map<string, string>): string {
  const names = new Map(resources.map((r) => [r.variable, r.logicalName]));
  return source
    .replace(/^(\s+var (\w+) = new \w+\()"(\w+)"/gm, (line, start: string, variable: string, name: string) =>
      variable === name && names.has(name) ? `${start}${JSON.stringify(names.get(name))}` : line,
    )
    .replace(/^(\s+ctx\.export\()"(\w+)"/gm, (line, start: string, name: string) =>
      outputs.has(name) ? `${start}${JSON.stringify(outputs.get(name))}` : line,
    );
}

/** A custom timeout (`20m`, `1h30m`, `45s`: Go's durations, as Pulumi writes them) in seconds, hours or minutes. */
function durationParts(duration: string): { unit: "Hours" | "Minutes" | "Seconds"; amount: number } {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration);
  if (!match || duration === "")
    throw new Error(`custom timeout "${duration}": write it in hours, minutes and seconds (20m, 1h30m)`);
  const [h, m, s] = match.slice(1).map((part) => Number(part ?? 0));
  if (!m && !s) return { unit: "Hours", amount: h };
  if (!s) return { unit: "Minutes", amount: h * 60 + m };
  return { unit: "Seconds", amount: h * 3600 + m * 60 + s };
}

/** The statement that declares the resource named `name` (`… new X("name", …);`), as [start, end] offsets. */
function statementOf(source: string, name: string): [number, number] {
  const start = source.search(
    new RegExp(`^.*= new [\\w.]+\\(${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"),
  );
  if (start === -1) throw new Error(`the converted program declares no resource named ${name}`);
  const end = source.indexOf(");\n", start);
  return [start, end + 3];
}

/** Each resource's customTimeouts as a CustomResourceOptions of pulumi-java's (`.customTimeouts(…)`). */
export function javaCustomTimeouts(source: string, resources: PclResource[]): string {
  let fixed = source;
  for (const { logicalName, customTimeouts } of resources) {
    if (!customTimeouts) continue;
    const [start, end] = statementOf(fixed, logicalName);
    const statement = fixed.slice(start, end);
    const indent = /^(\s*)/.exec(statement)![1];
    const option = (pad: string) =>
      [
        `${pad}.customTimeouts(CustomTimeouts.builder()`,
        ...Object.entries(customTimeouts).map(([key, duration]) => {
          const { unit, amount } = durationParts(duration);
          return `${pad}    .${key}(Duration.of${unit}(${amount}))`;
        }),
        `${pad}    .build())`,
      ].join("\n");
    const inner = `${indent}        `;
    const withOption = statement.includes("CustomResourceOptions.builder()")
      ? statement.replace(/\n(\s*)\.build\(\)\);\n$/, (_, pad: string) => `\n${option(pad)}\n${pad}.build());\n`)
      : statement.replace(
          /\.build\(\)\);\n$/,
          `.build(), CustomResourceOptions.builder()\n${option(inner)}\n${inner}.build());\n`,
        );
    fixed = fixed.slice(0, start) + withOption + fixed.slice(end);
  }
  if (fixed === source) return source;
  const imports = [
    "com.pulumi.resources.CustomResourceOptions",
    "com.pulumi.resources.CustomTimeouts",
    "java.time.Duration",
  ]
    .filter((name) => !fixed.includes(`import ${name};`))
    .map((name) => `import ${name};\n`)
    .join("");
  return fixed.replace(/^import java\.util\.List;\n/m, `${imports}import java.util.List;\n`);
}

/**
 * What `pulumi convert --language csharp` (pulumi-dotnet v3.110.0's program generator) gets wrong for this
 * package: a resource's customTimeouts are left out (genResourceOptions writes no such option). Each is put back
 * as a CustomResourceOptions (`CustomTimeouts = new CustomTimeouts { Create = TimeSpan.FromMinutes(20) }`).
 */
export function fixConvertedCsharp(dir: string, pcl: string): void {
  const program = join(dir, "Program.cs");
  writeFileSync(program, csharpCustomTimeouts(readFileSync(program, "utf8"), pclResources(pcl)));
}

export function csharpCustomTimeouts(source: string, resources: PclResource[]): string {
  let fixed = source;
  for (const { logicalName, customTimeouts } of resources) {
    if (!customTimeouts) continue;
    const [start, end] = statementOf(fixed, logicalName);
    const statement = fixed.slice(start, end);
    const indent = /^(\s*)/.exec(statement)![1];
    const option = (pad: string) =>
      [
        `${pad}CustomTimeouts = new CustomTimeouts`,
        `${pad}{`,
        ...Object.entries(customTimeouts).map(([key, duration]) => {
          const { unit, amount } = durationParts(duration);
          return `${pad}    ${key[0].toUpperCase()}${key.slice(1)} = TimeSpan.From${unit}(${amount}),`;
        }),
        `${pad}},`,
      ].join("\n");
    const withOption = statement.includes("new CustomResourceOptions")
      ? statement.replace(new RegExp(`\\n${indent}\\}\\);\\n$`), `\n${option(`${indent}    `)}\n${indent}});\n`)
      : statement.replace(
          new RegExp(`\\n${indent}\\}\\);\\n$`),
          `\n${indent}}, new CustomResourceOptions\n${indent}{\n${option(`${indent}    `)}\n${indent}});\n`,
        );
    fixed = fixed.slice(0, start) + withOption + fixed.slice(end);
  }
  return fixed === source || /^using System;$/m.test(fixed) ? fixed : `using System;\n${fixed}`;
}

/**
 * What `pulumi convert --language go` (pkg/codegen/go at the pinned version) gets wrong for this package: an
 * invoke of `hosting:index:getRedis` is written `hosting.GetRedisOutput(…)`, but the Go SDK's generator
 * names a function `LookupRedis` when a resource `Redis` exists (the program generator's
 * useLookupInvokeForm looks the package's root module up under "index", where the SDK's generator keys it
 * ""). Each `hosting.Get<X>…` the SDK defines as `Lookup<X>…` is written so. And a list of objects in a
 * function's result (`${containers.services}`) is taken out with an ApplyT that type-asserts the field
 * (`containers.Services.([]hosting.GetContainersItem)`, which does not compile: the field is no interface) and the
 * output (`.(pulumi.ArrayOutput)`, a panic: it is a GetContainersItemArrayOutput): the result's output has the
 * accessor, `containers.Services()` (goListResults).
 */
export function fixConvertedGo(dir: string): void {
  const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
  const sdk = join(ROOT, "sdk/go", schema.name);
  const lookups = new Set(
    readdirSync(sdk)
      .filter((file) => file.endsWith(".go"))
      .flatMap((file) => [...readFileSync(join(sdk, file), "utf8").matchAll(/^func Lookup(\w+)\(/gm)].map((m) => m[1])),
  );
  const main = join(dir, "main.go");
  writeFileSync(
    main,
    goListResults(readFileSync(main, "utf8")).replace(
      new RegExp(`\\b${schema.name}\\.Get(\\w+?)(OutputArgs|Output|Args|Result)?\\b`, "g"),
      (call, name: string, suffix = "") => (lookups.has(name) ? `${schema.name}.Lookup${name}${suffix}` : call),
    ),
  );
}

/** `x.ApplyT(func(x R) ([]T, error) { return x.Field.([]T), nil }).(pulumi.ArrayOutput)` as `x.Field()`. */
export function goListResults(source: string): string {
  const listResult =
    /\b(\w+)\.ApplyT\(func\([^{]*\{\s*return \w+\.(\w+)\.\(\S+\), nil\s*\}\)\.\(pulumi\.ArrayOutput\)/g;
  return source.replace(listResult, "$1.$2()");
}

/** `.links(db.id())` as `.links(Output.all(db.id()))`, for every input of the schema that is a list. */
export function javaListsOfOutputs(source: string, schema: any): string {
  const lists = new Set<string>();
  for (const resource of Object.values<any>(schema.resources))
    for (const [name, property] of Object.entries<any>(resource.inputProperties ?? {}))
      if (property.type === "array") lists.add(name);
  return source.replace(/\.(\w+)\(([^()]*\(\)(?:, [^()]*\(\))*)\)$/gm, (call, name, args) =>
    lists.has(name) ? `.${name}(Output.all(${args}))` : call,
  );
}

/** A program's source in each language, by the language's id. */
export type Sources = Record<Language["id"], string>;

const fenced = (language: Language, code: string) => `\`\`\`${language.fence}\n${code.trimEnd()}\n\`\`\``;

/** The Pulumi Registry's form: its language chooser, a choosable block for each language given, in its order. */
export function registryChooser(sources: Partial<Sources>): string {
  const shown = LANGUAGES.filter((language) => sources[language.id] !== undefined);
  return [
    `{{< chooser language "${shown.map((language) => language.id).join(",")}" >}}`,
    ...shown.map(
      (language) =>
        `{{% choosable language ${language.id} %}}\n\n${fenced(language, sources[language.id]!)}\n\n{{% /choosable %}}`,
    ),
    "{{< /chooser >}}",
  ].join("\n\n");
}

const CONVERTED = /<!-- converted: ([\w-]+) -->\n[\s\S]*?<!-- \/converted -->/g;

/** `text` with its section `<!-- converted: name -->` … `<!-- /converted -->` holding `body`. */
export function withConverted(page: string, text: string, name: string, body: string): string {
  const found = [...text.matchAll(CONVERTED)].filter((match) => match[1] === name).length;
  if (found !== 1)
    throw new Error(
      `${page} has ${found === 0 ? "no" : found} section "${name}": put <!-- converted: ${name} --> and <!-- /converted --> on lines of their own where it goes`,
    );
  return text.replace(CONVERTED, (whole, found: string) =>
    found === name ? `<!-- converted: ${name} -->\n\n${body}\n\n<!-- /converted -->` : whole,
  );
}
