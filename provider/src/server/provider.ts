// The ResourceProvider gRPC service: decodes what the engine sends, calls the framework and
// the resource lifecycles, and encodes the answers. No resource logic lives here.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { HostingClient } from "../api/client";
import { checkInputs, type CheckFailure } from "../framework/check";
import { diffInputs, InvalidChangeError, type DiffResult } from "../framework/diff";
import {
  DEFAULT_OPERATION_TIMEOUT_MS,
  PartialFailure,
  ResourceDefinition,
  fieldsFromSchema,
  inputsFromOutputs,
  parseResourceId,
  type OperationContext,
  type ProviderConfig,
} from "../framework/resource";
import { outputFields, type ResourceSpec } from "../framework/spec";
import { PropertyMap, Unknown, containsUnknown, isUnknown } from "../framework/values";
import { MISSING_KEY_DESCRIPTIONS, configFlags } from "../config";
import { getContainerLogs } from "../functions/getContainerLogs";
import { packageSchema, resources } from "../resources";
import type { EngineLog } from "./engineLog";
import { GrpcError, missingConfigKeys, plainError, resourceInitFailed } from "./errors";
import { withHint } from "./hints";
import { fromStruct, toStruct } from "./marshal";
import { guardWrites } from "./writeGuard";

const CONFIG_PREFIX = "hosting:config:";
/** Provider inputs the engine itself adds; they pass through Check untouched. */
const ENGINE_CONFIG_KEYS = new Set(["version", "pluginDownloadURL"]);

export interface ServiceOptions {
  version: string;
  engine: EngineLog;
  /** Debug lines (request traces with secrets redacted), when the engine asked for verbose logs. */
  debug?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Told every secret the provider learns (the token), so that output can be scrubbed of it. */
  onSecret?: (secret: string) => void;
}

type Handler<Req, Res> = (request: Req) => Promise<Res>;

