// The docs' program in every language Pulumi users write, under the real CLI: an app with its image in a
// private registry and a Postgres database linked to it, a worker with a volume attached, and an existing
// Redis cache read without being managed (docs/programs/example/Pulumi.yaml). YAML is the source;
// `pulumi convert` writes it in TypeScript, Python, Go, C# and Java (scripts/program-languages.ts: Pulumi's
// own generators, scripts/pulumi-codegen.sh's and Java's real host), and each program goes up, previews
// with no changes and is destroyed against the simulator, on the SDK `make sdk` generated for its language,
// with the platform's records read at each step:
// - YAML: pulumi-language-yaml runs it from its folder (it needs no SDK, only the plugin's schema);
// - TypeScript: an inline program of the Automation API (harness.ts), on sdk/nodejs;
// - Python: an inline program of Python's Automation API (languages/inline.py) in a virtualenv with `pulumi`
//   from PyPI and sdk/python (pulumi-language-python cannot be built here: the Go module proxy refuses it);
// - Go: an inline program of Go's Automation API (languages/go/inline.go, auto.UpsertStackInlineSource),
//   built against sdk/go and github.com/pulumi/pulumi/sdk/v3 (so is pulumi-language-go);
// - Java: pulumi-language-java (make pulumi-cli) runs it from its folder with Maven, on com.pulumi:pulumi
//   from Maven Central and sdk/java.
// C# is converted (the docs show it) but not run: no .NET SDK can be installed here. And docs/_index.md, which
// shows the program in every language, must show exactly what was converted and run.
import * as hosting from "@hosting/pulumi";
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  convert,
  LANGUAGES,
  type Language,
  PROGRAMS,
  registryChooser,
  type Sources,
  withConverted,
} from "../../scripts/program-languages";
import { cliBinDir, ROOT, programFromFile, useE2E } from "./harness";
import { goInlineProgram, javaSdkInstalled, MAVEN_REPOSITORY, pythonWithSdk } from "./languages/toolchains";

const e2e = useE2E();

const [PROGRAM] = PROGRAMS;
const language = (id: Language["id"]) => LANGUAGES.find((l) => l.id === id)!;
/** The program's configuration beside the provider's: the registry's password, a secret. */
const config = () => ({ ...e2e.providerConfig, ghcrToken: { value: "ghcr-token-e2e", secret: true } });

/** The code generators for the languages whose host the CLI here lacks (scripts/pulumi-codegen.sh). */
let codegenBin: Promise<string>;
beforeAll(async () => {
  codegenBin = new Promise((done, fail) =>
    execFile(join(ROOT, "scripts/pulumi-codegen.sh"), ["--bin-dir"], (err, stdout, stderr) =>
      err ? fail(new Error(`scripts/pulumi-codegen.sh failed: ${stderr}`)) : done(stdout.trim()),
    ),
  );
  // The Redis cache the program looks up, made by another stack, as "an existing cache" is.
  const stack = await e2e.stack("cache", "dev", async () => {
    new hosting.Redis("cache", { name: "cache" });
  });
  await stack.up();
});

/** The YAML source in a folder of the test's own. */
function sourceProject(name: string): string {
  const dir = join(e2e.work, "source", name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ROOT, PROGRAM.source), join(dir, "Pulumi.yaml"));
  return dir;
}

/** What every language's conversion wrote (the file each shows), kept for the pages' check. */
const sources: Partial<Sources> = { yaml: readFileSync(join(ROOT, PROGRAM.source), "utf8") };

/** `pulumi convert --from yaml --language <language>` of the source: the converted project's folder. */
async function converted(id: Language["id"]): Promise<string> {
  const out = join(e2e.work, "converted", id);
  await convert(sourceProject(`for-${id}`), language(id), out, {
    ...process.env,
    ...e2e.env,
    PATH: `${await codegenBin}:${e2e.env.PATH}`,
  });
  sources[id] = readFileSync(join(out, language(id).file), "utf8");
  return out;
}

