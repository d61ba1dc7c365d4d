// The ResourceProvider gRPC service: decodes what the engine sends, calls the framework and
// the lifecycles, and encodes the answers. No resource logic and no flag logic live here.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { HostingClient, segment } from "../api/client";
import { readConsistency, type Demand } from "../api/loader";
import type { Admission } from "../api/rateControl";
import { bindPackage, type BoundResource } from "../framework/bind";
import { checkInputs, refusedChange } from "../framework/check";
import { checkConfig, resolveConfig } from "../framework/configure";
import {
  DEFAULT_OPERATION_TIMEOUT_MS,
  InputError,
  PartialFailure,
  parseResourceId,
  type OperationContext,
  type Proposal,
  type ResourceAddress,
  type ResourceDeclaration,
} from "../framework/declare";
import { diffInputs, type DiffResult } from "../framework/diff";
import { migrateState } from "../framework/migrations";
import type { PackageSpec } from "../framework/packageSchema";
import { SharedPoll } from "../framework/polling";
import { previewCreate, previewUpdate } from "../framework/preview";
import { desiredInputs, impliedInputs, recordedOutputs } from "../framework/state";
import type { CheckFailure, Field, ObjectSpec } from "../framework/spec";
import { Unknown, containsUnknown, type PropertyMap, type PropertyValue } from "../framework/values";
import { hostingPackage as pkg } from "../package";
import type { EngineLog } from "./engineLog";
import type { ProviderMethod } from "./methods";
import { type GrpcError, missingConfigKeys, plainError, resourceInitFailed, statusOf } from "./errors";
import { withHint } from "./hints";
import type * as wire from "./codec";
import { UNKNOWN_SENTINEL, fromWire, secretStrings, toWire, type Unmarshalled } from "./marshal";
import { Secrets } from "./secrets";

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

type Handler<Req, Res> = (request: Req) => Promise<Res>;
/** A request as codec.ts decodes it, and an answer as it encodes it. */
type Request<S extends Parameters<typeof wire.decode>[0]> = wire.Message<S>;
type Answer<S extends Parameters<typeof wire.decode>[0]> = Partial<wire.Message<S>>;

/** schema.json is generated from the declarations (`make schema`) and bundled with the plugin. */
const loadSchema = () => require("../../../schema.json") as PackageSpec;
const boundPackage = bindPackage(pkg, loadSchema);

