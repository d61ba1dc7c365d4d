// What running a program in Python, Go and Java takes here, made once and kept outside the repository
// (${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting), keyed by what it is made from, so a second run of the
// suite finds it: a virtualenv with `pulumi` from PyPI and the generated sdk/python; the Go inline runner
// compiled against sdk/go and github.com/pulumi/pulumi/sdk/v3; sdk/java installed into the suite's Maven
// repository (scripts/java-sdk.sh). Each says on stderr what it made and how long it took, or that the
// cache had it.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../harness";

const run = promisify(execFile);

/** The Python SDK from PyPI the generated package runs on (the generator asks for >=3.269). */
export const PYTHON_PULUMI = "3.272.0";
/** The Go SDK module the generated Go SDK and the runner build against: the CLI's version. */
const GO_PULUMI = "v3.274.1";

export const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-hosting");
/** Maven's repository for the suite (scripts/java-sdk.sh installs sdk/java there). */
export const MAVEN_REPOSITORY = join(CACHE, "maven");

/** A digest of files and folders (their paths and bytes), for cache keys. */
export function digestOf(...paths: string[]): string {
  const hash = createHash("sha256");
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) add(join(path, entry));
    else hash.update(relative(ROOT, path)).update(readFileSync(path));
  };
  for (const path of paths) add(path);
  return hash.digest("hex").slice(0, 16);
}

/** Runs `make()` unless `marker` exists, saying which on stderr; `make` builds into the place `marker` guards. */
async function once(what: string, marker: string, make: () => Promise<void>): Promise<void> {
  if (existsSync(marker)) {
    process.stderr.write(`languages: ${what}: from the cache (${marker})\n`);
    return;
  }
  const started = Date.now();
  await make();
  writeFileSync(marker, new Date().toISOString());
  process.stderr.write(`languages: ${what}: made in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const exec = async (file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
  try {
    return await run(file, args, { maxBuffer: 64 << 20, ...options });
  } catch (err: any) {
    throw new Error(`${file} ${args.join(" ")} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`);
  }
};

/**
 * A virtualenv with pulumi==PYTHON_PULUMI from PyPI (kept while that version is pinned), and the generated
 * sdk/python installed in it as pip installs the published package (rebuilt when sdk/python changes): its
 * python executable.
 */
export async function pythonWithSdk(): Promise<string> {
  const venv = join(CACHE, `python-pulumi-${PYTHON_PULUMI}`);
  const python = join(venv, "bin", "python");
  await once(`a virtualenv with pulumi ${PYTHON_PULUMI} from PyPI`, join(venv, ".made"), async () => {
    rmSync(venv, { recursive: true, force: true });
    await exec("python3", ["-m", "venv", venv]);
    await exec(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi==${PYTHON_PULUMI}`]);
  });
  const sdk = join(ROOT, "sdk/python");
  const digest = digestOf(sdk);
  await once("sdk/python installed in it", join(venv, `.sdk-${digest}`), async () => {
    // The package as it is published: sdk/python with its README beside pyproject.toml (scripts/release-dry-run.sh).
    const copy = join(venv, "sdk-build");
    rmSync(copy, { recursive: true, force: true });
    cpSync(sdk, copy, { recursive: true });
    cpSync(join(sdk, "pulumi_hosting/README.md"), join(copy, "README.md"));
    await exec(python, [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "--force-reinstall",
      "--no-deps",
      copy,
    ]);
    for (const old of readdirSync(venv).filter((name) => name.startsWith(".sdk-"))) rmSync(join(venv, old));
  });
  return python;
}

/**
 * The Go runner (languages/go/inline.go) with `program` (a main.go from `pulumi convert`, its pulumi.Run
 * renamed inlineRun) compiled against the repository's sdk/ module and the Pulumi Go SDK: its binary.
 */
export async function goInlineProgram(program: string): Promise<string> {
  const source = program.replace(/\bpulumi\.Run\(/, "inlineRun(");
  if (source === program) throw new Error("the Go program calls no pulumi.Run: it is not what pulumi convert writes");
  const runner = join(__dirname, "go/inline.go");
  const digest = createHash("sha256")
    .update(source)
    .update(readFileSync(runner))
    .update(digestOf(join(ROOT, "sdk/go"), join(ROOT, "sdk/go.mod"), join(ROOT, "sdk/go.sum")))
    .digest("hex")
    .slice(0, 16);
  const dir = join(CACHE, "go-inline");
  const binary = join(dir, `program-${digest}`);
  await once("the Go program compiled", `${binary}.made`, async () => {
    const module = join(dir, `module-${digest}`);
    rmSync(module, { recursive: true, force: true });
    mkdirSync(module, { recursive: true });
    writeFileSync(join(module, "main.go"), source);
    cpSync(runner, join(module, "inline.go"));
    const sdkModule = readFileSync(join(ROOT, "sdk/go.mod"), "utf8").match(/^module (\S+)$/m)![1];
    writeFileSync(
      join(module, "go.mod"),
      `module hosting-e2e\n\ngo 1.25\n\nrequire (\n\t${sdkModule} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${GO_PULUMI}\n)\n\nreplace ${sdkModule} => ${join(ROOT, "sdk")}\n`,
    );
    const env = { ...process.env, GOFLAGS: "-mod=mod" };
    await exec("go", ["mod", "tidy"], { cwd: module, env });
    await exec("go", ["build", "-o", `${binary}.tmp`, "."], { cwd: module, env });
    renameSync(`${binary}.tmp`, binary);
    rmSync(module, { recursive: true, force: true });
  });
  return binary;
}

/** sdk/java built and installed into MAVEN_REPOSITORY (again when sdk/java changes). */
export async function javaSdkInstalled(): Promise<void> {
  const digest = digestOf(join(ROOT, "sdk/java"));
  mkdirSync(MAVEN_REPOSITORY, { recursive: true });
  await once("sdk/java installed into the suite's Maven repository", join(MAVEN_REPOSITORY, `.sdk-${digest}`), () =>
    exec(join(ROOT, "scripts/java-sdk.sh"), ["install"]).then(() => {
      for (const old of readdirSync(MAVEN_REPOSITORY).filter((name) => name.startsWith(".sdk-")))
        rmSync(join(MAVEN_REPOSITORY, old));
    }),
  );
}
