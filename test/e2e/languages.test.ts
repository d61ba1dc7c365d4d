// One program in every language Pulumi users write, under the real CLI: an app, the Postgres it links to,
// and a volume attached to it (languages/Pulumi.yaml). YAML is the source; `pulumi convert` writes it in
// TypeScript, Python, Go and Java (Pulumi's own generators: scripts/pulumi-codegen.sh and Java's real host),
// and each program goes up, previews with no changes and is destroyed against the simulator, on the SDK
// `make sdk` generated for its language, with the platform's records read at each step:
// - YAML: pulumi-language-yaml runs it from its folder (it needs no SDK, only the plugin's schema);
// - TypeScript: an inline program of the Automation API (harness.ts), on sdk/nodejs;
// - Python: an inline program of Python's Automation API (languages/inline.py) in a virtualenv with `pulumi`
//   from PyPI and sdk/python (pulumi-language-python cannot be built here: the Go module proxy refuses it);
// - Go: an inline program of Go's Automation API (languages/go/inline.go, auto.UpsertStackInlineSource),
//   built against sdk/go and github.com/pulumi/pulumi/sdk/v3 (so is pulumi-language-go);
// - Java: pulumi-language-java (make pulumi-cli) runs it from its folder with Maven, on com.pulumi:pulumi
//   from Maven Central and sdk/java, once what pulumi-java's program generator gets wrong is put right
//   (languages/toolchains.ts, fixConvertedJava).
// C# is converted too (the docs show it) but not run: no .NET SDK can be installed here.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliBinDir, ROOT, programFromFile, useE2E } from "./harness";
import {
  fixConvertedJava,
  goInlineProgram,
  javaSdkInstalled,
  MAVEN_REPOSITORY,
  pythonWithSdk,
} from "./languages/toolchains";

const e2e = useE2E();
// A cold run builds a virtualenv, a Go program and the Java SDK (minutes); each language's steps take a minute.
jest.setTimeout(900_000);

const SOURCE = join(__dirname, "languages");
const IMAGE = "registry.example.com/team/web:1.0.0";

/** The code generators for the languages whose host the CLI here lacks (scripts/pulumi-codegen.sh). */
let codegenBin: Promise<string>;
beforeAll(() => {
  codegenBin = new Promise((done, fail) =>
    execFile(join(ROOT, "scripts/pulumi-codegen.sh"), ["--bin-dir"], (err, stdout, stderr) =>
      err ? fail(new Error(`scripts/pulumi-codegen.sh failed: ${stderr}`)) : done(stdout.trim()),
    ),
  );
});

/** The YAML source in a folder of the test's own. */
function sourceProject(name: string): string {
  const dir = join(e2e.work, "source", name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(SOURCE, "Pulumi.yaml"), join(dir, "Pulumi.yaml"));
  return dir;
}

/** `pulumi convert --from yaml --language <language>` of the source: the converted project's folder. */
async function converted(language: string): Promise<string> {
  const out = join(e2e.work, "converted", language);
  const result = await e2e.cli(["convert", "--from", "yaml", "--language", language, "--out", out, "--generate-only"], {
    cwd: sourceProject(`for-${language}`),
    env: { PATH: `${await codegenBin}:${e2e.env.PATH}` },
  });
  if (result.code !== 0)
    throw new Error(`pulumi convert --language ${language} failed: ${result.stdout}${result.stderr}`);
  return out;
}

/** The program's world on the platform after `up`: one app linked to one Postgres, one volume attached to it. */
function expectTheProgramsWorld() {
  const services = e2e.records("services");
  expect(services.map((s) => s.type).sort()).toEqual(["container", "postgres"]);
  const app = services.find((s) => s.type === "container");
  const db = services.find((s) => s.type === "postgres");
  expect(app.image).toBe(IMAGE);
  expect(e2e.records("links")).toEqual([
    expect.objectContaining({ consumer_service_id: app.id, provider_service_id: db.id }),
  ]);
  const [volume] = e2e.records("volumes");
  expect(volume).toMatchObject({ size_gb: 1 });
  expect(e2e.records("attachments")).toEqual([
    expect.objectContaining({ volume_id: volume.id, container_id: app.id, mount_path: "/data" }),
  ]);
  return app;
}

