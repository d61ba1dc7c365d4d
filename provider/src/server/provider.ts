// The ResourceProvider gRPC service: decodes what the engine sends, calls the framework and
// the lifecycles, and encodes the answers. No resource logic and no flag logic live here.
import * as grpc from "@grpc/grpc-js";
import { HostingClient, segment } from "../api/client";
import { readConsistency, type Demand } from "../api/loader";
import type { Admission } from "../api/rateControl";
import type { AutonamingOptions } from "../framework/autoname";
import { bindPackage, type BoundResource } from "../framework/bind";
import { checkConfig, resolveConfig } from "../framework/configure";
import {
  DEFAULT_OPERATION_TIMEOUT_MS,
  PartialFailure,
  parseResourceId,
  type OperationContext,
  type ResourceAddress,
} from "../framework/declare";
import { diffInputs, type DiffResult } from "../framework/diff";
import type { PackageSpec } from "../framework/packageSchema";
import { SharedPoll } from "../framework/polling";
import type { CheckFailure, Field } from "../framework/spec";
import { Unknown, type PropertyMap, type PropertyValue } from "../framework/values";
import { checkedArguments, ResourceVerbs, Unfinished } from "../framework/verbs";
import { hostingPackage as pkg } from "../package";
import type { EngineLog } from "./engineLog";
import { CAPABILITIES, type AnswerOf, type EngineProtocol, type ProviderMethod, type RequestOf } from "./methods";
import { type GrpcError, missingConfigKeys, plainError, resourceInitFailed, said, withSaidFailures } from "./errors";
import type { StructObject } from "./codec";
import { UNKNOWN_SENTINEL, fromStruct, secretStrings, toStruct, type Unmarshalled } from "./marshal";
import { Secrets } from "../redact";

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
}

/** A method's handler: its request as codec.ts reads it, its answer as codec.ts writes it. */
type Handler<M extends ProviderMethod> = (request: RequestOf<M>) => Promise<AnswerOf<M>>;

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

/**
 * Where a resource is, from the id the engine sends (`<id>` or `<projectId>/<id>`), each part
 * refused unless it can only be an id: an id is data, never a path (`<project>/..` must not
 * reach the project itself). An attachment's `<volumeId>:<containerId>` is checked part by part.
 */
function addressOf(id: string, declaration: BoundResource["declaration"]): ResourceAddress {
  const address = parseResourceId(id, declaration.scope);
  for (const part of address.id.split(":")) segment(part);
  // The project in front, which a resource outside projects ignores but must still be one.
  if (id.includes("/")) segment(id.slice(0, id.indexOf("/")), "project id");
  return address;
}

/** Seconds from the engine (0 = none given) to milliseconds, with our default. */
const operationTimeoutMs = (seconds: number, fallbackMs = DEFAULT_OPERATION_TIMEOUT_MS) =>
  seconds > 0 ? seconds * 1000 : fallbackMs;

/**
 * The Reads in flight, and the most that were in flight at once since the last pause of more than
 * BURST_GAP_MS: in a refresh, the engine's window (P), which it refills as Reads are answered.
 */
class ReadsInFlight implements Demand {
  private inFlight = 0;
  private peak = 0;
  private idleSince = 0;

  started(): void {
    if (this.inFlight === 0 && performance.now() - this.idleSince > BURST_GAP_MS) this.peak = 0;
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
  }

  ended(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.idleSince = performance.now();
  }

  expected(): number {
    return this.peak;
  }
}

/**
 * An operation's warnings reach the engine before its answer does, as a Go provider's blocking
 * host.Log makes them: a warning that trails the last step's answer may find the engine gone. A
 * slow or absent engine holds the answer back WARNING_DELIVERY_MS at most.
 */
async function delivered(warnings: Promise<void>[]): Promise<void> {
  if (warnings.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, WARNING_DELIVERY_MS)));
  await Promise.race([Promise.all(warnings), late]);
  clearTimeout(timer);
}

const WARNING_DELIVERY_MS = 2_000;

/** Longer than the engine takes to send its next Reads after a batch is answered; shorter than a pause between runs. */
const BURST_GAP_MS = 100;

