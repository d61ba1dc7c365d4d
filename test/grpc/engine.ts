// Plays the Pulumi engine: spawns the built plugin the way the engine does, serves the
// Engine service it logs to, and sends it ResourceProvider calls over gRPC.
import * as grpc from "@grpc/grpc-js";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { randomBytes } from "node:crypto";
import {
  type PathElement,
  parsePropertyPath,
  resetPath,
  type SecretWrapping,
} from "../../provider/src/framework/paths";

/**
 * The plugin the tests start: bin/'s Node.js script, or HOSTING_PLUGIN (an absolute path, or one
 * relative to the repository), e.g. the single executable `make package` writes. `make test` runs
 * the gRPC suite against both (jest.config.js).
 */
export const PLUGIN = resolve(__dirname, "../..", process.env.HOSTING_PLUGIN || "bin/pulumi-resource-hosting");
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export const secret = (value: unknown) => ({ [SIG]: SECRET_SIG, value });
export const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG] === SECRET_SIG;
/** Strips secret wrappers, for comparing values. */
export function plain(value: any): any {
  if (isSecret(value)) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** The id the engine gives the default provider's resource (a UUID), sent with Configure. */
const PROVIDER_ID = "6b0a4b8e-2f3c-4d7e-9a1b-0c5d8e7f6a21";
export const urn = (type: string, name: string) => `urn:pulumi:test::hosting-tests::${type}::${name}`;
const struct = (value: Record<string, unknown> | undefined) => Struct.fromJavaScript((value ?? {}) as any);

/** Sets what the engine puts on every resource call: urn, type and name. */
export function addressed<
  T extends { setUrn(v: string): unknown; setType(v: string): unknown; setName(v: string): unknown },
>(request: T, type: string, name: string): T {
  request.setUrn(urn(type, name));
  request.setType(type);
  request.setName(name);
  return request;
}

export interface LogMessage {
  severity: number;
  message: string;
  urn: string;
  ephemeral: boolean;
}

/**
 * grpc.health.v1.Health, which the real engine serves beside its Engine service (rpcutil.ServeWithOptions), written
 * by hand: a HealthCheckRequest is read as bytes, and SERVING is field 1 = 1 of a HealthCheckResponse.
 */
const HEALTH_SERVICE: grpc.ServiceDefinition = {
  check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: (bytes: Buffer) => bytes,
    requestDeserialize: (bytes: Buffer) => bytes,
    responseSerialize: (bytes: Buffer) => bytes,
    responseDeserialize: (bytes: Buffer) => bytes,
  },
};
const SERVING = Buffer.from([0x08, 0x01]);

/** The Engine service the plugin logs to; it records every message, and counts the health checks it answers. */
export class FakeEngine {
  readonly messages: LogMessage[] = [];
  /** How long the engine takes to acknowledge a message (Infinity: never), to test what waits on that. */
  logDelayMs = 0;
  /** How it answers a health check: SERVING, as the engine does, or UNIMPLEMENTED, as an engine without one would. */
  health: "SERVING" | "UNIMPLEMENTED" = "SERVING";
  healthChecks = 0;
  private server = new grpc.Server();
  address = "";

  async start(): Promise<this> {
    this.server.addService(HEALTH_SERVICE, {
      check: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        this.healthChecks++;
        if (this.health === "SERVING") callback(null, SERVING);
        else callback({ code: grpc.status.UNIMPLEMENTED, details: "unknown service grpc.health.v1.Health" });
      },
    });
    this.server.addService(enginerpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engineproto.LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
        const r = call.request;
        this.messages.push({
          severity: r.getSeverity(),
          message: r.getMessage(),
          urn: r.getUrn(),
          ephemeral: r.getEphemeral(),
        });
        if (this.logDelayMs === Infinity) return;
        setTimeout(() => callback(null, new Empty()), this.logDelayMs);
      },
    });
    const port = await new Promise<number>((res, rej) =>
      this.server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    this.address = `127.0.0.1:${port}`;
    return this;
  }

  stop() {
    this.server.forceShutdown();
  }
}

export interface GrpcFailure extends Error {
  code: number;
  details: string;
  metadata: grpc.Metadata;
}

/** The ErrorResourceInitFailed detail of a failed Create, if it carries one. */
export function initFailure(err: GrpcFailure) {
  const bin = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!bin) return undefined;
  const status = statusproto.Status.deserializeBinary(bin as Buffer);
  const any = status.getDetailsList().find((d) => d.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed"));
  if (!any) return undefined;
  const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return {
    id: detail.getId(),
    properties: detail.getProperties()?.toJavaScript() ?? {},
    inputs: detail.getInputs()?.toJavaScript() ?? {},
    reasons: detail.getReasonsList(),
    refreshBeforeUpdate: detail.getRefreshBeforeUpdate(),
  };
}

