// The first stage's helpers (see main.ts): only Node's built-ins, and nothing here runs at import
// time beyond constants, so the port line never waits for it.
//
// - Which Node.js the plugin needs, and whether this one will do (undici needs >= 20.18.1).
// - Loading the second stage (server/start.ts bundled: gRPC and the Pulumi stubs) and the third
//   (server/provider.ts bundled: the provider and the API client) from beside the executable, or
//   from inside it when the plugin is a single executable (SEA), each with a V8 code cache made at
//   build time.
// - When the second stage cannot start, a stand-in gRPC server that answers every call with the
//   reason, because the engine shows a plugin's stderr only at debug level: without it, the user
//   sees nothing but "plugin did not begin responding".
import { readFile } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import type { Socket } from "node:net";
import { Script, constants } from "node:vm";
import { engines, homepage, pulumi, version } from "../../package.json";

export type SecondStage = typeof import("./server/start");
export type ThirdStage = typeof import("./server/provider");

/**
 * A stage's file beside the executable (the Node.js-script plugin, `make build` → bin/), and its V8 code cache; the
 * asset names inside the single executable are the same.
 */
export interface StageNames {
  file: string;
  cache: string;
}

/** The second stage: gRPC and the Pulumi stubs, loaded after the port line. */
export const SERVER: StageNames = {
  file: "pulumi-resource-hosting.server.js",
  cache: "pulumi-resource-hosting.server.cache",
};
/** The third stage: the provider and the API client, loaded after the first answer. */
export const PROVIDER: StageNames = {
  file: "pulumi-resource-hosting.provider.js",
  cache: "pulumi-resource-hosting.provider.cache",
};

// ---- what a person who runs it by hand reads ----

/** `pulumi-resource-hosting --version`: the package version, as GetPluginInfo reports it. */
export const VERSION: string = version;

/** `pulumi-resource-hosting --help`: one screen, for a person; the engine never asks for it. */
export function usage(): string {
  return `pulumi-resource-hosting ${version}: the Pulumi resource provider for the container hosting platform

You do not run it yourself: the Pulumi engine starts it, with the engine's address, as
  pulumi-resource-hosting [--logtostderr] [-v=N] [--tracing URL] <engine address>
and it answers on a loopback port that it prints as its only line on stdout. Install it with
  pulumi plugin install resource hosting ${version} --server ${pulumi.pluginDownloadURL}
and use it from a Pulumi program through its SDK (npm install @hosting/pulumi@${version}), or make
an SDK for your program's language with: pulumi package add <path to this executable>

Flags:
  --logtostderr   write the plugin's log to stderr
  -v=N            with --logtostderr and N > 0: trace every API request (the token never shows)
  --tracing URL   accepted from the engine and ignored
  --version       print the version (${version}) and exit
  -h, --help      print this help and exit

Documentation: ${homepage}
`;
}

/**
 * A command-line error as one line. Node's own words for some of them leave a quote unbalanced and
 * speak of positionals ("as in '-- "--bogus"").
 */
export function argumentError(err: Error & { code?: string }): string {
  const named = /'(-{1,2}[^' ]+)/.exec(err.message)?.[1];
  // parseArgs names the short option v, which the engine passes as -v=N, "--v".
  const option = JSON.stringify(named === "--v" ? "-v" : named);
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return `unknown option ${option}: the plugin takes --logtostderr, -v=N, --tracing URL, --version and --help, then the engine's address`;
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return /argument missing/.test(err.message)
      ? `option ${option} needs a value: ${named === "--v" ? "-v=N" : `${named} <value>`}`
      : `option ${option} takes no value`;
  return err.message;
}

/**
 * Whether a person started the plugin, in a terminal: the engine starts it with pipes for stdin,
 * stdout and stderr (and, speaking Handshake, may pass no address), never with a terminal.
 */
export function startedByHand(
  engineAddress: string | undefined,
  stdin: { isTTY?: boolean },
  stderr: { isTTY?: boolean },
): boolean {
  return engineAddress === undefined && Boolean(stdin.isTTY || stderr.isTTY);
}

/** What a person who started the plugin by hand reads on stderr, under the port line. */
export const byHandHint = (port: number): string =>
  `pulumi-resource-hosting: serving on 127.0.0.1:${port} for a Pulumi engine, which starts this plugin itself (pulumi preview, pulumi up): you need not run it. To debug it, keep it running (start it with --logtostderr -v=9 to trace every API request) and, in another terminal, run pulumi with PULUMI_DEBUG_PROVIDERS="hosting:${port}", which makes the engine use it; Ctrl-C stops it.`;

/** What the command line asks for before any serving: the version, the help, or neither. */
export function informationRequested(flags: { version?: unknown; help?: unknown }): string | undefined {
  if (flags.help === true) return usage();
  if (flags.version === true) return `${VERSION}\n`;
  return undefined;
}

// ---- the Node.js version ----

/** The lowest Node.js version from an `engines.node` range of the form `>=X.Y.Z` (package.json's). */
export function nodeFloor(range: string): string {
  const match = /^\s*>=\s*v?(\d+\.\d+\.\d+)\s*$/.exec(range);
  if (!match) throw new Error(`engines.node must be ">=X.Y.Z", not ${JSON.stringify(range)}`);
  return match[1];
}

