// `make docs-languages`: the docs' programs in every language (scripts/program-languages.ts): each YAML
// source converted by `pulumi convert` with the CLI at the pinned version (make pulumi-cli) and Pulumi's
// generators (scripts/pulumi-codegen.sh for the hosts the CLI here lacks), the plugin of this checkout
// (make build) installed in a Pulumi home of its own for its schema; then docs/_index.md's chooser that
// shows them.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { convert, LANGUAGES, PROGRAMS, registryChooser, type Sources, withConverted } from "./program-languages";

// make runs it from the repository (run-ts.mjs compiles it elsewhere).
const ROOT = resolve(".");
const binDir = (script: string) =>
  execFileSync(join(ROOT, "scripts", script), ["--bin-dir"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

async function main() {
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
      const source = join(work, program.name, "source");
      mkdirSync(source, { recursive: true });
      copyFileSync(join(ROOT, program.source), join(source, "Pulumi.yaml"));
      const sources = {} as Sources;
      for (const language of LANGUAGES) {
        if (!language.convert) {
          sources[language.id] = readFileSync(join(ROOT, program.source), "utf8");
          continue;
        }
        const out = join(work, program.name, language.id);
        await convert(source, language, out, env);
        sources[language.id] = readFileSync(join(out, language.file), "utf8");
      }
      const page = join(ROOT, program.registry);
      const text = readFileSync(page, "utf8");
      writeFileSync(page, withConverted(program.registry, text, program.name, registryChooser(sources)));
      console.log(`${program.source}: ${LANGUAGES.map((l) => l.title).join(", ")} into ${program.registry}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`make docs-languages: ${err.message}`);
  process.exit(1);
});