export function missingKeys(err: GrpcFailure): string[] {
  const bin = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!bin) return [];
  const status = statusproto.Status.deserializeBinary(bin as Buffer);
  return status
    .getDetailsList()
    .filter((d) => d.getTypeUrl().endsWith("pulumirpc.ConfigureErrorMissingKeys"))
    .flatMap((d) =>
      provproto.ConfigureErrorMissingKeys.deserializeBinary(d.getValue_asU8())
        .getMissingkeysList()
        .map((k) => k.getName()),
    );
}

export interface PluginOptions {
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /**
   * Start it without the engine's address on its command line, as a user does for
   * PULUMI_DEBUG_PROVIDERS (it learns it through Attach, or Handshake when `handshake` is set too).
   */
  unattached?: boolean;
  /**
   * Send Handshake first, as today's engine does (the default, unless `unattached`); false: an older
   * engine, which only passes its address on the command line and reads the capabilities from Configure.
   */
  handshake?: boolean;
  /** Another executable than PLUGIN (a copy, an unpacked archive). */
  command?: string;
}

/**
 * How a call reaches the plugin: `method` as grpc-js names it (`checkConfig`), the request and its reply as messages.
 */
export type Transport = <Res>(method: string, request: unknown) => Promise<Res>;

/** The project's `pulumi:autonaming`, as the engine sends it with each Check (CheckRequest.autonaming). */
export interface Autonaming {
  proposedName: string;
  mode: "propose" | "enforce" | "disable";
}

/** What the engine adds to a Check: the registration's random seed, and the project's autonaming. */
export interface CheckOptions {
  randomSeed?: Uint8Array;
  autonaming?: Autonaming;
}

const AUTONAMING_MODE = provproto.CheckRequest.AutonamingOptions.Mode;

/** The built plugin, started as the engine starts it, and a client that speaks to it. */
export class Plugin {
  stdout = "";
  stderr = "";
  /** The port the plugin printed. */
  port = 0;
  private child!: ChildProcess;
  /** The Pulumi home made for this plugin alone (none when the test gave one). */
  private home?: string;
  private client!: provrpc.ResourceProviderClient;
  private transport?: Transport;
  readonly engine = new FakeEngine();

  /** What Handshake answered: undefined when it was not sent, or when the plugin left it UNIMPLEMENTED. */
  handshook?: ReturnType<provproto.ProviderHandshakeResponse["toObject"]>;
  /**
   * Why Handshake failed with any other code: the engine would not load the plugin then. Kept rather than thrown,
   * for the tests of a plugin that cannot start, which look at the calls after.
   */
  handshakeFailure?: GrpcFailure;

  static async start(options: PluginOptions = {}): Promise<Plugin> {
    const plugin = new Plugin();
    await plugin.engine.start();
    await plugin.spawn(options);
    if (options.handshake ?? !options.unattached) {
      await plugin.handshake().catch((err: GrpcFailure) => {
        plugin.handshakeFailure = err;
      });
    }
    return plugin;
  }

  private async spawn({ args = [], env = {}, unattached = false, command = PLUGIN }: PluginOptions) {
    // A Pulumi home of its own, unless the test shares one between runs: what a create the engine gave up made is kept
    // there (server/unrecorded.ts), and a test's must reach neither the machine's ~/.pulumi nor another test.
    if (!env.PULUMI_HOME) this.home = mkdtempSync(join(tmpdir(), "hosting-plugin-home-"));
    this.child = spawn(command, unattached ? args : [...args, this.engine.address], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PULUMI_HOME: this.home, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stderr!.on("data", (chunk) => (this.stderr += chunk));
    const firstLine = await new Promise<string>((res, rej) => {
      const lines = createInterface({ input: this.child.stdout! });
      lines.once("line", res);
      this.child.once("exit", (code) =>
        rej(new Error(`plugin exited (${code}) before printing its port: ${this.stderr}`)),
      );
    });
    this.stdout += `${firstLine}\n`;
    this.port = Number(firstLine.trim());
    this.child.stdout!.on("data", (chunk) => (this.stdout += chunk));
    this.client = new provrpc.ResourceProviderClient(`127.0.0.1:${this.port}`, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
    });
  }

  get pid() {
    return this.child.pid;
  }

  signal(sig: NodeJS.Signals) {
    this.child.kill(sig);
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((res) => this.child.once("exit", (code) => res(code)));
  }

  async stop() {
    this.client?.close();
    if (this.child.exitCode === null) {
      this.child.kill("SIGTERM");
      await this.exited();
    }
    this.engine.stop();
    if (this.home) rmSync(this.home, { recursive: true, force: true });
  }

  /**
   * From now on, every call goes through `transport` (goEngine.ts: grpc-go, the engine's own gRPC library) instead of
   * grpc-js.
   */
  useTransport(transport: Transport) {
    this.transport = transport;
    this.client.close(); // so that nothing can still go through grpc-js unnoticed
  }