/** Whether `version` (`v20.18.1`, `20.18.1`, `v22.0.0-pre`) is at least `floor` (`20.18.1`). */
export function versionAtLeast(version: string, floor: string): boolean {
  const parse = (v: string) => {
    const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
    if (!match) throw new Error(`not a Node.js version: ${JSON.stringify(v)}`);
    return match.slice(1).map(Number);
  };
  const [have, need] = [parse(version), parse(floor)];
  for (let i = 0; i < 3; i++) if (have[i] !== need[i]) return have[i] > need[i];
  return true;
}

/** The commands that replace the installed plugin with the released one (a single executable). */
const REINSTALL = `pulumi plugin rm resource hosting ${version} --yes, then pulumi plugin install resource hosting ${version} --server ${pulumi.pluginDownloadURL}`;

/** Why this Node.js cannot run the plugin, and what to do, or undefined when it can. */
export function nodeTooOld(running: string, range = engines.node, execPath = process.execPath): string | undefined {
  const floor = nodeFloor(range);
  if (versionAtLeast(running, floor)) return undefined;
  return `it needs Node.js ${floor} or newer, and the node that runs it (${execPath}) is ${running}. Put a newer Node.js first on PATH, or install the plugin's single executable, which needs none: ${REINSTALL}`;
}

// ---- the engine's health ----

/**
 * How often the plugin asks the engine that started it whether it is still there (grpc.health.v1's
 * Check, as Pulumi's Go providers ask every 5 minutes: sdk/go/pulumi/provider/main.go). Once the
 * engine is gone (the CLI killed, or its terminal closed), nothing the plugin does can be recorded,
 * yet a wait would go on polling the API for up to its timeout (10 minutes by default), spending the
 * account's rate limit beside the next `pulumi up`, and the plugin would then serve nobody for ever.
 * 5 s is less than a person takes to run the next command, and costs one empty call every 5 s on a
 * loopback connection already open (microseconds on each side), where 5 minutes would leave a killed
 * run's waits polling through the next run.
 */
export const ENGINE_CHECK_INTERVAL_MS = 5_000;

/** The environment variable that sets that interval in seconds (tests shorten it; docs/troubleshooting.md). */
export const ENGINE_CHECK_ENV = "HOSTING_ENGINE_CHECK_SECONDS";

/** The longest interval taken: a day (a timer cannot wait past 2^31 - 1 ms, about 24.8 days). */
const ENGINE_CHECK_MAX_SECONDS = 86_400;

/**
 * The interval between the engine's health checks, from the environment or the default; and, when the variable's
 * value will not do, why (the plugin then serves nothing but that: main.ts).
 */
export function engineCheckInterval(env: NodeJS.ProcessEnv): { ms: number; problem?: string } {
  const value = env[ENGINE_CHECK_ENV];
  if (value === undefined || value === "") return { ms: ENGINE_CHECK_INTERVAL_MS };
  const seconds = Number(value.trim());
  if (value.trim() !== "" && Number.isFinite(seconds) && seconds > 0 && seconds <= ENGINE_CHECK_MAX_SECONDS)
    return { ms: Math.max(1, Math.round(seconds * 1000)) };
  return {
    ms: ENGINE_CHECK_INTERVAL_MS,
    problem: `${ENGINE_CHECK_ENV} is ${JSON.stringify(value)}: give the seconds between the plugin's checks that the engine is still there, a number greater than 0 and at most ${ENGINE_CHECK_MAX_SECONDS} (the default is ${ENGINE_CHECK_INTERVAL_MS / 1000}), or unset it`,
  };
}

// ---- the second and third stages ----

export interface LoadedStage<T> {
  stage: T;
  /** Whether V8 took the build's code cache ("rejected": made by another Node.js, or not for this source). */
  cache: "accepted" | "rejected" | "absent";
  /** For the build (`--code-cache-out`): a code cache of everything compiled so far. */
  createCachedData(): Buffer;
}

export interface StageFiles {
  file: string;
  source: string;
  cachedData?: Buffer;
}

/** A stage's source and code cache from inside the single executable, if this is one. */
function embedded(names: StageNames): StageFiles | undefined {
  let sea: typeof import("node:sea");
  try {
    sea = require("node:sea");
  } catch {
    return undefined; // Node.js before 20.12 has no node:sea, and no single executables
  }
  if (!sea.isSea()) return undefined;
  // getRawAsset: the bytes inside the executable, not a copy; only read, never written.
  const raw = (key: string) => Buffer.from(sea.getRawAsset(key) as ArrayBuffer);
  let cachedData: Buffer | undefined;
  try {
    cachedData = raw(names.cache);
  } catch {
    cachedData = undefined; // built without one: the load compiles
  }
  const source = raw(names.file).toString("latin1");
  return { file: join(dirname(process.execPath), names.file), source, cachedData };
}

const read = (file: string) =>
  new Promise<Buffer>((resolve, reject) => readFile(file, (err, data) => (err ? reject(err) : resolve(data))));

