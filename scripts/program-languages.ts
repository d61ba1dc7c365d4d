// One program in every language Pulumi users write, from one source in YAML: `pulumi convert --from yaml
// --language <language>` (pulumi-converter-yaml, then Pulumi's generators: the real hosts beside the CLI, or
// scripts/pulumi-codegen.sh's for the languages whose host is missing here), what pulumi-java's program
// generator gets wrong put right, and the result as the docs show it: the Pulumi Registry's language
// chooser (docs/_index.md). make docs-languages writes them (scripts/gen-languages.ts);
// the end-to-end suite runs every language but C# and fails when the pages are stale
// (test/e2e/languages.test.ts).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

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
] as const;

/**
 * `pulumi convert` of the YAML project in `sourceDir` into `out` (`--generate-only`). `env` carries PATH (the
 * CLI and the code generators first) and a PULUMI_HOME whose plugins include this package's: the converter
 * reads the schema from the plugin.
 */
export async function convert(sourceDir: string, language: Language, out: string, env: NodeJS.ProcessEnv) {
  if (!language.convert) throw new Error(`${language.title} is the source: there is nothing to convert`);
  const args = ["convert", "--from", "yaml", "--language", language.convert, "--out", out, "--generate-only"];
  try {
    await promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd: sourceDir, env, maxBuffer: 16 << 20 });
  } catch (err: any) {
    throw new Error(`pulumi ${args.join(" ")} failed: ${err.stdout}${err.stderr}`);
  }
  if (language.id === "java") fixConvertedJava(out);
  if (language.id === "go") fixConvertedGo(out);
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
 *   inputs.GetRedisArgs) whatever the basePackage, where the resources' imports have it right.
 */
export function fixConvertedJava(dir: string): void {
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
  writeFileSync(app, javaListsOfOutputs(source, schema));
}

/**
 * What `pulumi convert --language go` (pkg/codegen/go at the pinned version) gets wrong for this package: an
 * invoke of `hosting:index:getRedis` is written `hosting.GetRedisOutput(…)`, but the Go SDK's generator
 * names a function `LookupRedis` when a resource `Redis` exists (the program generator's
 * useLookupInvokeForm looks the package's root module up under "index", where the SDK's generator keys it
 * ""). Each `hosting.Get<X>…` the SDK defines as `Lookup<X>…` is written so.
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
    readFileSync(main, "utf8").replace(
      new RegExp(`\\b${schema.name}\\.Get(\\w+?)(OutputArgs|Output|Args|Result)?\\b`, "g"),
      (call, name: string, suffix = "") => (lookups.has(name) ? `${schema.name}.Lookup${name}${suffix}` : call),
    ),
  );
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

/** The Pulumi Registry's form: its language chooser, one choosable block per language. */
export function registryChooser(sources: Sources): string {
  return [
    `{{< chooser language "${LANGUAGES.map((language) => language.id).join(",")}" >}}`,
    ...LANGUAGES.map(
      (language) =>
        `{{% choosable language ${language.id} %}}\n\n${fenced(language, sources[language.id])}\n\n{{% /choosable %}}`,
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