function typeOf(request: { type: string; urn: string }): string {
  if (request.type) return request.type;
  // urn:pulumi:<stack>::<project>::<parent$type>::<name>
  const qualified = request.urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/** Why a replacement that would destroy data was refused, and the one deliberate way through. */
function dataLoss(
  what: string,
  replacing: { olds: PropertyMap; news: PropertyMap; replaces: string[] },
  urn: string,
): string {
  const changes = replacing.replaces
    .map((key) => `${key} from ${JSON.stringify(replacing.olds[key])} to ${JSON.stringify(replacing.news[key])}`)
    .join(", ");
  return `changing ${changes} replaces ${what}: the replacement would delete it, so nothing was sent. To keep it, set ${replacing.replaces.join(" and ")} back. To replace it deliberately, run \`pulumi up --replace ${urn}\` (with the resource option deleteBeforeReplace: true if the new one keeps the name); \`pulumi destroy\`, or deleting the resource from the program, deletes it as before.`;
}

const checkResponse = (inputs: wire.WireObject, failures: CheckFailure[]): Answer<typeof wire.CheckResponse> => ({
  inputs,
  failures,
});

function diffResponse(diff: DiffResult): provproto.DiffResponse {
  const response = new provproto.DiffResponse();
  response.setChanges(
    diff.changed ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  response.setDiffsList(diff.diffs);
  response.setReplacesList(diff.replaces);
  response.setDeletebeforereplace(diff.deleteBeforeReplace);
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const [name, change] of Object.entries(diff.detailedDiff)) {
    const propertyDiff = new provproto.PropertyDiff();
    propertyDiff.setKind(provproto.PropertyDiff.Kind[change.kind]);
    propertyDiff.setInputdiff(change.inputDiff);
    detailed.set(name, propertyDiff);
  }
  return response;
}

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
  /**
   * The resources checked since their last Diff: a Diff after a Check plans an operation; one without (a refresh's)
   * does not.
   */
  private readonly checked = new Set<string>();
  /**
   * What this run's Diffs planned to replace, by URN: the engine replaces a resource only after a
   * Diff said so, and a targeted replacement (`pulumi up --replace`) never asks Diff.
   */
  private readonly replacements = new Map<string, { olds: PropertyMap; news: PropertyMap; replaces: string[] }>();

  constructor(private readonly options: ServiceOptions) {
    this.secrets = options.secrets ?? new Secrets();
  }

  /** Every text the provider says, with every secret it knows blanked out. */
  private readonly redact = (text: string) => this.secrets.redact(text);

  /** What the engine sent, as plain values; its secrets are learned, so that nothing said can repeat them. */
  private unmarshal(struct: wire.WireObject | undefined): Unmarshalled {
    const unmarshalled = fromWire(struct);
    this.secrets.learn(secretStrings(unmarshalled));
    return unmarshalled;
  }

  /**
   * A state the engine recorded (outputs, or inputs), in this release's shape: the declaration's migrations applied.
   */
  private recorded(declaration: ResourceDeclaration, struct: wire.WireObject | undefined): Unmarshalled {
    const { values, secrets } = this.unmarshal(struct);
    return { values: migrateState(declaration.migrations, values), secrets };
  }

  /** Values as the engine stores them; the secrets among them (a connection string, a link's variables) are learned. */
  private marshal(values: PropertyMap, fields: Field[], arrivedSecret?: Set<string>): wire.WireObject {
    return toWire(values, fields, arrivedSecret, (strings) => this.secrets.learn(strings));
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
      sharedPoll: <P>(key: string, fetch: (signal: AbortSignal) => Promise<P>) => {
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

  getPluginInfo: Handler<Empty, plugproto.PluginInfo> = async () => {
    const info = new plugproto.PluginInfo();
    info.setVersion(this.options.version);
    return info;
  };

  getSchema: Handler<provproto.GetSchemaRequest, provproto.GetSchemaResponse> = async () => {
    const response = new provproto.GetSchemaResponse();
    response.setSchema(JSON.stringify(loadSchema()));
    return response;
  };

  cancel: Handler<Empty, Empty> = async () => {
    this.cancelAll();
    return new Empty();
  };

  /** A plugin started by hand (PULUMI_DEBUG_PROVIDERS) learns the engine's address here. */
  attach: Handler<plugproto.PluginAttach, Empty> = async (request) => {
    this.options.engine.attach(request.getAddress());
    return new Empty();
  };

  // ---- configuration ----

  checkConfig: Handler<Request<typeof wire.CheckRequest>, Answer<typeof wire.CheckResponse>> = async (request) => {
    const spec = boundPackage.provider();
    const news = this.unmarshal(request.news);
    const { inputs, failures } = checkConfig(spec, pkg.name, news.values, this.env, news.secrets);
    return checkResponse(this.marshal(inputs, spec.fields, news.secrets), failures);
  };

  diffConfig: Handler<Request<typeof wire.DiffRequest>, provproto.DiffResponse> = async (request) => {
    // A provider whose settings change updates in place: replacing it would replace every resource.
    const spec = boundPackage.provider();
    const olds = checkConfig(spec, pkg.name, this.unmarshal(request.oldInputs ?? request.olds).values, {}).inputs;
    const news = checkConfig(spec, pkg.name, this.unmarshal(request.news).values, {}).inputs;
    return diffResponse(diffInputs(spec, olds, news, olds));
  };

  configure: Handler<provproto.ConfigureRequest, provproto.ConfigureResponse> = async (request) => {
    const spec = boundPackage.provider();
    const variables = new Map<string, PropertyValue>();
    request.getVariablesMap().forEach((value, key) => {
      variables.set(key, value === UNKNOWN_SENTINEL ? Unknown : value);
    });
    const { values, missing, unknown, failures } = resolveConfig(
      spec,
      pkg.name,
      this.unmarshal(request.getArgs()?.toJavaScript() as wire.WireObject | undefined).values,
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
    const response = new provproto.ConfigureResponse();
    response.setAcceptsecrets(true);
    response.setSupportspreview(true);
    response.setAcceptresources(false);
    response.setAcceptoutputs(false);
    return response;
  };

  // ---- resources ----

  check: Handler<Request<typeof wire.CheckRequest>, Answer<typeof wire.CheckResponse>> = async (request) => {
    const { spec } = this.resource(typeOf(request));
    const news = this.unmarshal(request.news);
    this.checked.add(request.urn);
    const { inputs, failures } = checkInputs(spec, news.values, {
      packageName: pkg.name,
      config: this.config,
      secretPaths: news.secrets,
    });
    return checkResponse(this.marshal(inputs, spec.fields, news.secrets), failures);
  };

  diff: Handler<Request<typeof wire.DiffRequest>, provproto.DiffResponse> = async (request) => {
    // The engine passes ignoreChanges to every Diff (a refresh's too) and does not filter the answer.
    const { declaration, spec } = this.resource(typeOf(request));
    const urn = request.urn;
    const planning = this.checked.delete(urn);
    const olds = this.recorded(declaration, request.olds).values;
    const oldInputs = request.oldInputs ? this.recorded(declaration, request.oldInputs).values : olds;
    // A Diff without a Check before it is a refresh's, whose news are the inputs the state recorded.
    const news = planning ? this.unmarshal(request.news).values : this.recorded(declaration, request.news).values;
    const diff = diffInputs(spec, olds, news, oldInputs, request.ignoreChanges);
    if (planning && diff.replaces.length > 0) this.replacements.set(urn, { olds, news, replaces: diff.replaces });
    else this.replacements.delete(urn);
    return diffResponse(diff);
  };

  /**
   * A replacement planned by this run's Diff may not destroy data (a database, a volume), nor break
   * a rule of the live world (`judge`): refused here, before any write, at a preview and for real.
   */
  private async judged(
    request: { urn: string; timeout: number },
    declaration: ResourceDeclaration,
    proposal: Proposal<any, any>,
  ): Promise<void> {
    const urn = request.urn;
    const replacing = proposal.operation === "replacement" ? this.replacements.get(urn) : undefined;
    if (replacing && declaration.dataAtStake)
      throw new InputError(dataLoss(declaration.dataAtStake(replacing.olds), replacing, urn));
    const judge = declaration.lifecycle.judge;
    // Unknowns (a preview) are judged at apply time; so is everything when the provider cannot reach the API yet.
    if (!judge || containsUnknown(proposal.news) || !this.configured?.client) return;
    const refusal = await this.operation(urn, operationTimeoutMs(request.timeout), (ctx) => judge(ctx, proposal));
    if (refusal) throw new InputError(refusal);
  }

  create: Handler<Request<typeof wire.CreateRequest>, Answer<typeof wire.CreateResponse>> = async (request) => {
    const { declaration, spec } = this.resource(typeOf(request));
    const inputs = this.unmarshal(request.properties);
    this.refuseUnchecked(spec, inputs);
    // A Check's plan ends with the operation it planned (so a refresh's Diff after it plans nothing).
    this.checked.delete(request.urn);
    const replacing = this.replacements.get(request.urn);
    const wanted = desiredInputs(spec, inputs.values, {}, this.config);
    await this.judged(request, declaration, {
      operation: replacing ? "replacement" : "create",
      news: wanted,
      olds: replacing?.olds,
    });
    if (request.preview)
      return { properties: this.marshal(previewCreate(spec, inputs.values), spec.fields, inputs.secrets) };
    const record = (outputs: PropertyMap) =>
      this.marshal(recordedOutputs(spec, { ...inputs.values, ...outputs }, inputs.values), spec.fields, inputs.secrets);
    try {
      const { id, outputs } = await this.operation(request.urn, operationTimeoutMs(request.timeout), (ctx) =>
        declaration.lifecycle.create(ctx, wanted as any, { replacing: replacing?.olds }),
      );
      // Made: the old one's delete (create before delete) is no longer part of a plan to judge.
      this.replacements.delete(request.urn);
      return { id, properties: record(outputs as PropertyMap) };
    } catch (err) {
      if (err instanceof PartialFailure)
        throw resourceInitFailed(
          this.redact(err.message),
          err.id,
          record(err.outputs),
          this.marshal(inputs.values, spec.fields, inputs.secrets),
        );
      throw err;
    }
  };

  read: Handler<Request<typeof wire.ReadRequest>, Answer<typeof wire.ReadResponse>> = async (request) => {
    const { declaration, spec } = this.resource(typeOf(request));
    const outputs = this.recorded(declaration, request.properties);
    const oldInputs = this.recorded(declaration, request.inputs);
    const address = addressOf(request.id, declaration);
    // A read has no wait of its own to end cleanly: its customTimeouts.read is the deadline itself.
    const reading = (ctx: OperationContext<HostingClient>) =>
      declaration.lifecycle.read(ctx, address, { outputs: outputs.values, inputs: oldInputs.values });
    // Only a run that asks for snapshots pays for the async context that carries the choice.
    const snapshot = this.config.readConsistency === "snapshot";
    this.reads.started();
    let live: PropertyMap | undefined;
    try {
      live = (await this.operation(
        request.urn,
        operationTimeoutMs(request.timeout),
        (ctx) => (snapshot ? readConsistency.run("snapshot", () => reading(ctx)) : reading(ctx)),
        0,
      )) as PropertyMap | undefined;
    } finally {
      this.reads.ended();
    }
    if (!live) return {}; // an empty id: the resource is gone
    const secrets = new Set([...outputs.secrets, ...oldInputs.secrets]);
    const recorded = recordedOutputs(spec, live, oldInputs.values);
    const properties = this.marshal(recorded, spec.fields, secrets);
    const inputs = this.marshal(impliedInputs(spec, recorded, oldInputs.values, this.config), spec.fields, secrets);
    // Still failed (or not ready): a refresh keeps it so, and the next `pulumi up` retries it.
    const unfinished = declaration.unfinished?.(recorded);
    if (unfinished) throw resourceInitFailed(this.redact(unfinished), address.id, properties, inputs);
    return { id: address.id, properties, inputs };
  };

  update: Handler<Request<typeof wire.UpdateRequest>, Answer<typeof wire.UpdateResponse>> = async (request) => {
    const { declaration, spec } = this.resource(typeOf(request));
    const olds = this.recorded(declaration, request.olds);
    const news = this.unmarshal(request.news);
    const oldInputs = request.oldInputs ? this.recorded(declaration, request.oldInputs) : olds;
    const secrets = new Set([...olds.secrets, ...news.secrets]);
    this.refuseUnchecked(spec, news);
    this.checked.delete(request.urn);
    const refused = refusedChange(spec, olds.values, news.values, request.ignoreChanges);
    if (refused) throw new InputError(refused.reason);
    const address = addressOf(request.id, declaration);
    const wanted = desiredInputs(spec, news.values, oldInputs.values, this.config);
    await this.judged(request, declaration, { operation: "update", news: wanted, olds: olds.values, id: address.id });
    if (request.preview)
      return {
        properties: this.marshal(previewUpdate(spec, olds.values, news.values, oldInputs.values), spec.fields, secrets),
      };
    const record = (outputs: PropertyMap) =>
      this.marshal(recordedOutputs(spec, { ...wanted, ...outputs }, wanted), spec.fields, secrets);
    const update = declaration.lifecycle.update;
    try {
      // Without an update of its own every input replaces (bind.ts): no input changed, so it stays as it is.
      const live = await this.operation(request.urn, operationTimeoutMs(request.timeout), async (ctx) =>
        update
          ? update(ctx, address, { olds: olds.values, news: wanted as any, oldInputs: oldInputs.values })
          : olds.values,
      );
      return { properties: record(live as PropertyMap) };
    } catch (err) {
      // The engine keeps the old inputs and records these outputs with the error (a retry is an update).
      if (err instanceof PartialFailure)
        throw resourceInitFailed(
          this.redact(err.message),
          address.id,
          record(err.outputs),
          this.marshal(oldInputs.values, spec.fields, secrets),
        );
      throw err;
    }
  };

  delete: Handler<Request<typeof wire.DeleteRequest>, Empty> = async (request) => {
    const { declaration } = this.resource(typeOf(request));
    const outputs = this.recorded(declaration, request.properties).values;
    const address = addressOf(request.id, declaration);
    // The delete that starts a delete-before-replace: the replacement is judged before anything is deleted.
    const replacing = this.replacements.get(request.urn);
    if (replacing)
      await this.judged(request, declaration, {
        operation: "replacement",
        news: replacing.news,
        olds: outputs,
        id: address.id,
      });
    await this.operation(request.urn, operationTimeoutMs(request.timeout), (ctx) =>
      declaration.lifecycle.delete(ctx, address, outputs),
    );
    return new Empty();
  };

  /**
   * Create and Update act on what Check passed. The engine always checks first; inputs that would
   * not pass (sent by something else, or without a Check) are refused here, before any call.
   */
  private refuseUnchecked(spec: ObjectSpec, inputs: Unmarshalled): void {
    const { failures } = checkInputs(spec, inputs.values, {
      packageName: pkg.name,
      config: this.config,
      secretPaths: inputs.secrets,
    });
    if (failures.length > 0) {
      throw new InputError(
        `these inputs did not pass Check, so nothing was sent: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
      );
    }
  }

  // ---- functions ----

  invoke: Handler<Request<typeof wire.InvokeRequest>, Answer<typeof wire.InvokeResponse>> = async (request) => {
    const fn = boundPackage.function(request.tok);
    if (!fn) throw plainError(grpc.status.INVALID_ARGUMENT, `unknown function ${request.tok}`);
    const args = this.unmarshal(request.args);
    const { inputs, failures } = checkInputs(fn.args, args.values, {
      packageName: pkg.name,
      config: this.config,
      secretPaths: args.secrets,
    });
    // Arguments not known yet (a preview) are never sent to the API; the SDKs do not ask then.
    if (failures.length > 0 || containsUnknown(inputs)) return { failures };
    // The limit is the whole answer's, the marshalling of a list of thousands included, with no
    // grace after it (a function has no wait of its own to end cleanly).
    const limit = this.options.functionTimeoutMs ?? INVOKE_TIMEOUT_MS;
    const answer = await this.operation(
      "",
      limit,
      async (ctx) => {
        const wired = this.marshal(await fn.declaration.invoke(ctx, inputs), fn.result.fields, args.secrets);
        // The marshalling runs in one go: a deadline that came meanwhile fires at the loop's next timers.
        await new Promise(setImmediate);
        ctx.signal.throwIfAborted();
        return wired;
      },
      0,
    );
    return { return: answer };
  };

  /** The method table for grpc-js; Handshake and others stay unimplemented so the engine falls back. */
  implementation(): grpc.UntypedServiceImplementation {
    const methods: Record<ProviderMethod, Handler<any, any>> = {
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
            (response) => callback(null, response),
            (err) => callback(this.asGrpcError(err) as any),
          );
        },
      ]),
    );
  }

  private asGrpcError(err: unknown): GrpcError {
    if (err && typeof err === "object" && "metadata" in err && "code" in err) {
      const e = err as GrpcError;
      return { ...e, details: this.redact(e.details), message: this.redact(e.message) };
    }
    return plainError(statusOf(err), this.redact(withHint(err)));
  }
}