  /** A call with its request already in bytes (what google-protobuf cannot write), and its answer's bytes. */
  callBytes(method: string, request: Uint8Array): Promise<Buffer> {
    const path = (provrpc.ResourceProviderService as Record<string, { path: string }>)[method].path;
    const identity = (bytes: Buffer) => bytes;
    return new Promise((res, rej) =>
      this.client.makeUnaryRequest(path, identity, identity, Buffer.from(request), (err, answer) =>
        err ? rej(err) : res(answer!),
      ),
    );
  }

  call<Res>(method: string, request: unknown): Promise<Res> {
    if (this.transport) return this.transport<Res>(method, request);
    return new Promise((res, rej) => {
      (this.client as any)[method](request, (err: GrpcFailure | null, response: Res) =>
        err ? rej(err) : res(response),
      );
    });
  }

  // ---- the engine's calls, with plain-object properties ----

  /**
   * The engine's first call (provider_plugin.go `NewProvider`): its address, the plugin's directory
   * as both root and program directory, and what it supports. UNIMPLEMENTED (an older plugin) is
   * no failure: the engine falls back to Configure's capabilities, and this answers undefined.
   */
  async handshake(engineAddress = this.engine.address) {
    const request = new provproto.ProviderHandshakeRequest();
    request.setEngineAddress(engineAddress);
    request.setRootDirectory(dirname(PLUGIN));
    request.setProgramDirectory(dirname(PLUGIN));
    request.setConfigureWithUrn(true);
    request.setSupportsViews(true);
    request.setSupportsRefreshBeforeUpdate(true);
    request.setInvokeWithPreview(true);
    try {
      this.handshook = (await this.call<provproto.ProviderHandshakeResponse>("handshake", request)).toObject();
    } catch (err) {
      if ((err as GrpcFailure).code !== grpc.status.UNIMPLEMENTED) throw err;
      this.handshook = undefined;
    }
    return this.handshook;
  }

  /** `providerId`: the engine's id of the provider resource, made once per stack (another stack's differs). */
  async configure(config: Record<string, unknown>, variables: Record<string, string> = {}, providerId = PROVIDER_ID) {
    const request = new provproto.ConfigureRequest();
    // Which provider this is, as the engine says since configure_with_urn (its default provider).
    request.setUrn("urn:pulumi:test::hosting-tests::pulumi:providers:hosting::default");
    request.setName("default");
    request.setType("pulumi:providers:hosting");
    request.setId(providerId);
    request.setArgs(struct(config));
    for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
    request.setAcceptsecrets(true);
    request.setAcceptresources(true);
    request.setSendsOldInputs(true);
    request.setSendsOldInputsToDelete(true);
    const response = await this.call<provproto.ConfigureResponse>("configure", request);
    return response.toObject();
  }

