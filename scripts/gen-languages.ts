// `make docs-languages`: the docs' programs and the declarations' examples in every language
// (scripts/program-languages.ts): each YAML source converted by `pulumi convert` with the CLI at the pinned version
// (make pulumi-cli) and Pulumi's generators (scripts/pulumi-codegen.sh for the hosts the CLI here lacks), the plugin
// of this checkout (make build) installed in a Pulumi home of its own for its schema. Writes the pages' choosers
// (docs/_index.md, docs/first-program.md) and docs/programs/reference-examples.json, which `make schema` puts in
// schema.json's descriptions (so the SDKs' doc comments and the reference pages).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  CONVERTED_EXAMPLES,
  CONVERTED_LANGUAGES,
  convertedExamplesFile,
  exampleProject,
  fromPcl,
  LANGUAGES,
  PROGRAMS,
  registryChooser,
  type Sources,
  toPcl,
  withConverted,
} from "./program-languages";
import { type ConvertedExample, referenceExamples } from "../provider/src/framework/examples";
import { hostingPackage } from "../provider/src/package";

// make runs it from the repository (run-ts.mjs compiles it elsewhere).
const ROOT = resolve(".");
const binDir = (script: string) =>
  execFileSync(join(ROOT, "scripts", script), ["--bin-dir"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

/** `yaml` (a Pulumi.yaml) in `languages`, converted in `dir`: each language's file, by the language's id. */
async function converted(
  dir: string,
  yaml: string,
  languages: typeof LANGUAGES | typeof CONVERTED_LANGUAGES,
  env: NodeJS.ProcessEnv,
) {
  const source = join(dir, "source");
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, "Pulumi.yaml"), yaml);
  await toPcl(source, join(dir, "pcl"), env);
  const files: Partial<Sources> = {};
  for (const language of languages) {
    if (!language.convert) {
      files[language.id] = yaml;
      continue;
    }
    await fromPcl(join(dir, "pcl"), language, join(dir, language.id), env);
    files[language.id] = readFileSync(join(dir, language.id, language.file), "utf8");
  }
  return files;
}

/** `work` for each item, `parallel` at a time, results in the items' order. */
async function inParallel<T, R>(items: T[], parallel: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), "hosting-docs-languages-"));
  try {
    const home = join(work, "pulumi-home");
    execFileSync("make", ["--no-print-directory", "install-built"], {
      cwd: ROOT,
      env: { ...process.env, PULUMI_HOME: home },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const env = {
      ...process.env,
      PATH: `${binDir("pulumi-codegen.sh")}:${binDir("pulumi-cli.sh")}:${process.env.PATH}`,
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    for (const program of PROGRAMS) {
      const sources = (await converted(
        join(work, program.name),
        readFileSync(join(ROOT, program.source), "utf8"),
        LANGUAGES,
        env,
      )) as Sources;
      const page = join(ROOT, program.registry);
      const text = readFileSync(page, "utf8");
      writeFileSync(page, withConverted(program.registry, text, program.name, registryChooser(sources)));
      console.log(`${program.source}: ${LANGUAGES.map((l) => l.title).join(", ")} into ${program.registry}`);
    }
    const examples = referenceExamples(hostingPackage);
    // Two at a time: each conversion is a few processes, mostly waiting on each other.
    const conversions = await inParallel(examples, 2, async ({ token, yaml }, index) => {
      const files = await converted(join(work, `example-${index}`), exampleProject(yaml), CONVERTED_LANGUAGES, env);
      return { token, yaml, ...files } as { token: string } & ConvertedExample;
    });
    writeFileSync(join(ROOT, CONVERTED_EXAMPLES), convertedExamplesFile(conversions));
    const names = CONVERTED_LANGUAGES.map((l) => l.title).join(", ");
    console.log(`${examples.length} reference examples: ${names} into ${CONVERTED_EXAMPLES}`);
    console.log(`make docs-languages: converted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`make docs-languages: ${err.message}`);
  process.exit(1);
});
