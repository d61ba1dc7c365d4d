// The Go stand-in engine (goEngine/main.go): the plugin driven through grpc-go, the gRPC library of
// the real engine, where the rest of the suite drives it through grpc-js. A Go module at the engine's
// grpc-go version (goEngine/go.mod, from the Go module proxy), built with Go 1.26 or newer; where it
// cannot be built, `goEngineMissing` says why and the tests that need it are skipped.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, renameSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { GrpcFailure, Transport } from "./engine";

const INSTALL = "Go 1.26 or newer: https://go.dev/doc/install";
// From the checkout's root: this file also runs bundled, from dist/run/ (the benchmarks).
const ROOT = resolve(__dirname, "../..");
const EXECUTABLE = resolve(ROOT, "dist/go-engine/go-engine");
/** Longest a call may take before the stand-in gives up on it (Go side), so that no test waits on a call forever. */
const CALL_DEADLINE_S = 120;
/** How long `close` waits for the stand-in to finish its calls before killing it. */
const CLOSE_GRACE_MS = 5_000;

export type Message = { serializeBinary(): Uint8Array };

let built: { executable: string } | { missing: string } | undefined;

/**
 * Builds the stand-in once per process (Go's build cache, dist/go-cache, makes the later ones quick),
 * into a file of its own that is then renamed over dist/go-engine/go-engine: jest runs test files in
 * parallel processes, and a rename is atomic.
 */
function build(): { executable: string } | { missing: string } {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return { missing: `no go on PATH (${INSTALL})` };
  }
  mkdirSync(resolve(EXECUTABLE, ".."), { recursive: true });
  const partial = `${EXECUTABLE}.${process.pid}`;
  try {
    execFileSync("go", ["build", "-o", partial, "."], {
      cwd: resolve(ROOT, "test/grpc/goEngine"),
      env: { ...process.env, GOFLAGS: "-mod=readonly", GOCACHE: resolve(ROOT, "dist/go-cache") },
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? err).trim();
    const firstLines = stderr.split("\n").slice(0, 3).join(" ");
    return { missing: `it does not build with the Go and grpc-go here (${INSTALL}): ${firstLines}` };
  }
  renameSync(partial, EXECUTABLE);
  return { executable: EXECUTABLE };
}

/** Why the Go stand-in engine cannot be built here, or undefined when it can (building it, once). */
export function goEngineMissing(): string | undefined {
  built ??= build();
  return "missing" in built ? built.missing : undefined;
}

/** The stand-in's executable; throws why when it cannot be built. */
export function goEngineExecutable(): string {
  built ??= build();
  if ("missing" in built) throw new Error(`the Go stand-in engine is missing: ${built.missing}`);
  return built.executable;
}

/** A ResourceProvider method by its grpc-js name (`checkConfig`): its path and the decoder of its reply. */
function method(name: string): { path: string; decode: (bytes: Buffer) => unknown } {
  const definition = (
    provrpc.ResourceProviderService as unknown as Record<string, grpc.MethodDefinition<unknown, unknown>>
  )[name];
  if (!definition) throw new Error(`pulumirpc.ResourceProvider has no method ${name}`);
  return { path: definition.path, decode: definition.responseDeserialize };
}

export interface GoAnswer {
  /** The gRPC status code (0: OK). */
  code: number;
  message: string;
  response?: Buffer;
  /** The google.rpc.Status grpc-go made of the trailers (details included), serialized. */
  status?: Buffer;
}

function goAnswer(raw: { code?: number; message?: string; response?: string; status?: string }): GoAnswer {
  return {
    code: raw.code ?? 0,
    message: raw.message ?? "",
    response: raw.response === undefined ? undefined : Buffer.from(raw.response, "base64"),
    status: raw.status === undefined ? undefined : Buffer.from(raw.status, "base64"),
  };
}

/**
 * A failed call as grpc-js reports one (code, details, the status details in the trailer's metadata), for the suite's
 * helpers.
 */
function asGrpcFailure(answer: GoAnswer): GrpcFailure {
  const metadata = new grpc.Metadata();
  if (answer.status) metadata.add("grpc-status-details-bin", answer.status);
  return Object.assign(new Error(`${answer.code} ${grpc.status[answer.code]}: ${answer.message}`), {
    code: answer.code,
    details: answer.message,
    metadata,
  });
}