/** Why an operation's signal aborted when it ran past its deadline. */
class OperationDeadline extends Error {
  override readonly name = "OperationDeadline";
}

/** How long past its own timeout an operation may run before its signal aborts it (a backstop). */
const DEADLINE_GRACE_MS = 5_000;
/** How long a function may take (the engine sends Invoke no timeout). */
const INVOKE_TIMEOUT_MS = 60_000;

interface Configured {
  /** None while a setting is not known yet (a preview of a provider configured from other resources' outputs). */
  client?: HostingClient;
  /** The settings not known yet, as `<package>:<key>`. */
  unknown: string[];
  /** The provider's settings as Configure resolved them. */
  values: PropertyMap;
  /** The provider's poll loops, one per source (see OperationContext.sharedPoll). */
  polls: Map<string, SharedPoll<unknown>>;
}

export class HostingProviderService {
  /** What the engine said of itself in Handshake; absent for an engine without Handshake. */
  engineProtocol?: EngineProtocol;
  private configured?: Configured;
  /**
   * The operations in flight, which Cancel and SIGTERM abort. A set rather than listeners on one
   * shared signal: an EventTarget looks for a duplicate before it adds a listener, so a refresh
   * with 1,000 Reads in flight walked 1,000 listeners for each one added and removed.
   */
  private readonly inFlight = new Set<AbortController>();
  private cancelled = false;

  private readonly secrets: Secrets;
  /** The Reads in flight: how many reads the API client's shared requests may expect to gather. */
  private readonly reads = new ReadsInFlight();
  /** Every rule of Check, Diff, Create, Read, Update and Delete: the framework's, run here with the API. */
  private readonly verbs = new ResourceVerbs(pkg.name, {
    run: (urn, timeoutMs, call) => this.operation(urn, timeoutMs, call),
    read: (urn, timeoutMs, call) => this.reading(urn, timeoutMs, call),
    reachable: () => this.configured?.client !== undefined,
    config: () => this.config,
  });

  constructor(private readonly options: ServiceOptions) {
    this.secrets = options.secrets ?? new Secrets();
  }

  /** Every text the provider says, with every secret it knows blanked out. */
  private readonly redact = (text: string) => this.secrets.redact(text);

