// The ResourceProvider gRPC service: decodes what the engine sends, calls the framework's verbs
// (framework/verbs.ts, run with the API by operations.ts), and encodes the answers. It holds no
// rule: Check, Diff, what is refused before a write and what state records are the framework's.
import * as grpc from "@grpc/grpc-js";
import { HostingClient } from "../api/client";
import type { Admission } from "../api/rateControl";
import type { AutonamingOptions } from "../framework/autoname";
import { bindPackage, type BoundResource } from "../framework/bind";
import { checkConfig, resolveConfig } from "../framework/configure";
import { DEFAULT_OPERATION_TIMEOUT_MS, resourceAddress } from "../framework/declare";
import { diffInputs, type DiffResult } from "../framework/diff";
import type { PackageSpec } from "../framework/packageSchema";
import type { CheckFailure, Field } from "../framework/spec";
import { Unknown, type PropertyMap, type PropertyValue } from "../framework/values";
import { checkedArguments, ResourceVerbs, Unfinished } from "../framework/verbs";
import { hostingPackage as pkg } from "../package";
import type { ProviderSettings } from "../providerConfig";
import type { EngineLog } from "./engineLog";
import { type Configured, Operations } from "./operations";
import { CAPABILITIES, type AnswerOf, type EngineProtocol, type ProviderMethod, type RequestOf } from "./methods";
import { missingConfigKeys, plainError, resourceInitFailed, grpcStatusOf, withRedactedFailures } from "./errors";
import { attachProblems, configureProblems, handshakeProblems } from "./protocol";
import type { StructObject } from "./codec";
import { UNKNOWN_SENTINEL, fromStruct, secretStrings, toStruct, type Unmarshalled } from "./marshal";
import { Secrets } from "../redact";
import type { UnrecordedCreates } from "./unrecorded";

export interface ServiceOptions {
  version: string;
  engine: EngineLog;
  /** Debug lines (request traces), when the engine asked for verbose logs; redacted here. */
  debug?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Every secret the provider learns, and the redaction of all it says (start.ts shares it with stderr). */
  secrets?: Secrets;
  /** Makes the API client's admission control in place of the adaptive one (a benchmark's plugin). */
  rateController?: () => Admission;
  /** How long a function may take, in place of INVOKE_TIMEOUT_MS (a test's shorter limit). */
  functionTimeoutMs?: number;
  /** Where what a Create made is kept when the engine gave up its call before the answer (none: nothing is kept). */
  unrecorded?: UnrecordedCreates;
}

/**
 * A method's handler: its request as codec.ts reads it, its answer as codec.ts writes it; `call` says whether the
 * engine gave the call up (its connection closed) before the answer.
 */
type Handler<M extends ProviderMethod> = (request: RequestOf<M>, call?: { cancelled: boolean }) => Promise<AnswerOf<M>>;

/** schema.json is generated from the declarations (`make schema`) and bundled with the plugin. */
const loadSchema = () => require("../../../schema.json") as PackageSpec;
const boundPackage = bindPackage(pkg, loadSchema);