/**
 * Starts reading a stage (from inside the single executable, or from beside the executable) and
 * returns what will have it. main.ts calls this for the second stage before it listens, so the
 * reads run on libuv's threads while it prints the port; for the third, when it loads it.
 *
 * The source is read as latin1: the build writes it in ASCII (esbuild escapes everything else), and
 * a one-byte string is quicker to make than one decoded from UTF-8.
 */
export function prefetchStage(besideDir: string, names: StageNames): Promise<StageFiles> {
  const inside = embedded(names);
  if (inside) return Promise.resolve(inside);
  const file = join(besideDir, names.file);
  const source = read(file).then((bytes) => bytes.toString("latin1"));
  const cachedData = read(join(besideDir, names.cache)).catch(() => undefined);
  const files = Promise.all([source, cachedData]).then(([source, cachedData]) => ({ file, source, cachedData }));
  // Nobody awaits it until the stage is loaded: a failed read is reported then, by loadStage.
  files.catch(() => {});
  return files;
}

/**
 * Runs a stage, as Node's CommonJS loader would (same wrapper, `require` relative to its file),
 * but through vm.Script so that V8 can take the code cache the build made. Why not plain
 * `require`: Node 20 has no module compile cache (that came in 22.1), and compiling the bundles,
 * then their functions as they first run, was more than half the time to the first answer. A
 * cache that another V8 made is rejected by V8 itself, and the load simply compiles. `shared`:
 * modules the stage must take from the stage that loads it rather than load again (the third
 * stage's grpc-js, which checks its own classes, and protobufjs).
 */
export async function loadStage<T>(
  files: Promise<StageFiles>,
  shared?: Record<string, unknown>,
): Promise<LoadedStage<T>> {
  const { file, source, cachedData } = await files;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: cachedData && cachedData.length > 0 ? cachedData : undefined,
    // An import() the bundle leaves external resolves as it would in a CommonJS module.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as T };
  const requireBeside = createRequire(file);
  script.runInThisContext()(
    module.exports,
    shared ? requireOnly(shared, requireBeside) : requireBeside,
    module,
    file,
    dirname(file),
  );
  return {
    stage: module.exports,
    cache: !cachedData?.length ? "absent" : script.cachedDataRejected ? "rejected" : "accepted",
    createCachedData: () => script.createCachedData(),
  };
}

/**
 * A stage's `require` that gives it the shared modules, Node's built-ins and the files beside it,
 * and nothing else: in a checkout, a module it should have been given would otherwise load a
 * second copy from node_modules, and an installed plugin has none to find.
 */
function requireOnly(shared: Record<string, unknown>, requireBeside: NodeJS.Require): NodeJS.Require {
  const require = (id: string) => {
    if (Object.hasOwn(shared, id)) return shared[id];
    if (isBuiltin(id) || id.startsWith("./")) return requireBeside(id);
    throw new Error(
      `the provider's bundle asks for ${id}, which the gRPC stage does not share (scripts/bundles.mjs and server/start.ts list them)`,
    );
  };
  return Object.assign(require, requireBeside);
}

// ---- when the second stage cannot start ----

/**
 * What the engine shows the user when the plugin cannot start: the reason, and what to do (a
 * reason from nodeTooOld says that itself; any other failure means the installation is broken).
 */
export function startFailureMessage(reason: string, saysWhatToDo = false): string {
  const cause = reason.replace(/\s+$/, "").replace(/\.$/, "");
  const remedy = saysWhatToDo
    ? ""
    : `. Reinstall the plugin: ${REINSTALL} (or make install in a checkout of pulumi-hosting)`;
  return `pulumi-resource-hosting could not start: ${cause}${remedy}`;
}

/**
 * grpc-message is percent-encoded: every byte outside printable ASCII, and '%' itself (the gRPC
 * over HTTP/2 specification, "Responses").
 */
export function encodeGrpcMessage(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** gRPC's FAILED_PRECONDITION: the system is not in a state in which the call can run. */
const FAILED_PRECONDITION = 9;

/**
 * A gRPC server with Node's http2 alone (gRPC is not loadable: that is the failure) that answers
 * every call, whatever its method, with FAILED_PRECONDITION and `message`: a trailers-only
 * response (HEADERS with :status 200, content-type and grpc-status, ending the stream), which is
 * what gRPC servers send for a call that fails before any reply. Returns what serves one of the
 * listener's (paused) connections.
 */
export function serveFailure(message: string): (socket: Socket) => void {
  const http2 = require("node:http2") as typeof import("node:http2");
  const server = http2.createServer();
  server.on("stream", (stream) => {
    stream.on("error", () => {}); // the client may reset the stream; nothing to do about it
    stream.resume(); // drain the request message
    stream.respond(
      {
        ":status": 200,
        "content-type": "application/grpc",
        "grpc-status": String(FAILED_PRECONDITION),
        "grpc-message": encodeGrpcMessage(message),
      },
      { endStream: true },
    );
  });
  server.on("sessionError", () => {});
  return (socket) => {
    server.emit("connection", socket);
    socket.resume();
  };
}