  /** What the engine sent, as plain values; its secrets are learned, so that nothing said can repeat them. */
  private unmarshal(struct: StructObject | undefined): Unmarshalled {
    const unmarshalled = fromStruct(struct);
    this.secrets.learn(secretStrings(unmarshalled));
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
    this.cancelled = true;
    for (const controller of this.inFlight) controller.abort();
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

  /**
   * Runs one lifecycle operation with its context: the API, the defaults, and a signal that
   * Cancel, SIGTERM and the operation's deadline abort. Its timer and its place among the
   * operations in flight are released when it ends (AbortSignal.any() and AbortSignal.timeout()
   * would each keep memory per operation alive on Node 20: a leak over a long run).
   */
  private async operation<T>(
    urn: string,
    timeout: number,
    run: (ctx: OperationContext<HostingClient>) => Promise<T>,
    grace = DEADLINE_GRACE_MS,
  ): Promise<T> {
    const configured = this.configured;
    if (!configured) throw plainError(grpc.status.FAILED_PRECONDITION, "the provider is not configured");
    const client = configured.client;
    if (!client) {
      const keys = configured.unknown.join(", ");
      const several = configured.unknown.length > 1;
      throw plainError(
        grpc.status.FAILED_PRECONDITION,
        `the provider's ${keys} ${several ? "are" : "is"} not known yet: ${several ? "they come" : "it comes"} from another resource's outputs, which a preview does not have. This call needs the API; it runs once ${keys} ${several ? "are" : "is"} known, at \`pulumi up\`.`,
      );
    }
    const controller = new AbortController();
    if (this.cancelled) controller.abort();
    this.inFlight.add(controller);
    const deadline = setTimeout(
      () => controller.abort(new OperationDeadline("the operation ran past its timeout")),
      Math.max(timeout, 1) + grace,
    );
    deadline.unref();
    const warnings: Promise<void>[] = [];
    const ctx: OperationContext<HostingClient> = {
      client,
      config: configured.values,
      signal: controller.signal,
      operationTimeoutMs: timeout,
      progress: (message) => void this.options.engine.log("info", this.redact(message), urn, true),
      warn: (message) => void warnings.push(this.options.engine.log("warning", this.redact(message), urn, false)),
      redact: this.redact,
      sharedPoll: <P>(key: string, fetch: () => Promise<P>) => {
        if (!configured.polls.has(key)) configured.polls.set(key, new SharedPoll(fetch));
        return configured.polls.get(key) as SharedPoll<P>;
      },
    };
    const started = Date.now();
    try {
      return await run(ctx);
    } catch (err) {
      const timedOut = controller.signal.aborted && controller.signal.reason instanceof OperationDeadline;
      if (timedOut && !(err instanceof PartialFailure))
        throw this.deadlineError(urn, timeout, client.transport.rateLimitedSince(started), err);
      throw err;
    } finally {
      clearTimeout(deadline);
      this.inFlight.delete(controller);
      await delivered(warnings);
    }
  }

  /**
   * A Read's operation: its customTimeouts.read is the deadline itself (a read has no wait of its own
   * to end cleanly), it counts among the Reads in flight, and a run that asks for snapshots reads
   * this run's lists (only such a run pays for the async context that carries the choice).
   */
  private async reading<T>(urn: string, timeout: number, read: (ctx: OperationContext<HostingClient>) => Promise<T>) {
    const snapshot = this.config.readConsistency === "snapshot";
    this.reads.started();
    try {
      return await this.operation(
        urn,
        timeout,
        (ctx) => (snapshot ? readConsistency.run("snapshot", () => read(ctx)) : read(ctx)),
        0,
      );
    } finally {
      this.reads.ended();
    }
  }

  /** What ran out of time, and why when it was the API's rate limit that held it up. */
  private deadlineError(urn: string, timeout: number, rateLimited: number, err: unknown): GrpcError {
    const limit =
      urn === ""
        ? `${Math.round(timeout / 1000)}s (the time a function may take)`
        : `${Math.round(timeout / 1000)}s (customTimeouts)`;
    const why =
      rateLimited > 0
        ? `the API was rate limiting it (${rateLimited} answer${rateLimited === 1 ? " was" : "s were"} 429 RATE_LIMITED, and every request waited as Retry-After said); run it again when the API is less busy, or lower \`pulumi up --parallel\``
        : (err as Error).message;
    return plainError(grpc.status.DEADLINE_EXCEEDED, `did not finish within ${limit}: ${why}`);
  }

  // ---- plugin ----

  /**
   * The engine's first call: what it supports, kept for the calls after it (`engineProtocol`), and
   * its address, which it need not pass on the command line then.
   */
  handshake: Handler<"handshake"> = async (request) => {
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
    const settings = values as {
      baseUrl: string;
      token: string;
      projectId?: string;
      requestTimeoutSeconds: number;
      maxRetries: number;
      maxResponseMegabytes: number;
    };
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
            demand: this.reads,
          });
    this.configured = { client, unknown: unknown.map((f) => `${pkg.name}:${f.name}`), values, polls: new Map() };
    return { ...CAPABILITIES, supportsPreview: true };
  };

  // ---- resources ----

  check: Handler<"check"> = async (request) => {
    const bound = this.resource(typeOf(request));
    const news = this.unmarshal(request.news);
    const { inputs, failures } = this.verbs.check(bound, {
      urn: request.urn,
      logicalName: request.name || nameOf(request.urn),
      news: news.values,
      olds: this.unmarshal(request.olds).values,
      secretPaths: news.secrets,
      randomSeed: request.randomSeed,
      autonaming: autonamingOf(request.autonaming),
    });
    return checkResponse(this.marshal(inputs, bound.spec.fields, news.secrets), failures);
  };

  diff: Handler<"diff"> = async (request) => {
    // The engine passes ignoreChanges to every Diff (a refresh's too) and does not filter the answer.
    const news = this.unmarshal(request.news);
    const diff = this.verbs.diff(this.resource(typeOf(request)), {
      urn: request.urn,
      olds: this.unmarshal(request.olds).values,
      news: news.values,
      oldInputs: request.oldInputs && this.unmarshal(request.oldInputs).values,
      ignoreChanges: request.ignoreChanges,
      secretPaths: news.secrets,
    });
    return diffResponse(diff);
  };

  create: Handler<"create"> = async (request) => {
    const bound = this.resource(typeOf(request));
    const inputs = this.unmarshal(request.properties);
    const encoded = this.encoder(bound, inputs.secrets);
    const created = await this.unfinished(encoded, () =>
      this.verbs.create(bound, {
        urn: request.urn,
        timeoutMs: operationTimeoutMs(request.timeout),
        inputs: inputs.values,
        secretPaths: inputs.secrets,
        preview: request.preview,
      }),
    );
    return { id: created.id, properties: encoded(created.outputs), refreshBeforeUpdate: created.refreshBeforeUpdate };
  };

  read: Handler<"read"> = async (request) => {
    const bound = this.resource(typeOf(request));
    const outputs = this.unmarshal(request.properties);
    const oldInputs = this.unmarshal(request.inputs);
    const encoded = this.encoder(bound, new Set([...outputs.secrets, ...oldInputs.secrets]));
    const live = await this.unfinished(encoded, () =>
      this.verbs.read(bound, {
        urn: request.urn,
        timeoutMs: operationTimeoutMs(request.timeout),
        address: addressOf(request.id, bound.declaration),
        outputs: outputs.values,
        inputs: oldInputs.values,
        secretPaths: outputs.secrets,
      }),
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
    const bound = this.resource(typeOf(request));
    const olds = this.unmarshal(request.olds);
    const news = this.unmarshal(request.news);
    const encoded = this.encoder(bound, new Set([...olds.secrets, ...news.secrets]));
    const updated = await this.unfinished(encoded, () =>
      this.verbs.update(bound, {
        urn: request.urn,
        timeoutMs: operationTimeoutMs(request.timeout),
        address: addressOf(request.id, bound.declaration),
        olds: olds.values,
        news: news.values,
        oldInputs: request.oldInputs && this.unmarshal(request.oldInputs).values,
        ignoreChanges: request.ignoreChanges,
        secretPaths: news.secrets,
        preview: request.preview,
      }),
    );
    return { properties: encoded(updated.outputs), refreshBeforeUpdate: updated.refreshBeforeUpdate };
  };

  delete: Handler<"delete"> = async (request) => {
    const bound = this.resource(typeOf(request));
    await this.verbs.delete(bound, {
      urn: request.urn,
      timeoutMs: operationTimeoutMs(request.timeout),
      address: addressOf(request.id, bound.declaration),
      outputs: this.unmarshal(request.properties).values,
    });
    return {};
  };

  /** Values of a resource as the engine stores them, with these secret paths kept secret. */
  private encoder(bound: BoundResource, secrets: Set<string>) {
    return (values: PropertyMap) => this.marshal(values, bound.spec.fields, secrets);
  }

  /** An operation that acted but did not finish, as the engine's partial failure: the resource it records, and why. */
  private async unfinished<T>(encoded: (values: PropertyMap) => StructObject, operation: () => Promise<T>) {
    try {
      return await operation();
    } catch (err) {
      if (!(err instanceof Unfinished)) throw err;
      const { id, outputs, inputs, refreshBeforeUpdate } = err.recorded;
      throw resourceInitFailed(this.redact(err.message), id, encoded(outputs), encoded(inputs), refreshBeforeUpdate);
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
    const answer = await this.operation(
      "",
      limit,
      async (ctx) => {
        const wired = this.marshal(await fn.declaration.invoke(ctx, call), fn.result.fields, args.secrets);
        // The marshalling runs in one go: a deadline that came meanwhile fires at the loop's next timers.
        await new Promise(setImmediate);
        ctx.signal.throwIfAborted();
        return wired;
      },
      0,
    );
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
          handler(call.request).then(
            (response) => callback(null, withSaidFailures(response, this.secrets)),
            (err) => callback(this.asGrpcError(err) as any),
          );
        },
      ]),
    );
  }

  private asGrpcError(err: unknown) {
    return said(err, this.secrets);
  }
}
