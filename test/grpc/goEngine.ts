// The Go stand-in engine (goEngine/main.go): the plugin driven through grpc-go, the gRPC library of
// the real engine, where the rest of the suite drives it through grpc-js. Built with Debian's Go
// and grpc-go (GOPATH mode, no module download: only Debian's packages are reachable here); where
// they are missing, `goEngineMissing` says why and the tests that need it are skipped.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { GrpcFailure, Transport } from "./engine";

/** Where Debian's golang-google-grpc-dev puts grpc-go (and golang-go's `go` on PATH). */
const DEBIAN_GOPATH = "/usr/share/gocode";
// From the checkout's root: this file also runs bundled, from dist/run/ (the benchmarks).
const ROOT = resolve(__dirname, "../..");
const SOURCE = resolve(ROOT, "test/grpc/goEngine");
const INSTALL = "apt-get install golang-go golang-google-grpc-dev";

function goOnPath(): boolean {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Why the Go stand-in engine cannot be built here, or undefined when it can. */
export function goEngineMissing(): string | undefined {
  if (!goOnPath()) return `no go on PATH (${INSTALL})`;
  if (!existsSync(join(DEBIAN_GOPATH, "src/google.golang.org/grpc"))) return `no grpc-go in ${DEBIAN_GOPATH} (${INSTALL})`;
  return undefined;
}

/** Builds the stand-in into a directory of its own (one per test file: jest runs files in parallel); returns the executable. */
export function buildGoEngine(): string {
  const out = join(mkdtempSync(join(tmpdir(), "go-engine-")), "go-engine");
  execFileSync("go", ["build", "-o", out, "."], {
    cwd: SOURCE,
    env: { ...process.env, GOPATH: DEBIAN_GOPATH, GO111MODULE: "off", GOFLAGS: "", GOCACHE: resolve(ROOT, "dist/go-cache") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return out;
}

export interface GoAnswer {
  /** The gRPC status code (0: OK). */
  code: number;
  message: string;
  response?: Buffer;
  /** The google.rpc.Status grpc-go made of the trailers (details included), serialized. */
  status?: Buffer;
}

type Decode = (bytes: Uint8Array) => unknown;
/** The reply message of each ResourceProvider method, by its grpc-js name. */
const REPLIES: Record<string, Decode> = {
  getPluginInfo: plugproto.PluginInfo.deserializeBinary,
  getSchema: provproto.GetSchemaResponse.deserializeBinary,
  checkConfig: provproto.CheckResponse.deserializeBinary,
  diffConfig: provproto.DiffResponse.deserializeBinary,
  configure: provproto.ConfigureResponse.deserializeBinary,
  check: provproto.CheckResponse.deserializeBinary,
  diff: provproto.DiffResponse.deserializeBinary,
  create: provproto.CreateResponse.deserializeBinary,
  read: provproto.ReadResponse.deserializeBinary,
  update: provproto.UpdateResponse.deserializeBinary,
  delete: Empty.deserializeBinary,
  invoke: provproto.InvokeResponse.deserializeBinary,
  cancel: Empty.deserializeBinary,
  attach: Empty.deserializeBinary,
};

function goAnswer(raw: { code?: number; message?: string; response?: string; status?: string }): GoAnswer {
  return {
    code: raw.code ?? 0,
    message: raw.message ?? "",
    response: raw.response === undefined ? undefined : Buffer.from(raw.response, "base64"),
    status: raw.status === undefined ? undefined : Buffer.from(raw.status, "base64"),
  };
}

/** A failed call as grpc-js reports one (code, details, the status details in the trailer's metadata), for the suite's helpers. */
function asGrpcFailure(answer: GoAnswer): GrpcFailure {
  const metadata = new grpc.Metadata();
  if (answer.status) metadata.add("grpc-status-details-bin", answer.status);
  return Object.assign(new Error(`${answer.code} ${grpc.status[answer.code]}: ${answer.message}`), { code: answer.code, details: answer.message, metadata });
}

/** The stand-in's connection to the plugin, ready. */
export class GoEngine {
  /** Milliseconds from dialing to a ready connection. */
  readyMs!: number;
  private child!: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, (raw: any) => void>();
  private stderr = "";

  /** Dials the plugin on `port` as the engine does; resolves once the connection is ready. */
  static async dial(executable: string, port: number): Promise<GoEngine> {
    const engine = new GoEngine();
    engine.child = spawn(executable, [String(port)], { stdio: ["pipe", "pipe", "pipe"] });
    engine.child.stderr!.on("data", (chunk) => (engine.stderr += chunk));
    const lines = createInterface({ input: engine.child.stdout! });
    const first = await new Promise<string>((res, rej) => {
      lines.once("line", res);
      engine.child.once("exit", (code) => rej(new Error(`go-engine exited (${code}): ${engine.stderr}`)));
    });
    engine.readyMs = JSON.parse(first).readyMs;
    lines.on("line", (line) => {
      const raw = JSON.parse(line);
      const done = engine.waiting.get(raw.id);
      engine.waiting.delete(raw.id);
      done?.(raw);
    });
    return engine;
  }

  /** One unary call of pulumirpc.ResourceProvider, `method` as in the proto (`Check`, `GetPluginInfo`). */
  call(method: string, request: { serializeBinary(): Uint8Array }): Promise<GoAnswer> {
    return this.send(`/pulumirpc.ResourceProvider/${method}`, request.serializeBinary());
  }

  /** What older engines sent once the connection was ready (testConnection): a call of the method "" with no message. */
  probe(): Promise<GoAnswer> {
    return this.send("", new Uint8Array());
  }

  /**
   * Every request sent from Go, `parallelism` at a time (0: all at once), for the benchmarks, whose
   * engine side must cost what the real engine's does, not what grpc-js costs: the wall time from
   * the first send to the last answer, and the answers.
   */
  async batch(method: string, requests: Array<{ serializeBinary(): Uint8Array }>, parallelism = 0): Promise<{ wallMs: number; answers: GoAnswer[] }> {
    const path = `/pulumirpc.ResourceProvider/${method}`;
    const batch = requests.map((request) => ({ method: path, request: Buffer.from(request.serializeBinary()).toString("base64") }));
    const raw = await this.exchange({ batch, parallelism });
    return { wallMs: raw.wallMs, answers: raw.answers.map(goAnswer) };
  }

  /** The Go process (for its CPU, in the benchmarks). */
  get pid(): number {
    return this.child.pid!;
  }

  private async send(path: string, request: Uint8Array): Promise<GoAnswer> {
    return goAnswer(await this.exchange({ method: path, request: Buffer.from(request).toString("base64") }));
  }

  private exchange(message: Record<string, unknown>): Promise<any> {
    const id = this.nextId++;
    return new Promise((res) => {
      this.waiting.set(id, res);
      this.child.stdin!.write(`${JSON.stringify({ id, ...message })}\n`);
    });
  }

  /** Every call of a `Plugin` through this connection (`plugin.useTransport(go.transport())`). */
  transport(): Transport {
    return async <Res>(method: string, request: unknown) => {
      const decode = REPLIES[method];
      if (!decode) throw new Error(`the Go stand-in engine does not know the reply of ${method}`);
      const answer = await this.call(method[0].toUpperCase() + method.slice(1), request as { serializeBinary(): Uint8Array });
      if (answer.code !== 0) throw asGrpcFailure(answer);
      return decode(answer.response ?? new Uint8Array()) as Res;
    };
  }

  close(): Promise<void> {
    return new Promise((res) => {
      if (this.child.exitCode !== null) return res();
      this.child.once("exit", () => res());
      this.child.stdin!.end();
    });
  }
}