const byType = (type: string) => e2e.records("services").filter((s) => s.type === type);

/** The program's world on the platform after `up` (every resource autonamed); the app, for its URL. */
function expectTheProgramsWorld() {
  const containers = byType("container");
  expect(containers.map((s) => [s.image, s.replicas]).sort()).toEqual([
    ["ghcr.io/acme/web:1.4.2", 2],
    ["ghcr.io/acme/worker:2.0.1", 1],
  ]);
  const [web, worker] = ["web", "worker"].map((name) => containers.find((s) => s.image.includes(`/${name}:`)));
  expect(web.name).toMatch(/^web-/);
  const [db] = byType("postgres");
  expect(db).toMatchObject({ name: expect.stringMatching(/^db-/), storage_gb: 10 });
  expect(e2e.records("registries")).toEqual([
    expect.objectContaining({ name: expect.stringMatching(/^ghcr-/), host: "ghcr.io", username: "ci" }),
  ]);
  expect(e2e.records("links")).toEqual([
    expect.objectContaining({ consumer_service_id: web.id, provider_service_id: db.id }),
  ]);
  const [volume] = e2e.records("volumes");
  expect(volume).toMatchObject({ name: expect.stringMatching(/^data-/), size_gb: 20 });
  expect(e2e.records("attachments")).toEqual([
    expect.objectContaining({ volume_id: volume.id, container_id: worker.id, mount_path: "/data" }),
  ]);
  return web;
}

/** After destroy: only the cache the program looked up and did not manage. */
function expectOnlyTheCacheLeft() {
  expect(e2e.records("services").map((s) => s.name)).toEqual(["cache"]);
  for (const kind of ["volumes", "attachments", "registries"] as const) expect(e2e.records(kind)).toEqual([]);
}

/** The outputs every language's program exports. */
function expectOutputs(outputs: Record<string, unknown>, web: any) {
  const [[db], [cache]] = [byType("postgres"), byType("redis")];
  expect(outputs).toEqual({ url: web.public_url, databaseHost: db.connection.host, cacheHost: cache.internal_host });
}