/** The reply of an answer, decoded as grpc-js decodes it; a failed call thrown as grpc-js reports one. */
function replyOf<T>(answer: GoAnswer, decode: (bytes: Buffer) => unknown): T {
  if (answer.code !== 0) throw asGrpcFailure(answer);
  return decode(answer.response ?? Buffer.alloc(0)) as T;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** The stand-in's connection to the plugin, ready. */
export class GoEngine {
  /** Milliseconds from dialing to a ready connection. */
  readyMs!: number;
  private child!: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (raw: any) => void; reject: (err: Error) => void }>();
  private stderr = "";
  private ended?: Error;

  /** Dials the plugin on `port` as the engine does; resolves once the connection is ready. */
  static async dial(port: number, executable = goEngineExecutable()): Promise<GoEngine> {
    const engine = new GoEngine();
    engine.child = spawn(executable, [String(port), String(CALL_DEADLINE_S)], { stdio: ["pipe", "pipe", "pipe"] });
    engine.child.stderr!.on("data", (chunk) => (engine.stderr += chunk));
    engine.child.stdin!.on("error", () => undefined); // a stand-in that died: its calls fail below, with its stderr
    const lines = createInterface({ input: engine.child.stdout! });
    const ended = new Promise<never>((_, reject) => {
      const end = (why: string) => {
        engine.ended = new Error(`go-engine ${why}: ${engine.stderr}`);
        for (const { reject: fail } of engine.waiting.values()) fail(engine.ended);
        engine.waiting.clear();
        reject(engine.ended);
      };
      engine.child.once("error", (err) => end(`could not run (${err.message})`));
      engine.child.once("exit", (code, signal) => end(`exited (${signal ?? code})`));
    });
    ended.catch(() => undefined);
    const first = await Promise.race([new Promise<string>((res) => lines.once("line", res)), ended]);
    engine.readyMs = JSON.parse(first).readyMs;
    lines.on("line", (line) => {
      const raw = JSON.parse(line);
      engine.waiting.get(raw.id)?.resolve(raw);
      engine.waiting.delete(raw.id);
    });
    return engine;
  }

  /** One unary call of pulumirpc.ResourceProvider, `name` as grpc-js names it (`checkConfig`). */
  async call(name: string, request: Message): Promise<GoAnswer> {
    return goAnswer(await this.exchange({ method: method(name).path, request: base64(request.serializeBinary()) }));
  }

  /**
   * What older engines sent once the connection was ready (testConnection): a call of the method "" with no message.
   */
  async probe(): Promise<GoAnswer> {
    return goAnswer(await this.exchange({ method: "", request: "" }));
  }

  /**
   * Every request sent from Go, `parallelism` at a time (0: all at once), for the benchmarks, whose
   * engine side must cost what the real engine's does, not what grpc-js costs: the wall time from
   * the first send to the last answer, and the replies. Throws if any call failed.
   */
  async batch<T>(name: string, requests: Message[], parallelism = 0): Promise<{ wallMs: number; replies: T[] }> {
    const { path, decode } = method(name);
    const raw = await this.exchange({
      batch: requests.map((request) => ({ method: path, request: base64(request.serializeBinary()) })),
      parallelism,
    });
    const answers = (raw.answers as Parameters<typeof goAnswer>[0][]).map(goAnswer);
    return { wallMs: raw.wallMs, replies: answers.map((answer) => replyOf<T>(answer, decode)) };
  }

  /** The Go process (for its CPU, in the benchmarks). */
  get pid(): number {
    return this.child.pid!;
  }

  private exchange(message: Record<string, unknown>): Promise<any> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, ...message })}\n`);
    });
  }

  /** Every call of a `Plugin` through this connection (`plugin.useTransport(go.transport())`). */
  transport(): Transport {
    return async <Res>(name: string, request: unknown) =>
      replyOf<Res>(await this.call(name, request as Message), method(name).decode);
  }

  /** Ends its input (it finishes the calls under way and exits); kills it if it has not within a few seconds. */
  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((res) => {
      const kill = setTimeout(() => this.child.kill("SIGKILL"), CLOSE_GRACE_MS);
      this.child.once("exit", () => {
        clearTimeout(kill);
        res();
      });
      this.child.stdin!.end();
    });
  }
}