function typeOf(request: { getType?(): string; getUrn(): string }): string {
  const explicit = request.getType?.();
  if (explicit) return explicit;
  // urn:pulumi:<stack>::<project>::<parent$type>::<name>
  const qualified = request.getUrn().split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

const toFailures = (failures: CheckFailure[]) =>
  failures.map(({ property, reason }) => {
    const failure = new provproto.CheckFailure();
    failure.setProperty(property);
    failure.setReason(reason);
    return failure;
  });

const DIFF_KIND = provproto.PropertyDiff.Kind;

function diffResponse(diff: DiffResult): provproto.DiffResponse {
  const response = new provproto.DiffResponse();
  response.setChanges(diff.changed ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  response.setDiffsList(diff.diffs);
  response.setReplacesList(diff.replaces);
  response.setDeletebeforereplace(diff.deleteBeforeReplace);
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const [name, kind] of Object.entries(diff.detailedDiff)) {
    const propertyDiff = new provproto.PropertyDiff();
    propertyDiff.setKind(DIFF_KIND[kind]);
    propertyDiff.setInputdiff(true);
    detailed.set(name, propertyDiff);
  }
  return response;
}

/** Seconds from the engine (0 = none given) to milliseconds, with our default. */
const timeoutMs = (seconds: number, fallbackMs: number) => (seconds > 0 ? seconds * 1000 : fallbackMs);

export class HostingProviderService {
  private config?: ProviderConfig;
  private client?: HostingClient;
  /** True when Configure got unknown values (a preview where config comes from another stack's outputs). */
  private configUnknown = false;
  private readonly cancellation = new AbortController();
  private providerSpec?: ResourceSpec;
  private logsSpec?: ResourceSpec;

  constructor(private readonly options: ServiceOptions) {}

  /** Aborts every wait in flight (Cancel, SIGTERM). */
  cancelAll() {
    this.cancellation.abort();
  }

  private get env() {
    return this.options.env ?? process.env;
  }

  private logsArgsSpec(): ResourceSpec {
    if (!this.logsSpec) {
      const schema = packageSchema();
      const fn = schema.functions![getContainerLogs.token]!;
      this.logsSpec = {
        token: getContainerLogs.token,
        description: "",
        fields: fieldsFromSchema(schema, { inputProperties: fn.inputs?.properties, requiredInputs: fn.inputs?.required }, getContainerLogs.flags as any),
      };
    }
    return this.logsSpec;
  }

  private providerFields() {
    this.providerSpec ??= {
      token: "pulumi:providers:hosting",
      description: "",
      fields: fieldsFromSchema(packageSchema(), packageSchema().provider, configFlags as Record<string, any>),
    };
    return this.providerSpec;
  }

  private resource(type: string): ResourceDefinition {
    const resource = resources.get(type);
    if (!resource) throw plainError(grpc.status.INVALID_ARGUMENT, `unknown resource type ${type}`);
    return resource;
  }

  /**
   * Runs one lifecycle operation with its context: the API, the configuration, and a signal that
   * the operation's deadline aborts, and Cancel/SIGTERM too once no write of the operation is in
   * flight (writeGuard.ts: a create's answer must reach the engine). The signal is released when
   * the operation ends (AbortSignal.any() with the long-lived cancellation signal, and
   * AbortSignal.timeout(), would each keep memory per operation alive on Node 20: a leak over a
   * long run).
   */
  private async operation<T>(urn: string, timeout: number, run: (ctx: OperationContext) => Promise<T>): Promise<T> {
    const { ctx, release } = this.context(urn, timeout);
    try {
      return await run(ctx);
    } finally {
      release();
    }
  }

  private context(urn: string, timeout: number): { ctx: OperationContext; release(): void } {
    if (!this.client || !this.config) {
      throw plainError(
        grpc.status.FAILED_PRECONDITION,
        this.configUnknown
          ? "the provider's configuration is not known yet (it depends on outputs still to be computed)"
          : "the provider is not configured",
      );
    }
    const controller = new AbortController();
    const cancellation = this.cancellation.signal;
    const writes = guardWrites(this.client);
    const cancelled = () => writes.abortWhenIdle(() => controller.abort(cancellation.reason));
    if (cancellation.aborted) cancelled();
    else cancellation.addEventListener("abort", cancelled, { once: true });
    // The deadline, like Cancel, waits for a write in flight: a create's answer must reach the engine.
    const deadline = setTimeout(
      () => writes.abortWhenIdle(() => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"))),
      Math.max(timeout, 1) + 5_000,
    );
    deadline.unref();
    const ctx: OperationContext = {
      client: writes.client,
      config: this.config,
      signal: controller.signal,
      timeoutMs: timeout,
      progress: (message) => this.options.engine.log("info", message, urn, true),
      warn: (message) => this.options.engine.log("warning", message, urn, false),
    };
    const release = () => {
      clearTimeout(deadline);
      cancellation.removeEventListener("abort", cancelled);
      writes.release();
    };
    return { ctx, release };
  }

  // ---- plugin ----

  getPluginInfo: Handler<Empty, plugproto.PluginInfo> = async () => {
    const info = new plugproto.PluginInfo();
    info.setVersion(this.options.version);
    return info;
  };

  getSchema: Handler<provproto.GetSchemaRequest, provproto.GetSchemaResponse> = async () => {
    const response = new provproto.GetSchemaResponse();
    response.setSchema(JSON.stringify(packageSchema()));
    return response;
  };

  cancel: Handler<Empty, Empty> = async () => {
    this.cancelAll();
    return new Empty();
  };

  // ---- configuration ----

  /**
   * Stack config reaches a provider as strings, and the SDKs JSON-encode an explicit
   * provider's non-string inputs, so `maxRetries: 3` arrives as "3". Decode those first.
   */
  private decodedConfig(struct: Struct | undefined) {
    const config = fromStruct(struct);
    for (const field of this.providerFields().fields) {
      const value = config.values[field.name];
      if (field.type.kind === "string" || typeof value !== "string") continue;
      try {
        config.values[field.name] = JSON.parse(value);
      } catch {
        // Not JSON: Check reports the type mismatch, naming the property.
      }
    }
    return config;
  }

  checkConfig: Handler<provproto.CheckRequest, provproto.CheckResponse> = async (request) => {
    const news = this.decodedConfig(request.getNews());
    const olds = this.decodedConfig(request.getOlds());
    const ours: PropertyMap = {};
    const passThrough: PropertyMap = {};
    for (const [key, value] of Object.entries(news.values)) (ENGINE_CONFIG_KEYS.has(key) ? passThrough : ours)[key] = value;
    const { inputs, failures } = checkInputs(this.providerFields(), ours, olds.values, {}, news.secrets);
    for (const key of ["baseUrl", "token"] as const) {
      // An empty value counts as missing, as Configure reads it (found by the bad-input corpus).
      const missing = inputs[key] === undefined || inputs[key] === "";
      if (missing && !this.fromEnv(key) && !failures.some((f) => f.property === key)) {
        failures.push({
          property: key,
          reason: `missing required configuration key "hosting:${key}": ${MISSING_KEY_DESCRIPTIONS[key]}. ` +
            `Set it with \`pulumi config set hosting:${key}${key === "token" ? " --secret" : ""} <value>\`.`,
        });
      }
    }
    const response = new provproto.CheckResponse();
    response.setInputs(toStruct({ ...inputs, ...passThrough }, this.providerFields().fields, news.secrets));
    response.setFailuresList(toFailures(failures));
    return response;
  };

  diffConfig: Handler<provproto.DiffRequest, provproto.DiffResponse> = async (request) => {
    // A provider whose settings change updates in place: replacing it would replace every resource.
    const olds = this.decodedConfig(request.getOldInputs() ?? request.getOlds()).values;
    const diff = diffInputs(this.providerFields(), olds, this.decodedConfig(request.getNews()).values);
    return diffResponse(diff);
  };

  private fromEnv(key: keyof typeof configFlags): string | undefined {
    for (const name of configFlags[key].env ?? []) if (this.env[name]) return this.env[name];
    return undefined;
  }

  configure: Handler<provproto.ConfigureRequest, provproto.ConfigureResponse> = async (request) => {
    const args = this.decodedConfig(request.getArgs()).values;
    const variables = new Map<string, string>();
    request.getVariablesMap().forEach((value, key) => {
      if (key.startsWith(CONFIG_PREFIX)) variables.set(key.slice(CONFIG_PREFIX.length), value);
    });
    const setting = (key: keyof typeof configFlags) => {
      const value = args[key] ?? variables.get(key) ?? this.fromEnv(key);
      return value === undefined || value === null || value === "" ? undefined : value;
    };
    const missing = (["baseUrl", "token"] as const)
      .filter((key) => setting(key) === undefined)
      .map((key) => ({ name: `hosting:${key}`, description: MISSING_KEY_DESCRIPTIONS[key] }));
    if (missing.length > 0) throw missingConfigKeys(missing);

    const values = { baseUrl: setting("baseUrl"), token: setting("token"), projectId: setting("projectId") };
    const tuning = [setting("requestTimeoutSeconds"), setting("maxRetries")];
    this.configUnknown = [...Object.values(values), ...tuning].some(isUnknown);
    if (!this.configUnknown) {
      this.config = values as ProviderConfig;
      this.options.onSecret?.(this.config.token);
      const number = (key: "requestTimeoutSeconds" | "maxRetries", fallback: number) => {
        const value = Number(setting(key) ?? fallback);
        return Number.isFinite(value) ? value : fallback;
      };
      try {
        this.client = new HostingClient({
          baseUrl: this.config.baseUrl,
          token: this.config.token,
          timeoutMs: number("requestTimeoutSeconds", 30) * 1000,
          maxRetries: number("maxRetries", 5),
          userAgent: `pulumi-resource-hosting/${this.options.version}`,
          logger: this.options.debug,
        });
      } catch (err) {
        throw plainError(grpc.status.INVALID_ARGUMENT, `hosting:baseUrl: ${(err as Error).message}`);
      }
    }
    const response = new provproto.ConfigureResponse();
    response.setAcceptsecrets(true);
    response.setSupportspreview(true);
    response.setAcceptresources(false);
    response.setAcceptoutputs(false);
    return response;
  };

  // ---- resources ----

  check: Handler<provproto.CheckRequest, provproto.CheckResponse> = async (request) => {
    const spec = this.resource(typeOf(request)).spec();
    const news = fromStruct(request.getNews());
    const olds = fromStruct(request.getOlds());
    const configDefaults = { projectId: this.configUnknown ? (Unknown as any) : this.config?.projectId };
    const { inputs, failures } = checkInputs(spec, news.values, olds.values, configDefaults, news.secrets);
    const response = new provproto.CheckResponse();
    response.setInputs(toStruct(inputs, spec.fields, news.secrets));
    response.setFailuresList(toFailures(failures));
    return response;
  };

  diff: Handler<provproto.DiffRequest, provproto.DiffResponse> = async (request) => {
    const spec = this.resource(typeOf(request)).spec();
    const olds = fromStruct(request.getOlds()).values;
    const oldInputs = request.getOldInputs() ? fromStruct(request.getOldInputs()).values : olds;
    const news = fromStruct(request.getNews()).values;
    for (const ignored of request.getIgnorechangesList()) delete news[ignored];
    try {
      return diffResponse(diffInputs(spec, olds, news, oldInputs));
    } catch (err) {
      if (err instanceof InvalidChangeError) throw plainError(grpc.status.INVALID_ARGUMENT, err.message);
      throw err;
    }
  };

  create: Handler<provproto.CreateRequest, provproto.CreateResponse> = async (request) => {
    const definition = this.resource(typeOf(request));
    const spec = definition.spec();
    const inputs = fromStruct(request.getProperties());
    const response = new provproto.CreateResponse();
    if (request.getPreview()) {
      // What a preview can say: the inputs, and every output still to be computed.
      const preview: PropertyMap = { ...inputs.values };
      for (const field of outputFields(spec)) preview[field.name] = Unknown;
      response.setProperties(toStruct(preview, spec.fields, inputs.secrets));
      return response;
    }
    try {
      const { id, outputs } = await this.operation(request.getUrn(), timeoutMs(request.getTimeout(), DEFAULT_OPERATION_TIMEOUT_MS), (ctx) =>
        definition.lifecycle.create(ctx, inputs.values as any),
      );
      response.setId(id);
      response.setProperties(toStruct({ ...inputs.values, ...(outputs as PropertyMap) }, spec.fields, inputs.secrets));
      return response;
    } catch (err) {
      if (err instanceof PartialFailure) {
        const properties = toStruct({ ...inputs.values, ...err.outputs }, spec.fields, inputs.secrets);
        throw resourceInitFailed(err.message, err.id, properties, toStruct(inputs.values, spec.fields, inputs.secrets));
      }
      throw err;
    }
  };

  read: Handler<provproto.ReadRequest, provproto.ReadResponse> = async (request) => {
    const definition = this.resource(typeOf(request));
    const spec = definition.spec();
    const outputs = fromStruct(request.getProperties());
    const oldInputs = fromStruct(request.getInputs());
    const address = parseResourceId(request.getId(), definition.projectScoped);
    const live = (await this.operation(request.getUrn(), timeoutMs(0, 5 * 60_000), (ctx) =>
      definition.lifecycle.read(ctx, address, { outputs: outputs.values as any, inputs: oldInputs.values as any }),
    )) as PropertyMap | undefined;
    const response = new provproto.ReadResponse();
    if (!live) return response; // an empty id: the resource is gone
    const secrets = new Set([...outputs.secrets, ...oldInputs.secrets]);
    response.setId(address.id);
    response.setProperties(toStruct(live, spec.fields, secrets));
    response.setInputs(toStruct(inputsFromOutputs(spec, live, oldInputs.values), spec.fields, secrets));
    return response;
  };

  update: Handler<provproto.UpdateRequest, provproto.UpdateResponse> = async (request) => {
    const definition = this.resource(typeOf(request));
    const spec = definition.spec();
    const olds = fromStruct(request.getOlds());
    const news = fromStruct(request.getNews());
    const oldInputs = request.getOldInputs() ? fromStruct(request.getOldInputs()).values : olds.values;
    const secrets = new Set([...olds.secrets, ...news.secrets]);
    const response = new provproto.UpdateResponse();
    if (request.getPreview()) {
      // Known new inputs over the old outputs; computed outputs that an update may move are unknown.
      const preview: PropertyMap = { ...olds.values, ...news.values };
      for (const field of outputFields(spec)) if (field.movesOnUpdate) preview[field.name] = Unknown;
      response.setProperties(toStruct(preview, spec.fields, secrets));
      return response;
    }
    const address = parseResourceId(request.getId(), definition.projectScoped);
    const live = await this.operation(request.getUrn(), timeoutMs(request.getTimeout(), DEFAULT_OPERATION_TIMEOUT_MS), (ctx) =>
      definition.lifecycle.update(ctx, address, olds.values as any, news.values as any, oldInputs as any),
    );
    response.setProperties(toStruct({ ...news.values, ...(live as PropertyMap) }, spec.fields, secrets));
    return response;
  };

  delete: Handler<provproto.DeleteRequest, Empty> = async (request) => {
    const definition = this.resource(typeOf(request));
    const outputs = fromStruct(request.getProperties()).values;
    const address = parseResourceId(request.getId(), definition.projectScoped);
    await this.operation(request.getUrn(), timeoutMs(request.getTimeout(), DEFAULT_OPERATION_TIMEOUT_MS), (ctx) =>
      definition.lifecycle.delete(ctx, address, outputs as any),
    );
    return new Empty();
  };

  // ---- functions ----

  invoke: Handler<provproto.InvokeRequest, provproto.InvokeResponse> = async (request) => {
    if (request.getTok() !== getContainerLogs.token) {
      throw plainError(grpc.status.INVALID_ARGUMENT, `unknown function ${request.getTok()}`);
    }
    const spec = this.logsArgsSpec();
    const args = fromStruct(request.getArgs()).values;
    const { inputs, failures } = checkInputs(spec, args, undefined, { projectId: this.config?.projectId });
    const response = new provproto.InvokeResponse();
    if (failures.length > 0 || containsUnknown(inputs)) {
      response.setFailuresList(toFailures(failures));
      return response;
    }
    const result = await this.operation("", 60_000, (ctx) => getContainerLogs.invoke(ctx, inputs as any));
    response.setReturn(Struct.fromJavaScript({ logs: result.logs }));
    return response;
  };

  /** The method table for grpc-js; Handshake and others stay unimplemented so the engine falls back. */
  implementation(redact: (text: string) => string): grpc.UntypedServiceImplementation {
    const methods: Record<string, Handler<any, any>> = {
      getPluginInfo: this.getPluginInfo,
      getSchema: this.getSchema,
      cancel: this.cancel,
      checkConfig: this.checkConfig,
      diffConfig: this.diffConfig,
      configure: this.configure,
      check: this.check,
      diff: this.diff,
      create: this.create,
      read: this.read,
      update: this.update,
      delete: this.delete,
      invoke: this.invoke,
    };
    return Object.fromEntries(
      Object.entries(methods).map(([name, handler]) => [
        name,
        (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
          handler(call.request).then(
            (response) => callback(null, response),
            (err) => callback(asGrpcError(err, redact) as any),
          );
        },
      ]),
    );
  }
}

function asGrpcError(err: unknown, redact: (text: string) => string): GrpcError {
  if (err && typeof err === "object" && "metadata" in err && "code" in err) {
    const e = err as GrpcError;
    return { ...e, details: redact(e.details), message: redact(e.message) };
  }
  return plainError(grpc.status.UNKNOWN, redact(withHint(err)));
}
