// The end-to-end tier: the real `pulumi` CLI (make pulumi-cli: the pinned version, from PATH, its
// release or a build from Go modules), a local file backend, passphrase secrets, the plugin installed
// into a Pulumi home of the test's own, and the simulator in this process on a loopback port, so a
// test reads the platform's records beside the CLI's output.
//
// TypeScript programs run through the Automation API as inline programs (the CLI needs no language
// host for them); programs the CLI must run from their folder (the workflow scripts, import, a SIGINT)
// are YAML, run by pulumi-language-yaml. jest.config.js maps `@hosting/pulumi` to sdk/nodejs and
// `@pulumi/pulumi` to one copy, so a program and the Automation API share one runtime.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import { constants, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import * as hosting from "@hosting/pulumi";
import * as pulumi from "@pulumi/pulumi";
import {
  type ConfigMap,
  type EngineEvent,
  LocalWorkspace,
  PulumiCommand,
  type PulumiFn,
  type Stack,
  type StepEventMetadata,
  type UpResult,
} from "@pulumi/pulumi/automation";
import * as ts from "typescript";
import { type ExampleValue, isExampleSecret, isReference } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import {
  ALICE,
  type RequestLogEntry,
  type SimKind,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from "../../simulator/src";

export const ROOT = resolve(__dirname, "../..");
export const PROJECT_ID = ALICE.projects[0];
const VERSION: string = require("../../package.json").version;

/** The plugin the engine runs: the development build (bin/) or the single executable users install (dist/). */
export type PluginBuild = "build" | "single executable";

const PLUGIN_FILES: Record<PluginBuild, string[]> = {
  build: [
    "bin/pulumi-resource-hosting",
    "bin/pulumi-resource-hosting.server.js",
    "bin/pulumi-resource-hosting.server.cache",
    "bin/pulumi-resource-hosting.provider.js",
    "bin/pulumi-resource-hosting.provider.cache",
    "bin/pulumi-resource-hosting.undici.js",
  ],
  "single executable": ["dist/pulumi-resource-hosting"],
};

let binDir: string | undefined;
/** The folder holding `pulumi` and `pulumi-language-yaml` (scripts/pulumi-cli.sh; `make test` runs it first). */
export function cliBinDir(): string {
  if (binDir) return binDir;
  try {
    binDir = execFileSync(join(ROOT, "scripts/pulumi-cli.sh"), ["--bin-dir"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (err: any) {
    throw new Error(`the end-to-end suite needs the Pulumi CLI, and make pulumi-cli could not give it: ${err.stderr}`);
  }
  return binDir;
}

/** `pulumi version` of the CLI the suite runs. */
export const cliVersion = () => execFileSync(join(cliBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface E2EOptions {
  plugin?: PluginBuild;
  simulator?: SimulatorOptions;
  /**
   * A simulator state file (`--state`'s format: simulator.json of an upgrade fixture): the world the
   * simulator starts with. It is copied into the test's folder first, since the simulator writes to its file.
   */
  world?: string;
  /**
   * Have the CLI log every gRPC call it makes (PULUMI_DEBUG_GRPC, a file in `work`), for `providerCalls()`: what the
   * real engine sends the plugin and what it answers, to hold test/grpc/engine.ts's sequences to.
   */
  traceGrpc?: boolean;
}

/** One call the engine made to the plugin (PULUMI_DEBUG_GRPC's log): `Check`, its request, its answer or its errors. */
export interface ProviderCall {
  method: string;
  request: any;
  response?: any;
  errors?: string[];
}

/** Settings of a stack's project beyond its name and runtime. */
export interface ProjectOptions {
  /** The project's configuration in Pulumi.yaml (`config: { key: { value } }`), as Pulumi documents autonaming's. */
  config?: Record<string, unknown>;
}

/** A `pulumi` command still running (e2e.spawnCli), for a test that acts on what it prints (a SIGINT). */
export interface RunningCli {
  child: ChildProcess;
  /** What it printed so far, stdout and stderr as they came. */
  output(): string;
  /** Resolves with the output so far once it matches `pattern`; rejects if the command ends first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Its end: the exit code (a signal's number past 128, as a shell gives it), stdout and stderr. */
  exited: Promise<CliResult>;
  /**
   * Ctrl-C as a terminal sends it: SIGINT to the command's process group (the CLI and its language host; the engine
   * starts each plugin in a process group of its own, and stops it itself).
   */
  interrupt(): void;
}

export interface E2E {
  sim: Simulator;
  /** This test file's folder: Pulumi home, state backend, projects. Removed after the file. */
  work: string;
  /** What every CLI run gets: the CLI first on PATH, the Pulumi home, the backend, the passphrase. */
  env: Record<string, string>;
  /** The provider's stack configuration for the simulator's first user. */
  providerConfig: ConfigMap;
  /** A stack of an inline program, created (or selected) with the provider configured. */
  stack(
    project: string,
    stackName: string,
    program: PulumiFn,
    config?: ConfigMap,
    projectOptions?: ProjectOptions,
  ): Promise<Stack>;
  /** A YAML project in a folder of its own (Pulumi.yaml from `program`), for the CLI run in that folder. */
  yamlProject(name: string, program: Record<string, unknown>): string;
  /** `pulumi <args>` in `cwd`, never throwing: the exit code, stdout and stderr. */
  cli(args: string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<CliResult>;
  /** The simulator's records of one kind that are not deleted. */
  records(kind: SimKind): any[];
  /**
   * A YAML project as `yamlProject` makes it, with a stack initialised and the provider configured for
   * the simulator, and `config` besides (`{ key: { value, secret } }`, set in one `pulumi config set-all`).
   */
  yamlStack(
    name: string,
    program: Record<string, unknown>,
    options?: { stack?: string; config?: ConfigMap },
  ): Promise<string>;
  /** `pulumi <args>` started in `cwd`, not awaited: for a test that acts while it runs. */
  spawnCli(args: string[], options?: { cwd?: string; env?: Record<string, string> }): RunningCli;
  /** The simulator's API called as its first user (`path` under /v1), as a user's script would. */
  api(method: string, path: string, body?: unknown): Promise<any>;
  /**
   * The simulator's record (not deleted) that a resource's id names, whatever its kind (an attachment's
   * id is `<volumeId>:<containerId>`).
   */
  recordOf(id: string): { kind: SimKind; record: any } | undefined;
  /** With `traceGrpc`: every call the engine made to the plugin so far, in order (slice from a count taken before). */
  providerCalls(): ProviderCall[];
}

/** One simulator, one Pulumi home with the plugin installed, one backend per test file. */
export function useE2E(options: E2EOptions = {}): E2E {
  const e2e = {} as E2E;
  let command: PulumiCommand;
  const running = new Set<ChildProcess>();
  beforeAll(async () => {
    forgiveLateMonitorErrors();
    e2e.work = mkdtempSync(join(tmpdir(), "hosting-e2e-"));
    let stateFile: string | undefined;
    if (options.world) copyFileSync(options.world, (stateFile = join(e2e.work, "simulator.json")));
    e2e.sim = await startSimulator({
      volumeProvisioningMs: 200,
      ...options.simulator,
      ...(stateFile ? { stateFile } : {}),
    });
    const home = join(e2e.work, "pulumi-home");
    installPlugin(home, options.plugin ?? "build");
    mkdirSync(join(e2e.work, "state"));
    e2e.env = {
      PATH: `${cliBinDir()}:${process.env.PATH}`,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${join(e2e.work, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "e2e passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      ...(options.traceGrpc ? { PULUMI_DEBUG_GRPC: join(e2e.work, "grpc.jsonl") } : {}),
    };
    e2e.providerConfig = {
      "hosting:baseUrl": { value: e2e.sim.url },
      "hosting:token": { value: ALICE.token, secret: true },
      "hosting:projectId": { value: PROJECT_ID },
    };
    command = await PulumiCommand.get({ root: dirname(cliBinDir()) });
  });
  afterAll(async () => {
    // A command a failed test left running (spawnCli): its process group. Its plugins, in groups of their own, exit
    // once they find its engine gone.
    for (const child of running) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // It ended meanwhile.
      }
    }
    await e2e.sim?.close();
    if (e2e.work) rmSync(e2e.work, { recursive: true, force: true });
  });

  e2e.stack = async (project, stackName, program, config = {}, projectOptions = {}) => {
    const dir = join(e2e.work, "projects", project);
    mkdirSync(dir, { recursive: true });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, projectName: project, program },
      {
        workDir: dir,
        pulumiCommand: command,
        envVars: e2e.env,
        projectSettings: {
          name: project,
          runtime: "nodejs",
          backend: { url: e2e.env.PULUMI_BACKEND_URL },
          // ProjectSettings types `config` as the folder of stack files; Pulumi.yaml's `config` is this map.
          ...(projectOptions.config ? { config: projectOptions.config as unknown as string } : {}),
        },
      },
    );
    await stack.setAllConfig({ ...e2e.providerConfig, ...config });
    return stack;
  };

  e2e.yamlProject = (name, program) => {
    const dir = join(e2e.work, "yaml", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "Pulumi.yaml"), JSON.stringify({ name, runtime: "yaml", ...program }, null, 2));
    return dir;
  };

  e2e.cli = (args, { cwd = e2e.work, env = {}, timeoutMs = 240_000 } = {}) =>
    new Promise((done) => {
      execFile(
        join(cliBinDir(), "pulumi"),
        [...args, "--non-interactive"],
        { cwd, env: { ...process.env, ...e2e.env, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 },
        (err, stdout, stderr) => done({ code: err ? Number((err as any).code ?? 1) : 0, stdout, stderr }),
      );
    });

  e2e.records = (kind) => (e2e.sim.control.snapshot()[kind] as any[]).filter((r) => !r.deleted_at);

  e2e.yamlStack = async (name, program, { stack = "dev", config = {} } = {}) => {
    const dir = e2e.yamlProject(name, program);
    const init = await e2e.cli(["stack", "init", stack], { cwd: dir });
    if (init.code !== 0) throw new Error(`pulumi stack init ${stack} failed: ${init.stderr}`);
    const pairs = Object.entries({ ...e2e.providerConfig, ...config }).flatMap(([key, { value, secret }]) => [
      secret ? "--secret" : "--plaintext",
      `${key}=${value}`,
    ]);
    const set = await e2e.cli(["config", "set-all", ...pairs], { cwd: dir });
    if (set.code !== 0) throw new Error(`pulumi config set-all failed: ${set.stderr}`);
    return dir;
  };

  e2e.spawnCli = (args, { cwd = e2e.work, env = {} } = {}) => {
    const child = spawn(join(cliBinDir(), "pulumi"), [...args, "--non-interactive"], {
      cwd,
      env: { ...process.env, ...e2e.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      // A process group of its own, as a terminal's foreground job is, for `interrupt`.
      detached: true,
    });
    running.add(child);
    const printed = { output: "", stdout: "", stderr: "", ended: false };
    const heard = new EventEmitter();
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream]!.on("data", (chunk) => {
        printed[stream] += chunk;
        printed.output += chunk;
        heard.emit("change");
      });
    }
    const exited = new Promise<CliResult>((done) =>
      child.on("close", (code, signal) => {
        running.delete(child);
        printed.ended = true;
        done({
          code: code ?? 128 + (signal ? constants.signals[signal] : 0),
          stdout: printed.stdout,
          stderr: printed.stderr,
        });
        heard.emit("change");
      }),
    );
    const waitFor = (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (pattern.test(printed.output)) resolve(printed.output);
          else if (printed.ended)
            reject(new Error(`pulumi ${args.join(" ")} ended before printing ${pattern}:\n${printed.output}`));
          else return;
          heard.off("change", check);
        };
        heard.on("change", check);
        check();
      });
    const interrupt = () => process.kill(-child.pid!, "SIGINT");
    return { child, output: () => printed.output, waitFor, exited, interrupt };
  };

  e2e.api = async (method, path, body) => {
    const res = await fetch(`${e2e.sim.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  e2e.recordOf = (id) => {
    const world = e2e.sim.control.snapshot();
    for (const kind of Object.keys(world) as SimKind[]) {
      if (!Array.isArray(world[kind])) continue;
      const record = (world[kind] as any[]).find(
        (r) => !r.deleted_at && (r.id === id || (kind === "attachments" && `${r.volume_id}:${r.container_id}` === id)),
      );
      if (record) return { kind, record };
    }
    return undefined;
  };
  e2e.providerCalls = () => {
    if (!options.traceGrpc) throw new Error("providerCalls() needs useE2E({ traceGrpc: true })");
    const log = join(e2e.work, "grpc.jsonl");
    if (!existsSync(log)) return [];
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.includes('"response_completed"'))
      .map((line) => JSON.parse(line))
      .filter(({ method }) => method.startsWith("/pulumirpc.ResourceProvider/"))
      .map(({ method, request, response, errors }) => ({ method: method.split("/").pop(), request, response, errors }));
  };
  return e2e;
}

/**
 * An inline program's runtime (@pulumi/pulumi) turns an RPC that fails because the engine has ended the run into a
 * rejection no one handles ("Resource monitor is terminating": runtime/resource.ts propagates it on purpose, for the
 * Automation API's run to count). When the engine ends the run itself, as it does when an operation fails (a Check
 * the test expects to fail), an RPC still on its way (the stack's outputs) can fail just after that run has returned:
 * the operation's result already says what happened, and the rejection would only fail whichever test runs next. Such
 * a rejection is handled here, which also takes it back from jest (Node.js then emits `rejectionHandled`). Any other
 * rejection is left to fail the test. It listens on the worker's own process (environment.js): jest's, after jest's.
 */
let forgiving = false;
export function forgiveLateMonitorErrors(): void {
  if (forgiving) return;
  forgiving = true;
  const worker: NodeJS.Process = (globalThis as { __workerProcess?: NodeJS.Process }).__workerProcess ?? process;
  worker.on("unhandledRejection", (reason, promise) => {
    if (reason instanceof Error && reason.message === "Resource monitor is terminating") promise.catch(() => undefined);
  });
}

/** The plugin in `home`'s plugin folder, where the engine looks for resource plugin hosting v<version>. */
export function installPlugin(home: string, build: PluginBuild): string {
  const dir = join(home, "plugins", `resource-hosting-v${VERSION}`);
  mkdirSync(dir, { recursive: true });
  for (const file of PLUGIN_FILES[build]) {
    const from = join(ROOT, file);
    if (!existsSync(from)) throw new Error(`${from} is missing: run make build package (make test builds both first)`);
    cpSync(from, join(dir, file.split("/").pop()!));
  }
  return dir;
}

/**
 * A TypeScript program file as an inline program: compiled to CommonJS and evaluated afresh on every
 * run with this test's `require`, so it shares the Automation API's `@pulumi/pulumi`, and its exports
 * become the stack's outputs, as the Node.js language host makes them.
 */
export function programFromFile(file: string, replacements: Record<string, string> = {}): PulumiFn {
  let source = readFileSync(file, "utf8");
  for (const [from, to] of Object.entries(replacements)) source = source.split(from).join(to);
  return programFromSource(source, file);
}

export function programFromSource(source: string, fileName = "index.ts"): PulumiFn {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
    fileName,
  });
  return async () => {
    const module = { exports: {} as Record<string, unknown> };
    new Function("require", "module", "exports", outputText)(require, module, module.exports);
    return module.exports;
  };
}

/** The count of each step kind in an `up`'s summary (create, update, replace, delete, same). */
export const changes = (result: UpResult) => result.summary.resourceChanges ?? {};

/**
 * A resource's first example (its declaration's, the one the docs show) as an inline program: what the example
 * refers to first, each from its own first example, then the resource itself with the example's options (and
 * `options`, e.g. a test's `ignoreChanges`). A secret is read from the stack configuration the example names, which
 * `config` holds. The program exports each resource's id under its type name (`ids.Container`).
 */
export function exampleProgram(
  typeName: string,
  project: string,
  options: pulumi.CustomResourceOptions = {},
): { program: PulumiFn; config: ConfigMap } {
  const declarations = new Map(hostingPackage.resources.map((r) => [r.typeName, r]));
  const config: ConfigMap = {};
  const learnSecrets = (value: ExampleValue): void => {
    if (isExampleSecret(value)) config[`${project}:${value.secretConfig}`] = { value: value.sample, secret: true };
    else if (value && typeof value === "object" && !isReference(value)) Object.values(value).forEach(learnSecrets);
  };
  const program: PulumiFn = async () => {
    const made = new Map<string, pulumi.CustomResource>();
    const declare = (name: string): pulumi.CustomResource => {
      const declaration = declarations.get(name);
      if (!declaration) throw new Error(`an example refers to ${name}, which the package does not declare`);
      const example = declaration.examples[0];
      const value = (v: ExampleValue): unknown => {
        if (isReference(v)) return (made.get(v.reference) ?? declare(v.reference))[v.output as "id"];
        if (isExampleSecret(v)) return new pulumi.Config().requireSecret(v.secretConfig);
        if (Array.isArray(v)) return v.map(value);
        if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, value(e)]));
        return v;
      };
      const inputs = value(example.inputs);
      const Resource = (hosting as unknown as Record<string, new (...args: unknown[]) => pulumi.CustomResource>)[name];
      const resource = new Resource(example.name, inputs, {
        ...example.options,
        ...(name === typeName ? options : {}),
      });
      made.set(name, resource);
      return resource;
    };
    declare(typeName);
    return { ids: Object.fromEntries([...made].map(([name, resource]) => [name, resource.id])) };
  };
  const walk = (name: string): void => {
    const example = declarations.get(name)!.examples[0];
    learnSecrets(example.inputs);
    const refs = (v: ExampleValue): string[] =>
      isReference(v) ? [v.reference] : v && typeof v === "object" ? Object.values(v).flatMap(refs) : [];
    refs(example.inputs).forEach(walk);
  };
  walk(typeName);
  return { program, config };
}

/**
 * The creates and deletes of one collection's records that the simulator answered with success, in the order it
 * served them (`e2e.sim.control.requests().slice(mark)`): `create`, `delete <id>`. What a replacement did first.
 */
export function createsAndDeletes(requests: RequestLogEntry[], collection: string): string[] {
  return requests
    .filter((r) => r.status !== "reset" && r.status < 300)
    .flatMap((r) => {
      const path = r.path.split("?")[0];
      if (r.method === "POST" && path.endsWith(`/${collection}`)) return ["create"];
      const deleted = r.method === "DELETE" && path.match(new RegExp(`/${collection}/([^/]+)$`));
      return deleted ? [`delete ${deleted[1]}`] : [];
    });
}

/** `name` (a logical name, or `type::name`) is the resource of this URN. */
const isResource = (urn: string | undefined, name: string) => urn?.endsWith(`::${name}`) ?? false;

/**
 * One operation's engine events (pass `onEvent` to up, preview, refresh or destroy), and what a test reads from
 * them: the steps the engine took, the detailed diff it showed and the warnings, per resource (by its logical name,
 * or `type::name`).
 */
export class EngineEvents {
  readonly all: EngineEvent[] = [];
  readonly onEvent = (event: EngineEvent) => {
    this.all.push(event);
  };

  /** Each step as it began, in the engine's order. */
  steps(name?: string): StepEventMetadata[] {
    return this.all
      .flatMap((e) => (e.resourcePreEvent ? [e.resourcePreEvent.metadata] : []))
      .filter((m) => name === undefined || isResource(m.urn, name));
  }

  /** The ops of a resource's steps, in order (`["create-replacement", "replace", "delete-replaced"]`). */
  ops(name: string): string[] {
    return this.steps(name).map((m) => m.op);
  }

  /** The detailed diff the engine showed for a resource: each property path and its kind (`update`, `add`…). */
  detailedDiff(name: string): Record<string, string> {
    const diff: Record<string, string> = {};
    for (const e of this.all) {
      const metadata = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
      if (!metadata || !isResource(metadata.urn, name)) continue;
      for (const [path, { diffKind }] of Object.entries(metadata.detailedDiff ?? {})) diff[path] = diffKind;
    }
    return diff;
  }

  /** The diagnostics of one severity (`warning`, `error`, `info`), of a resource or of all, each once, trimmed. */
  diagnostics(severity: string, name?: string): string[] {
    const messages = this.all
      .flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []))
      .filter((d) => d.severity === severity && (name === undefined || isResource(d.urn, name)))
      .map((d) => d.message.trim());
    return [...new Set(messages)];
  }

  warnings(name?: string): string[] {
    return this.diagnostics("warning", name);
  }
}