  /**
   * Configure as the engine sends it (provider_plugin.go `Configure`, seen in test/e2e/engineCalls.test.ts):
   * CheckConfig first, its answer (defaults filled in, the token secret) as the args, and each key but `version` again
   * as a `hosting:config:<key>` variable (secrets unwrapped, other values as JSON). While a setting is not known yet
   * the engine sends no Configure at all, and answers Check, Diff and previews for the provider itself: undefined then.
   */
  async configureAsEngine(config: Record<string, unknown>) {
    const { inputs, failures } = await this.checkConfig(config);
    if (failures.length > 0) throw new Error(`CheckConfig failed: ${JSON.stringify(failures)}`);
    if (JSON.stringify(inputs).includes(UNKNOWN)) return undefined;
    const variables = Object.entries(inputs)
      .filter(([key]) => key !== "version")
      .map(([key, value]) => [`hosting:config:${key}`, plain(value)] as const)
      .map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]);
    return this.configure(inputs, Object.fromEntries(variables));
  }

  async checkConfig(news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const request = new provproto.CheckRequest();
    request.setUrn("urn:pulumi:test::hosting-tests::pulumi:providers:hosting::default");
    request.setType("pulumi:providers:hosting");
    request.setNews(struct(news));
    request.setOlds(struct(olds));
    const response = await this.call<provproto.CheckResponse>("checkConfig", request);
    return {
      inputs: response.getInputs()?.toJavaScript() ?? {},
      failures: response.getFailuresList().map((f) => f.toObject()),
    };
  }

  async check(
    type: string,
    name: string,
    news: Record<string, unknown>,
    olds: Record<string, unknown> = {},
    options: CheckOptions = {},
  ) {
    const request = addressed(new provproto.CheckRequest(), type, name);
    request.setNews(struct(news));
    request.setOlds(struct(olds));
    if (options.randomSeed) request.setRandomseed(options.randomSeed);
    if (options.autonaming) {
      const autonaming = new provproto.CheckRequest.AutonamingOptions();
      autonaming.setProposedName(options.autonaming.proposedName);
      autonaming.setMode(AUTONAMING_MODE[options.autonaming.mode.toUpperCase() as keyof typeof AUTONAMING_MODE]);
      request.setAutonaming(autonaming);
    }
    const response = await this.call<provproto.CheckResponse>("check", request);
    return {
      inputs: response.getInputs()?.toJavaScript() ?? {},
      failures: response.getFailuresList().map((f) => f.toObject()),
    };
  }

  async diff(
    type: string,
    name: string,
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    oldInputs?: Record<string, unknown>,
    ignoreChanges: string[] = [],
  ) {
    const request = addressed(new provproto.DiffRequest(), type, name);
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    if (oldInputs) request.setOldInputs(struct(oldInputs));
    request.setIgnorechangesList(ignoreChanges);
    const response = await this.call<provproto.DiffResponse>("diff", request);
    const detailed: Record<string, number> = {};
    response.getDetaileddiffMap().forEach((value, key) => {
      detailed[key] = value.getKind();
    });
    return {
      changes: response.getChanges(),
      diffs: response.getDiffsList(),
      replaces: response.getReplacesList(),
      detailedDiff: detailed,
      hasDetailedDiff: response.getHasdetaileddiff(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
    };
  }

  async create(
    type: string,
    name: string,
    properties: Record<string, unknown>,
    options: { preview?: boolean; timeout?: number } = {},
  ) {
    const request = addressed(new provproto.CreateRequest(), type, name);
    request.setProperties(struct(properties));
    request.setPreview(options.preview ?? false);
    request.setTimeout(options.timeout ?? 0);
    const response = await this.call<provproto.CreateResponse>("create", request);
    return {
      id: response.getId(),
      properties: response.getProperties()?.toJavaScript() ?? {},
      refreshBeforeUpdate: response.getRefreshBeforeUpdate(),
    };
  }

  /**
   * A Create the engine gives up before its answer, as a run stopped mid-create leaves it (a second Ctrl-C, a killed
   * CLI: the engine closes its connection): sent, then cancelled once `when` resolves.
   */
  async createAbandoned(type: string, name: string, properties: Record<string, unknown>, when: Promise<unknown>) {
    const request = addressed(new provproto.CreateRequest(), type, name);
    request.setProperties(struct(properties));
    const answered = new Promise<void>((resolve) => {
      const call = this.client.create(request, () => resolve());
      when.then(() => call.cancel());
    });
    await answered;
  }

  async read(
    type: string,
    name: string,
    id: string,
    properties: Record<string, unknown> = {},
    inputs: Record<string, unknown> = {},
    timeout = 0,
  ) {
    const request = addressed(new provproto.ReadRequest(), type, name);
    request.setId(id);
    request.setProperties(struct(properties));
    request.setInputs(struct(inputs));
    request.setTimeout(timeout);
    const response = await this.call<provproto.ReadResponse>("read", request);
    return {
      id: response.getId(),
      properties: response.getProperties()?.toJavaScript() ?? {},
      inputs: response.getInputs()?.toJavaScript() ?? {},
      refreshBeforeUpdate: response.getRefreshBeforeUpdate(),
    };
  }

  async update(
    type: string,
    name: string,
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    oldInputs: Record<string, unknown>,
    options: { preview?: boolean; timeout?: number; ignoreChanges?: string[] } = {},
  ) {
    const request = addressed(new provproto.UpdateRequest(), type, name);
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    request.setOldInputs(struct(oldInputs));
    request.setPreview(options.preview ?? false);
    request.setTimeout(options.timeout ?? 0);
    request.setIgnorechangesList(options.ignoreChanges ?? []);
    const response = await this.call<provproto.UpdateResponse>("update", request);
    return {
      properties: response.getProperties()?.toJavaScript() ?? {},
      refreshBeforeUpdate: response.getRefreshBeforeUpdate(),
    };
  }

  async delete(
    type: string,
    name: string,
    id: string,
    properties: Record<string, unknown>,
    oldInputs: Record<string, unknown> = {},
    options: { timeout?: number } = {},
  ) {
    const request = addressed(new provproto.DeleteRequest(), type, name);
    request.setId(id);
    request.setTimeout(options.timeout ?? 0);
    request.setProperties(struct(properties));
    request.setOldInputs(struct(oldInputs));
    await this.call("delete", request);
  }

  async invoke(tok: string, args: Record<string, unknown>) {
    const request = new provproto.InvokeRequest();
    request.setTok(tok);
    request.setArgs(struct(args));
    const response = await this.call<provproto.InvokeResponse>("invoke", request);
    return {
      return: response.getReturn()?.toJavaScript() ?? {},
      failures: response.getFailuresList().map((f) => f.toObject()),
    };
  }

  async cancel() {
    await this.call("cancel", new Empty());
  }
}

export const DIFF_NONE = provproto.DiffResponse.DiffChanges.DIFF_NONE;
export const DIFF_SOME = provproto.DiffResponse.DiffChanges.DIFF_SOME;
export const KIND = provproto.PropertyDiff.Kind;

// ---- the engine's sequences (pulumi/pulumi v3.259, pkg/resource/deploy) ----

/** What the engine keeps in its state for one resource. */
export interface ResourceState {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Reasons of an ErrorResourceInitFailed (a partial failure): the next `up` retries with an Update. */
  initErrors?: string[];
  /** The provider asked to be refreshed before the next update: the next `up` or preview Reads it first. */
  refreshBeforeUpdate?: boolean;
}