function typeOf(request: { type: string; urn: string }): string {
  if (request.type) return request.type;
  // urn:pulumi:<stack>::<project>::<parent$type>::<name>
  const qualified = request.urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/** The resource's name in the program: the last part of its URN (urn:pulumi:<stack>::<project>::<type>::<name>). */
const nameOf = (urn: string) => urn.split("::").pop() ?? "";

/** CheckRequest.autonaming (the project's pulumi:autonaming), when the engine sent it. */
function autonamingOf(options: RequestOf<"check">["autonaming"]): AutonamingOptions | undefined {
  if (!options) return undefined;
  const mode = String(options.mode).toLowerCase();
  const known = mode === "enforce" || mode === "disable" ? mode : "propose";
  return { proposedName: options.proposedName, mode: known };
}

const checkResponse = (inputs: StructObject, failures: CheckFailure[]): AnswerOf<"check"> => ({ inputs, failures });

const diffResponse = (diff: DiffResult): AnswerOf<"diff"> => ({
  changes: diff.changed ? "DIFF_SOME" : "DIFF_NONE",
  diffs: diff.diffs,
  replaces: diff.replaces,
  deleteBeforeReplace: diff.deleteBeforeReplace,
  hasDetailedDiff: true,
  detailedDiff: diff.detailedDiff,
});

/** Seconds from the engine (0 = none given) to milliseconds, with our default. */
const operationTimeoutMs = (seconds: number, fallbackMs = DEFAULT_OPERATION_TIMEOUT_MS) =>
  seconds > 0 ? seconds * 1000 : fallbackMs;

/** A request whose fields cannot be right (protocol.ts) is refused whole, naming each. */
function refuseProblems(problems: string[]): void {
  if (problems.length > 0) throw plainError(grpc.status.INVALID_ARGUMENT, problems.join("; "));
}

/** How long a function may take (the engine sends Invoke no timeout). */
const INVOKE_TIMEOUT_MS = 60_000;

export class HostingProviderService {
  /** What the engine said of itself in Handshake; absent for an engine without Handshake. */
  engineProtocol?: EngineProtocol;
  private configured?: Configured;

  private readonly secrets: Secrets;
  /** How each lifecycle call runs with the API (operations.ts). */
  private readonly operations: Operations;
  /** Every rule of Check, Diff, Create, Read, Update and Delete: the framework's, run with the API. */
  private readonly verbs: ResourceVerbs;

  constructor(private readonly options: ServiceOptions) {
    this.secrets = options.secrets ?? new Secrets();
    this.operations = new Operations(options.engine, this.redact, () => this.configured, options.unrecorded);
    this.verbs = new ResourceVerbs(pkg.name, this.operations);
  }

  /** Every text the provider says, with every secret it knows blanked out. */
  private readonly redact = (text: string) => this.secrets.redact(text);

  /**
   * What the engine sent, as plain values; its secrets are learned, so that nothing said can repeat them
   * (`fields`: the resource's, whose declared secrets keep their keys plain).
   */
  private unmarshal(struct: StructObject | undefined, fields?: readonly Field[]): Unmarshalled {
    const unmarshalled = fromStruct(struct);
    this.secrets.learn(secretStrings(unmarshalled, fields));
    return unmarshalled;
  }

  /** Values as the engine stores them; the secrets among them (a connection string, a link's variables) are learned. */
  private marshal(values: PropertyMap, fields: Field[], arrivedSecret?: Set<string>): StructObject {
    return toStruct(values, fields, arrivedSecret, (strings) => this.secrets.learn(strings));
  }

  /**
   * Aborts every operation in flight and every one still to come (Cancel, SIGTERM); a write already sent still answers.
   */
  cancelAll() {
    this.operations.cancelAll();
  }

  /** Whether the engine can no longer hear an answer (it closed its connection, or is gone): set by the shutdown. */
  private unheard = false;

  /** From now on, what a create makes is kept for the next run (unrecorded.ts): no answer reaches the engine. */
  answersUnheard(): void {
    this.unheard = true;
  }

  /** The calls being handled: a shutdown waits for them to end, answered or not (`settled`). */
  private readonly handling = new Set<Promise<unknown>>();

  /** Resolves once every call being handled has ended (its answer sent, or nowhere to send it). */
  async settled(): Promise<void> {
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
  }

  private get env() {
    return this.options.env ?? process.env;
  }

  /** The provider's settings, for the properties that default to one of them (`projectId`). */
  private get config(): PropertyMap {
    return this.configured?.values ?? {};
  }

  private resource(type: string): BoundResource {
    const resource = boundPackage.resource(type);
    if (!resource) throw plainError(grpc.status.INVALID_ARGUMENT, `unknown resource type ${type}`);
    return resource;
  }

  // ---- plugin ----

  /**
   * The engine's first call: what it supports, kept for the calls after it (`engineProtocol`), and
   * its address, which it need not pass on the command line then.
   */
  handshake: Handler<"handshake"> = async (request) => {
    refuseProblems(handshakeProblems(request));
    this.engineProtocol = request;
    if (request.engineAddress) this.options.engine.attach(request.engineAddress);
    return CAPABILITIES;
  };

  getPluginInfo: Handler<"getPluginInfo"> = async () => ({ version: this.options.version });

  getSchema: Handler<"getSchema"> = async () => ({ schema: JSON.stringify(loadSchema()) });

  cancel: Handler<"cancel"> = async () => {
    this.cancelAll();
    return {};
  };

  /** A plugin started by hand (PULUMI_DEBUG_PROVIDERS) learns the engine's address here. */
  attach: Handler<"attach"> = async (request) => {
    refuseProblems(attachProblems(request));
    this.options.engine.attach(request.address);
    return {};
  };

  // ---- configuration ----

  checkConfig: Handler<"checkConfig"> = async (request) => {
    const spec = boundPackage.provider();
    const news = this.unmarshal(request.news);
    const { inputs, failures } = checkConfig(spec, pkg.name, news.values, this.env, news.secrets);
    return checkResponse(this.marshal(inputs, spec.fields, news.secrets), failures);
  };

  diffConfig: Handler<"diffConfig"> = async (request) => {
    // A provider whose settings change updates in place: replacing it would replace every resource.
    const spec = boundPackage.provider();
    const olds = checkConfig(spec, pkg.name, this.unmarshal(request.oldInputs ?? request.olds).values, {}).inputs;
    const news = checkConfig(spec, pkg.name, this.unmarshal(request.news).values, {}).inputs;
    return diffResponse(diffInputs(spec, olds, news, olds));
  };

  configure: Handler<"configure"> = async (request) => {
    refuseProblems(configureProblems(request, this.engineProtocol !== undefined));
    const spec = boundPackage.provider();
    const variables = new Map<string, PropertyValue>();
    for (const [key, value] of Object.entries(request.variables))
      variables.set(key, value === UNKNOWN_SENTINEL ? Unknown : value);
    const { values, missing, unknown, failures } = resolveConfig(
      spec,
      pkg.name,
      this.unmarshal(request.args).values,
      variables,
      this.env,
    );
    if (missing.length > 0)
      throw missingConfigKeys(missing.map((f) => ({ name: `${pkg.name}:${f.name}`, description: f.description })));
    if (failures.length > 0) {
      throw plainError(
        grpc.status.INVALID_ARGUMENT,
        failures.map((f) => `${pkg.name}:${f.property}: ${f.reason}`).join("; "),
      );
    }
    const settings = values as unknown as ProviderSettings;
    if (typeof settings.token === "string") this.secrets.learn([settings.token]);
    // A setting not known yet (another resource's output, at preview): Check, Diff and previews work
    // without the API; whatever needs it says which setting it waits for (`operation`).
    const client =
      unknown.length > 0
        ? undefined
        : new HostingClient({
            baseUrl: settings.baseUrl,
            token: settings.token,
            requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
            maxRetries: settings.maxRetries,
            maxResponseBytes: settings.maxResponseMegabytes * 1024 * 1024,
            userAgent: `pulumi-resource-hosting/${this.options.version}`,
            logger: this.options.debug && ((line) => this.options.debug!(this.redact(line))),
            rateController: this.options.rateController?.(),
            demand: this.operations.reads,
          });
    // The provider's id is the engine's sentinel for an unknown value while the provider is still to be created.
    const providerId = request.id && request.id !== UNKNOWN_SENTINEL ? request.id : undefined;
    this.configured = {
      client,
      unknown: unknown.map((f) => `${pkg.name}:${f.name}`),
      values,
      polls: new Map(),
      providerId,
    };
    return { ...CAPABILITIES, supportsPreview: true };
  };

  // ---- resources ----

  check: Handler<"check"> = async (request) => {
    const bound = this.resource(typeOf(request));
    const news = this.unmarshal(request.news, bound.spec.fields);
    const { inputs, failures } = this.verbs.check(bound, {
      urn: request.urn,
      logicalName: request.name || nameOf(request.urn),
      news: news.values,
      olds: this.unmarshal(request.olds, bound.spec.fields).values,
      secretPaths: news.secrets,
      randomSeed: request.randomSeed,
      autonaming: autonamingOf(request.autonaming),
    });
    return checkResponse(this.marshal(inputs, bound.spec.fields, news.secrets), failures);
  };

  /** A call that names a resource by its id: the engine holds it, so nothing kept of it as unrecorded still stands. */
  private held(id: string): void {
    if (id) this.options.unrecorded?.forgetId(id);
  }

  diff: Handler<"diff"> = async (request) => {
    this.held(request.id);
    // The engine passes ignoreChanges to every Diff (a refresh's too) and does not filter the answer.
    const bound = this.resource(typeOf(request));
    const fields = bound.spec.fields;
    const [olds, news] = [this.unmarshal(request.olds, fields), this.unmarshal(request.news, fields)];
    const oldInputs = request.oldInputs && this.unmarshal(request.oldInputs, fields);
    const diff = this.verbs.diff(bound, {
      urn: request.urn,
      id: request.id,
      olds: olds.values,
      news: news.values,
      oldInputs: oldInputs?.values,
      ignoreChanges: request.ignoreChanges,
      // A value secret on either side: a diff names no key inside it.
      secretPaths: new Set([...olds.secrets, ...news.secrets, ...(oldInputs?.secrets ?? [])]),
    });
    return diffResponse(diff);
  };

  create: Handler<"create"> = async (request, call) => {
    const bound = this.resource(typeOf(request));
    const inputs = this.unmarshal(request.properties, bound.spec.fields);
    const encoded = this.encoder(bound, inputs.secrets);
    // A call the engine gave up before the answer (its run stopped: a second Ctrl-C, a killed CLI), or an answer no
    // engine can hear: what the create made is kept for the next run (unrecorded.ts), as the engine never records it.
    const made = (id: string) => {
      const providerId = this.configured?.providerId;
      if (!(call?.cancelled || this.unheard) || !id || !providerId || !this.options.unrecorded) return;
      const name = typeof inputs.values.name === "string" ? inputs.values.name : undefined;
      this.options.unrecorded.keep({ providerId, urn: request.urn, id, name });
    };
    const created = await this.unfinished(
      encoded,
      () =>
        this.verbs.create(bound, {
          urn: request.urn,
          timeoutMs: operationTimeoutMs(request.timeout),
          inputs: inputs.values,
          secretPaths: inputs.secrets,
          preview: request.preview,
        }),
      false,
      made,
    );
    made(created.id);
    return { id: created.id, properties: encoded(created.outputs), refreshBeforeUpdate: created.refreshBeforeUpdate };
  };

  read: Handler<"read"> = async (request) => {
    this.held(request.id);
    const bound = this.resource(typeOf(request));
    const outputs = this.unmarshal(request.properties, bound.spec.fields);
    const oldInputs = this.unmarshal(request.inputs, bound.spec.fields);
    const secrets = new Set([...outputs.secrets, ...oldInputs.secrets]);
    const encoded = this.encoder(bound, secrets);
    const live = await this.unfinished(
      encoded,
      () =>
        this.verbs.read(bound, {
          urn: request.urn,
          timeoutMs: operationTimeoutMs(request.timeout),
          address: resourceAddress(request.id, bound.declaration.scope),
          outputs: outputs.values,
          inputs: oldInputs.values,
          secretPaths: secrets,
        }),
      true,
    );
    if (!live) return {}; // an empty id: the resource is gone
    return {
      id: live.id,
      properties: encoded(live.outputs),
      inputs: encoded(live.inputs),
      refreshBeforeUpdate: live.refreshBeforeUpdate,
    };
  };

  update: Handler<"update"> = async (request) => {
    this.held(request.id);
    const bound = this.resource(typeOf(request));
    const olds = this.unmarshal(request.olds, bound.spec.fields);
    const news = this.unmarshal(request.news, bound.spec.fields);
    const encoded = this.encoder(bound, new Set([...olds.secrets, ...news.secrets]));
    const updated = await this.unfinished(encoded, () =>
      this.verbs.update(bound, {
        urn: request.urn,
        timeoutMs: operationTimeoutMs(request.timeout),
        address: resourceAddress(request.id, bound.declaration.scope),
        olds: olds.values,
        news: news.values,
        oldInputs: request.oldInputs && this.unmarshal(request.oldInputs, bound.spec.fields).values,
        ignoreChanges: request.ignoreChanges,
        secretPaths: news.secrets,
        preview: request.preview,
      }),
    );
    return { properties: encoded(updated.outputs), refreshBeforeUpdate: updated.refreshBeforeUpdate };
  };

  delete: Handler<"delete"> = async (request) => {
    this.held(request.id);
    const bound = this.resource(typeOf(request));
    await this.verbs.delete(bound, {
      urn: request.urn,
      timeoutMs: operationTimeoutMs(request.timeout),
      address: resourceAddress(request.id, bound.declaration.scope),
      outputs: this.unmarshal(request.properties, bound.spec.fields).values,
    });
    return {};
  };

  /** Values of a resource as the engine stores them, with these secret paths kept secret. */
  private encoder(bound: BoundResource, secrets: Set<string>) {
    return (values: PropertyMap) => this.marshal(values, bound.spec.fields, secrets);
  }

  /** An operation that acted but did not finish, as the engine's partial failure: the resource it records, and why. */
  private async unfinished<T>(
    encoded: (values: PropertyMap) => StructObject,
    operation: () => Promise<T>,
    withInputs = false,
    /** Told the id of a resource the operation made and did not finish. */
    made: (id: string) => void = () => undefined,
  ) {
    try {
      return await operation();
    } catch (err) {
      if (!(err instanceof Unfinished)) throw err;
      const { id, outputs, inputs, refreshBeforeUpdate } = err.recorded;
      made(id);
      const recordedInputs = withInputs ? encoded(inputs) : undefined; // the engine reads them from a Read alone
      throw resourceInitFailed(this.redact(err.message), id, encoded(outputs), recordedInputs, refreshBeforeUpdate);
    }
  }

  // ---- functions ----

  invoke: Handler<"invoke"> = async (request) => {
    const fn = boundPackage.function(request.tok);
    if (!fn) throw plainError(grpc.status.INVALID_ARGUMENT, `unknown function ${request.tok}`);
    const args = this.unmarshal(request.args);
    const { call, failures } = checkedArguments(fn, args.values, {
      packageName: pkg.name,
      config: this.config,
      secretPaths: args.secrets,
    });
    if (!call) return { failures };
    // The limit is the whole answer's, the marshalling of a list of thousands included, with no
    // grace after it (a function has no wait of its own to end cleanly).
    const limit = this.options.functionTimeoutMs ?? INVOKE_TIMEOUT_MS;
    const answer = await this.operations.invoke(limit, async (ctx) => {
      const wired = this.marshal(await fn.declaration.invoke(ctx, call), fn.result.fields, args.secrets);
      // The marshalling runs in one go: a deadline that came meanwhile fires at the loop's next timers.
      await new Promise(setImmediate);
      ctx.signal.throwIfAborted();
      return wired;
    });
    return { return: answer };
  };

  /** The method table for grpc-js (methods.ts); the methods it leaves out grpc-js answers UNIMPLEMENTED. */
  implementation(): grpc.UntypedServiceImplementation {
    const methods: { [M in ProviderMethod]: Handler<M> } = {
      handshake: this.handshake,
      getPluginInfo: this.getPluginInfo,
      getSchema: this.getSchema,
      cancel: this.cancel,
      attach: this.attach,
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
          const handled = handler(call.request, call).then(
            (response) => callback(null, withRedactedFailures(response, this.secrets)),
            (err) => callback(this.asGrpcError(err) as any),
          );
          this.handling.add(handled);
          handled.finally(() => this.handling.delete(handled));
        },
      ]),
    );
  }

  private asGrpcError(err: unknown) {
    return grpcStatusOf(err, this.secrets);
  }
}