/** A program run as an inline program in another language: `<command> <step>` prints one line of JSON. */
function inlineRunner(command: string[], stack: string) {
  const env = {
    ...process.env,
    ...e2e.env,
    HOSTING_E2E_PROJECT: "hosting-example",
    HOSTING_E2E_STACK: stack,
    HOSTING_E2E_WORK_DIR: join(e2e.work, "inline", stack),
    HOSTING_E2E_CONFIG: JSON.stringify(config()),
  };
  mkdirSync(env.HOSTING_E2E_WORK_DIR, { recursive: true });
  return (step: "up" | "preview" | "destroy") =>
    new Promise<any>((done, fail) =>
      execFile(command[0], [...command.slice(1), step], { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        err
          ? fail(new Error(`${step} failed: ${stdout}${stderr}`))
          : done(JSON.parse(stdout.trim().split("\n").pop()!)),
      ),
    );
}

/** up, preview with no changes, destroy of an inline program, the platform's records read at each step. */
async function upPreviewDestroy(step: ReturnType<typeof inlineRunner>) {
  const up = await step("up");
  expect(up.changes).toEqual({ create: 7 });
  expectOutputs(up.outputs, expectTheProgramsWorld());
  const preview = await step("preview");
  expect(preview.changes).toEqual({ same: 7 });
  await step("destroy");
  expectOnlyTheCacheLeft();
}

/** The same three steps for a project the CLI runs from its folder (YAML, Java). */
async function upPreviewDestroyInFolder(dir: string, stack: string, env: Record<string, string> = {}) {
  const cli = (args: string[]) => e2e.cli(args, { cwd: dir, env });
  expect(await cli(["stack", "init", stack])).toMatchObject({ code: 0 });
  for (const [key, { value, secret }] of Object.entries(config()))
    expect(await cli(["config", "set", ...(secret ? ["--secret"] : []), key, value])).toMatchObject({ code: 0 });
  const up = await cli(["up", "--yes"]);
  expect(up).toMatchObject({ code: 0 });
  expect(up.stdout).toMatch(/\+ 7 created/);
  const web = expectTheProgramsWorld();
  expectOutputs(JSON.parse((await cli(["stack", "output", "--json", "--show-secrets"])).stdout), web);
  const preview = await cli(["preview", "--expect-no-changes"]);
  expect(preview).toMatchObject({ code: 0 });
  const destroy = await cli(["destroy", "--yes"]);
  expect(destroy).toMatchObject({ code: 0 });
  expectOnlyTheCacheLeft();
}

const ran: string[] = [];
afterAll(() => process.stderr.write(`languages: ran under the real CLI: ${ran.join(", ") || "none"}\n`));

test("YAML: pulumi-language-yaml runs the source from its folder", async () => {
  await upPreviewDestroyInFolder(sourceProject("yaml"), "yaml");
  ran.push("YAML");
});

test("TypeScript: the converted index.ts as an inline program, on sdk/nodejs", async () => {
  const dir = await converted("typescript");
  const stack = await e2e.stack("hosting-example", "typescript", programFromFile(join(dir, "index.ts")));
  await stack.setAllConfig(config());
  await upPreviewDestroy(async (step) => {
    if (step === "up") {
      const up = await stack.up();
      return {
        changes: up.summary.resourceChanges,
        outputs: Object.fromEntries(Object.entries(up.outputs).map(([key, output]) => [key, output.value])),
      };
    }
    if (step === "preview") return { changes: (await stack.preview({ expectNoChanges: true })).changeSummary };
    return { changes: (await stack.destroy()).summary.resourceChanges };
  });
  ran.push("TypeScript");
});

test("Python: the converted __main__.py as an inline program of Python's Automation API, on sdk/python", async () => {
  const dir = await converted("python");
  expect(readFileSync(join(dir, "requirements.txt"), "utf8")).toMatch(/^pulumi_hosting==/m);
  const python = await pythonWithSdk();
  await upPreviewDestroy(
    inlineRunner([python, join(__dirname, "languages/inline.py"), join(dir, "__main__.py")], "python"),
  );
  ran.push("Python");
});

test("Go: the converted main.go as an inline program of Go's Automation API, on sdk/go", async () => {
  const dir = await converted("go");
  const binary = await goInlineProgram(readFileSync(join(dir, "main.go"), "utf8"));
  await upPreviewDestroy(inlineRunner([binary], "go"));
  ran.push("Go");
});

test("Java: pulumi-language-java runs the converted project from its folder with Maven, on sdk/java", async () => {
  expect(existsSync(join(cliBinDir(), "pulumi-language-java"))).toBe(true);
  const dir = await converted("java");
  await javaSdkInstalled();
  await upPreviewDestroyInFolder(dir, "java", { MAVEN_OPTS: `-Dmaven.repo.local=${MAVEN_REPOSITORY}` });
  ran.push("Java");
});

test("C#: converted (the docs show it), not run: no .NET SDK can be installed here", async () => {
  const dir = await converted("csharp");
  const program = readFileSync(join(dir, "Program.cs"), "utf8");
  expect(program).toContain("using Hosting = PulumiHosting.Hosting;");
  expect(program).toContain('new Hosting.Container("web"');
});

test("docs/_index.md shows the program exactly as converted and run here (make docs-languages)", () => {
  expect(Object.keys(sources).sort()).toEqual(LANGUAGES.map((l) => l.id).sort());
  const page = PROGRAM.registry;
  const text = readFileSync(join(ROOT, page), "utf8");
  if (withConverted(page, text, PROGRAM.name, registryChooser(sources as Sources)) !== text)
    throw new Error(`${page}'s program in every language is stale: run make docs-languages and commit the result`);
});