/**
 * The ways the engine replaces a resource without asking Diff (step_generator.go): `--replace` (`pulumi up --replace
 * <urn>`) and `taint` (`pulumi state taint`) target it; a changed `replacementTrigger` option; `replaceWith` and
 * `deletedWith` when the resource they name is replaced.
 */
export type ForcedReplacement = "--replace" | "taint" | "replacementTrigger" | "replaceWith" | "deletedWith";
const TARGETED: readonly ForcedReplacement[] = ["--replace", "taint"];

export interface ForcedOptions extends ResourceOptions {
  /** Which way (default `--replace`). */
  way?: ForcedReplacement;
}

export interface ResourceOptions {
  ignoreChanges?: string[];
  /** Paths whose change replaces the resource (the engine applies them to the detailed diff). */
  replaceOnChanges?: string[];
  /** The registration's seed (the engine draws 32 random bytes per registration); a test may fix it. */
  randomSeed?: Uint8Array;
  autonaming?: Autonaming;
  deleteBeforeReplace?: boolean;
  /** customTimeouts, in seconds. */
  timeouts?: { create?: number; update?: number; delete?: number; read?: number };
}

/** How the engine's Structs hold a secret: the signature key and the value (the engine unwraps them to walk a path). */
const STRUCT_SECRETS: SecretWrapping = {
  isSecret,
  inner: (value) => (value as { value: unknown }).value,
  wrap: secret,
};

/**
 * step_generator.go `processIgnoreChanges`: before Check, each ignored path of the program's
 * inputs is reset to the old input (or removed when the old inputs lack it), nested paths and paths
 * inside a secret too (properties_path.go `PropertyPath.Reset`, which paths.ts `resetPath` plays); a
 * path ParsePropertyPath refuses is skipped, and the empty path resets nothing (Reset fails on it).
 */
export function processIgnoreChanges(
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown>,
  ignoreChanges: string[] = [],
) {
  return ignoreChanges.reduce((ignored, text) => {
    const path = parsePropertyPath(text);
    return path
      ? (resetPath(oldInputs as any, ignored as any, path, STRUCT_SECRETS) as Record<string, unknown>)
      : ignored;
  }, news);
}

/** properties_path.go `PropertyPath.Contains`: `path` is a prefix of `other`, `*` standing for any element. */
function contains(path: PathElement[], other: PathElement[]): boolean {
  return other.length >= path.length && path.every((element, i) => element === "*" || element === other[i]);
}