function expectNothingLeft() {
  for (const kind of ["services", "volumes", "attachments"] as const) expect(e2e.records(kind)).toEqual([]);
}

/** A program run as an inline program in another language: `<command> <step>` prints one line of JSON. */
function inlineRunner(command: string[], stack: string) {
  const env = {
    ...process.env,
    ...e2e.env,
    HOSTING_E2E_PROJECT: "first-app",
    HOSTING_E2E_STACK: stack,
    HOSTING_E2E_WORK_DIR: join(e2e.work, "inline", stack),
    HOSTING_E2E_CONFIG: JSON.stringify(e2e.providerConfig),
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
  expect(up.changes).toEqual({ create: 5 });
  const app = expectTheProgramsWorld();
  expect(up.outputs.url).toBe(app.public_url);
  const preview = await step("preview");
  expect(preview.changes).toEqual({ same: 5 });
  await step("destroy");
  expectNothingLeft();
}

/** The same three steps for a project the CLI runs from its folder (YAML, Java). */
async function upPreviewDestroyInFolder(dir: string, stack: string, env: Record<string, string> = {}) {
  const cli = (args: string[]) => e2e.cli(args, { cwd: dir, env });
  expect(await cli(["stack", "init", stack])).toMatchObject({ code: 0 });
  for (const [key, { value, secret }] of Object.entries(e2e.providerConfig))
    expect(await cli(["config", "set", ...(secret ? ["--secret"] : []), key, value])).toMatchObject({ code: 0 });
  const up = await cli(["up", "--yes"]);
  expect(up).toMatchObject({ code: 0 });
  expect(up.stdout).toMatch(/\+ 5 created/);
  const app = expectTheProgramsWorld();
  expect((await cli(["stack", "output", "url"])).stdout.trim()).toBe(app.public_url);
  const preview = await cli(["preview", "--expect-no-changes"]);
  expect(preview).toMatchObject({ code: 0 });
  const destroy = await cli(["destroy", "--yes"]);
  expect(destroy).toMatchObject({ code: 0 });
  expectNothingLeft();
}

const ran: string[] = [];
afterAll(() => process.stderr.write(`languages: ran under the real CLI: ${ran.join(", ") || "none"}\n`));

test("YAML: pulumi-language-yaml runs the source from its folder", async () => {
  await upPreviewDestroyInFolder(sourceProject("yaml"), "yaml");
  ran.push("YAML");
});

test("TypeScript: the converted index.ts as an inline program, on sdk/nodejs", async () => {
  const dir = await converted("typescript");
  const stack = await e2e.stack("first-app-typescript", "dev", programFromFile(join(dir, "index.ts")));
  await upPreviewDestroy(async (step) => {
    if (step === "up") {
      const up = await stack.up();
      return { changes: up.summary.resourceChanges, outputs: { url: up.outputs.url.value } };
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
  await upPreviewDestroy(inlineRunner([python, join(SOURCE, "inline.py"), join(dir, "__main__.py")], "python"));
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
  fixConvertedJava(dir);
  await javaSdkInstalled();
  await upPreviewDestroyInFolder(dir, "java", { MAVEN_OPTS: `-Dmaven.repo.local=${MAVEN_REPOSITORY}` });
  ran.push("Java");
});

test("C#: converted (the docs show it), not run: no .NET SDK can be installed here", async () => {
  const dir = await converted("csharp");
  const program = readFileSync(join(dir, "Program.cs"), "utf8");
  expect(program).toContain("using Hosting = PulumiHosting.Hosting;");
  expect(program).toContain('new Hosting.Container("app"');
});