/** The `_REPLACE` form of a detailed diff kind (plugin.PropertyDiff.ToReplace). */
const TO_REPLACE: Record<number, number> = {
  [provproto.PropertyDiff.Kind.ADD]: provproto.PropertyDiff.Kind.ADD_REPLACE,
  [provproto.PropertyDiff.Kind.DELETE]: provproto.PropertyDiff.Kind.DELETE_REPLACE,
  [provproto.PropertyDiff.Kind.UPDATE]: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

const REPLACE_KINDS = new Set(Object.values(TO_REPLACE));

/**
 * step_generator.go `applyReplaceOnChanges`: a detailed diff path that a `replaceOnChanges` path
 * contains becomes a replacement, and so does a top-level key of `diffs` it contains. Every detailed
 * diff path of a diff with changes is parsed, with `replaceOnChanges` or without: one the engine's
 * ParsePropertyPath refuses fails the step, and so the preview (thrown here).
 */
export function applyReplaceOnChanges<
  D extends { changes: number; diffs: string[]; replaces: string[]; detailedDiff: Record<string, number> },
>(diff: D, replaceOnChanges: string[] = []): D {
  if (diff.changes !== DIFF_SOME) return diff;
  const parsed = (path: string) => {
    const elements = parsePropertyPath(path);
    if (!elements) throw new Error(`the engine cannot parse the property path ${JSON.stringify(path)}`);
    return elements;
  };
  const options = replaceOnChanges.map(parsed);
  const replaced = (path: PathElement[]) => options.some((option) => contains(option, path));
  const detailedDiff = Object.fromEntries(
    Object.entries(diff.detailedDiff).map(([key, kind]) => [
      key,
      replaced(parsed(key)) ? (TO_REPLACE[kind] ?? kind) : kind,
    ]),
  );
  const keyReplaced = (key: string) => {
    const path = parsePropertyPath(key);
    return path !== undefined && replaced(path);
  };
  const replaces = [...new Set([...diff.replaces, ...diff.diffs.filter(keyReplaced)])];
  return { ...diff, detailedDiff, replaces };
}

/** The seed of one registration (32 random bytes, unless the test fixes it) and the project's autonaming. */
const checkOptions = (options: ResourceOptions): CheckOptions => ({
  randomSeed: options.randomSeed ?? randomBytes(32),
  autonaming: options.autonaming,
});

/** A Create or Update's answer, or the partial failure the engine records (provider_plugin.go `parseError`). */
async function recorded(
  operation: Promise<{ id?: string; properties: Record<string, unknown>; refreshBeforeUpdate: boolean }>,
  state: { id: string; inputs: Record<string, unknown> },
): Promise<{ state: ResourceState; error?: GrpcFailure }> {
  try {
    const done = await operation;
    return {
      state: {
        id: done.id || state.id,
        inputs: state.inputs,
        outputs: done.properties,
        refreshBeforeUpdate: done.refreshBeforeUpdate,
      },
    };
  } catch (err) {
    const detail = initFailure(err as GrpcFailure);
    if (!detail) throw err;
    return {
      state: {
        id: detail.id || state.id,
        inputs: state.inputs,
        outputs: detail.properties,
        initErrors: detail.reasons,
        refreshBeforeUpdate: detail.refreshBeforeUpdate,
      },
      error: err as GrpcFailure,
    };
  }
}

/**
 * A Read's answer, or the resource a partial failure (ErrorResourceInitFailed) carries, with its
 * reasons: provider_plugin.go Read hands both back, and RefreshStep and ImportStep keep the reasons
 * as the resource's init errors.
 */
export async function readOrInitFailure(
  reading: ReturnType<Plugin["read"]>,
): Promise<Awaited<ReturnType<Plugin["read"]>> & { initErrors?: string[] }> {
  try {
    return await reading;
  } catch (err) {
    const detail = initFailure(err as GrpcFailure);
    if (!detail) throw err;
    return {
      id: detail.id,
      properties: detail.properties,
      inputs: detail.inputs,
      initErrors: detail.reasons,
      refreshBeforeUpdate: detail.refreshBeforeUpdate,
    };
  }
}

export interface UpResult {
  state: ResourceState;
  /** The steps the engine took: [], ["update"], ["create", "delete"] or ["delete", "create"]. */
  steps: string[];
  diff?: Awaited<ReturnType<Plugin["diff"]>>;
  checkFailures?: Array<{ property: string; reason: string }>;
  error?: GrpcFailure;
  /** The engine refreshed the resource first, as its state asked (refresh_before_update). */
  refreshed?: boolean;
  /** That refresh's Diff (the refreshed state against the stored inputs), which the CLI shows as `~ refresh`. */
  refreshDiff?: Awaited<ReturnType<Plugin["diff"]>>;
}

export class Engine {
  constructor(readonly plugin: Plugin) {}

  /** A new resource (step_generator.go: no old state): Check without olds, then Create. */
  async create(type: string, name: string, program: Record<string, unknown>, options: ResourceOptions = {}) {
    const checked = await this.plugin.check(type, name, program, {}, checkOptions(options));
    if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    return recorded(this.plugin.create(type, name, checked.inputs, { timeout: options.timeouts?.create }), {
      id: "",
      inputs: checked.inputs,
    });
  }

  /** `create`, for a test's set-up: the state, or the create's failure thrown. */
  async created(
    type: string,
    name: string,
    program: Record<string, unknown>,
    options: ResourceOptions = {},
  ): Promise<ResourceState> {
    const { state, error } = await this.create(type, name, program, options);
    if (error) throw error;
    return state;
  }

  /**
   * deployment_executor.go: before the program runs, every resource whose state asks for it
   * (refresh_before_update) is refreshed, in `pulumi up` and `pulumi preview` alike: a whole
   * `RefreshStep` (`refresh`: Read, then the refresh's Diff, which the CLI shows as the resource's
   * `~ refresh` line), run by a provider configured from the state's own provider inputs. The real CLI
   * sends that Diff too (PULUMI_DEBUG_GRPC in test/e2e/recovery.test.ts's flows).
   */
  private async refreshedFirst(
    type: string,
    name: string,
    old: ResourceState,
    options: ResourceOptions,
  ): Promise<{ state: ResourceState } & Pick<UpResult, "refreshed" | "refreshDiff">> {
    if (!old.refreshBeforeUpdate) return { state: old, refreshed: false };
    const refreshed = await this.refresh(type, name, old, options);
    // A resource gone from the platform leaves the state, and the program's registration creates it anew.
    if (refreshed.gone)
      throw new Error(`${name} refreshed as gone: the engine would create it anew, which this stand-in does not play`);
    return { state: refreshed.state, refreshed: true, refreshDiff: refreshed.diff };
  }

  /**
   * The steps the engine plans for a resource in state (step_generator.go `generateSteps`,
   * `continueStepsFromDiff`): processIgnoreChanges, Check(olds = old inputs), Diff, the
   * resource's replaceOnChanges applied; a replacement Checks the program's inputs again, without
   * olds and with the same seed, and deletes first only when the option or Diff says so.
   */
  private async plan(
    type: string,
    name: string,
    program: Record<string, unknown>,
    old: ResourceState,
    options: ResourceOptions,
  ) {
    const seeded = checkOptions(options);
    const news = processIgnoreChanges(program, old.inputs, options.ignoreChanges);
    const checked = await this.plugin.check(type, name, news, old.inputs, seeded);
    if (checked.failures.length > 0) return { checkFailures: checked.failures };
    const diff = applyReplaceOnChanges(
      await this.plugin.diff(type, name, old.id, old.outputs, checked.inputs, old.inputs, options.ignoreChanges),
      options.replaceOnChanges,
    );
    // plugin.DiffResult.Replace(): a key to replace, or a detailed diff of a _REPLACE kind.
    const replaces =
      diff.replaces.length > 0 || Object.values(diff.detailedDiff).some((kind) => REPLACE_KINDS.has(kind));
    if (!replaces) return { checked, diff };
    const rechecked = await this.plugin.check(type, name, program, {}, seeded);
    if (rechecked.failures.length > 0) return { checkFailures: rechecked.failures, diff };
    const deleteBeforeReplace = options.deleteBeforeReplace ?? diff.deleteBeforeReplace;
    return { checked, diff, replacement: { inputs: rechecked.inputs, deleteBeforeReplace } };
  }

  /**
   * `pulumi up` of a resource already in state: refreshed first where its state asks, then the
   * plan's replacement (create before delete unless deleteBeforeReplace), an Update when something
   * changed, or an empty Update when the state holds init errors (a retried partial failure).
   */
  async up(
    type: string,
    name: string,
    program: Record<string, unknown>,
    stored: ResourceState,
    options: ResourceOptions = {},
  ): Promise<UpResult> {
    const { state: old, refreshed, refreshDiff } = await this.refreshedFirst(type, name, stored, options);
    const planned = await this.plan(type, name, program, old, options);
    if (planned.checkFailures)
      return { checkFailures: planned.checkFailures, state: old, steps: [], refreshed, refreshDiff };
    const { checked, diff, replacement } = planned;
    if (replacement)
      return {
        ...(await this.replace(type, name, replacement.inputs, old, replacement.deleteBeforeReplace)),
        diff,
        refreshed,
        refreshDiff,
      };
    if (diff.changes !== DIFF_SOME && !(old.initErrors?.length ?? 0))
      return { state: old, diff, steps: [], refreshed, refreshDiff };
    const updated = await recorded(
      this.plugin.update(type, name, old.id, old.outputs, checked.inputs, old.inputs, {
        timeout: options.timeouts?.update,
        ignoreChanges: options.ignoreChanges,
      }),
      { id: old.id, inputs: checked.inputs },
    );
    // An Update's partial failure keeps the old inputs (UpdateStep.Apply); a success clears init errors.
    const state = updated.error ? { ...updated.state, inputs: old.inputs } : updated.state;
    return { state, diff, error: updated.error, steps: ["update"], refreshed, refreshDiff };
  }

  /**
   * `pulumi preview` of a resource already in state: as `up`, but the step is sent with
   * `preview: true` (UpdateStep.Apply with preview, which a provider that supports previews
   * answers without acting). Its failure is what the preview shows.
   */
  async preview(
    type: string,
    name: string,
    program: Record<string, unknown>,
    stored: ResourceState,
    options: ResourceOptions = {},
  ) {
    const { state: old, refreshed, refreshDiff } = await this.refreshedFirst(type, name, stored, options);
    const planned = await this.plan(type, name, program, old, options);
    if (planned.checkFailures) return { checkFailures: planned.checkFailures, refreshed, refreshDiff };
    const { checked, diff, replacement } = planned;
    if (diff.changes !== DIFF_SOME) return { diff, refreshed, refreshDiff };
    try {
      if (replacement) {
        const created = await this.plugin.create(type, name, replacement.inputs, { preview: true });
        return { diff, planned: created.properties, replacement, refreshed, refreshDiff };
      }
      const updated = await this.plugin.update(type, name, old.id, old.outputs, checked.inputs, old.inputs, {
        preview: true,
        ignoreChanges: options.ignoreChanges,
      });
      return { diff, planned: updated.properties, refreshed, refreshDiff };
    } catch (err) {
      return { diff, error: err as GrpcFailure, refreshed, refreshDiff };
    }
  }

  /**
   * A replacement the engine makes without asking Diff (step_generator.go `diff`, which answers for the provider), in
   * one of its ways (`ForcedReplacement`). The targeted ones (`isTargetedReplace`: `pulumi up --replace`, a taint)
   * Check without olds, once; the others Check with the old inputs as for any update, then, as a replacement, again
   * without olds (`continueStepsFromDiff`). deleteBeforeReplace comes from the resource option alone (no Diff said
   * otherwise), false by default: the new one is created before the old one is deleted. Under `deletedWith`, that
   * delete sends no Delete (step.go `isDeletedWith`): the resource it is deleted with is replaced too, and its delete
   * takes it along.
   */
  async forceReplace(
    type: string,
    name: string,
    program: Record<string, unknown>,
    old: ResourceState,
    options: ForcedOptions = {},
  ) {
    const inputs = await this.checkedForced(type, name, program, old, options);
    return this.replace(type, name, inputs, old, options.deleteBeforeReplace ?? false, options.way === "deletedWith");
  }

  /** The preview of `forceReplace`: the same Checks, then the Create with `preview: true`, whose failure it shows. */
  async previewForced(
    type: string,
    name: string,
    program: Record<string, unknown>,
    old: ResourceState,
    options: ForcedOptions = {},
  ) {
    const inputs = await this.checkedForced(type, name, program, old, options);
    try {
      return { planned: (await this.plugin.create(type, name, inputs, { preview: true })).properties };
    } catch (err) {
      return { error: err as GrpcFailure };
    }
  }

  private async checkedForced(
    type: string,
    name: string,
    program: Record<string, unknown>,
    old: ResourceState,
    options: ForcedOptions,
  ) {
    const seeded = checkOptions(options);
    if (!TARGETED.includes(options.way ?? "--replace")) {
      const news = processIgnoreChanges(program, old.inputs, options.ignoreChanges);
      const first = await this.plugin.check(type, name, news, old.inputs, seeded);
      if (first.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(first.failures)}`);
    }
    const checked = await this.plugin.check(type, name, program, {}, seeded);
    if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    return checked.inputs;
  }

  private async replace(
    type: string,
    name: string,
    inputs: Record<string, unknown>,
    old: ResourceState,
    deleteBeforeReplace: boolean,
    deletedWithAnother = false,
  ) {
    if (deleteBeforeReplace) await this.plugin.delete(type, name, old.id, old.outputs, old.inputs);
    const created = await recorded(this.plugin.create(type, name, inputs), { id: "", inputs });
    // A failed create stops the run: the old one stays, pending its delete (step.go CreateStep.Apply).
    const deleted = !deleteBeforeReplace && !deletedWithAnother && !created.error;
    if (deleted) await this.plugin.delete(type, name, old.id, old.outputs, old.inputs);
    return {
      state: created.state,
      error: created.error,
      steps: deleteBeforeReplace ? ["delete", "create"] : deleted ? ["create", "delete"] : ["create"],
    };
  }

  /**
   * `pulumi refresh` (step.go `RefreshStep.Apply`): Read with the old inputs and outputs; an
   * empty id means gone; then Diff the other way round (olds and oldInputs = what Read
   * returned, news = the stored inputs), whose result is only displayed and counted
   * (`--expect-no-changes` fails on any change).
   */
  async refresh(type: string, name: string, old: ResourceState, options: ResourceOptions = {}) {
    const read = await readOrInitFailure(
      this.plugin.read(type, name, old.id, old.outputs, old.inputs, options.timeouts?.read),
    );
    if (!read.id) return { gone: true as const };
    // A partial failure does not fail the refresh: the engine warns, and keeps the init errors in state.
    const state: ResourceState = {
      id: read.id,
      inputs: read.inputs,
      outputs: read.properties,
      refreshBeforeUpdate: read.refreshBeforeUpdate,
      ...(read.initErrors ? { initErrors: read.initErrors } : {}),
    };
    const diff = await this.plugin.diff(
      type,
      name,
      read.id,
      read.properties,
      old.inputs,
      read.inputs,
      options.ignoreChanges,
    );
    return { gone: false as const, state, diff };
  }

  /**
   * `pulumi import` (`--file`, or a type, name and id: step.go ImportStep.Apply of a planned import), as
   * the real CLI sends it: Read with only the id; then Check(olds = news = Read's inputs), whose failures
   * the CLI prints as a warning ("One or more imported inputs failed to validate") without failing the
   * import; no Diff. The state keeps Read's inputs and outputs, not Check's answer; the generated
   * program's next preview Checks and Diffs against them (`preview`).
   */
  async importFile(type: string, name: string, id: string) {
    const read = await readOrInitFailure(this.plugin.read(type, name, id));
    if (!read.id) throw new Error(`resource '${id}' does not exist`);
    const checked = await this.plugin.check(type, name, read.inputs, read.inputs);
    const state: ResourceState = {
      id: read.id,
      inputs: read.inputs,
      outputs: read.properties,
      refreshBeforeUpdate: read.refreshBeforeUpdate,
      ...(read.initErrors ? { initErrors: read.initErrors } : {}),
    };
    return { state, read, warnings: checked.failures };
  }

  /**
   * The `import:` resource option (ImportStep.Apply, then step generation): Read with only the
   * id; Check(olds = Read's inputs, news = the program); Diff(olds = Read's outputs, oldInputs
   * = Read's inputs). Anything but DIFF_NONE is an update (or, for a replace, an error).
   */
  async importResource(type: string, name: string, id: string, program: Record<string, unknown>) {
    const read = await readOrInitFailure(this.plugin.read(type, name, id));
    const checked = await this.plugin.check(type, name, program, read.inputs);
    const diff = await this.plugin.diff(type, name, read.id, read.properties, checked.inputs, read.inputs);
    return { read, checked, diff };
  }
}
