// The simulator without its socket: switches, users, faults, rate limit, request log, and the
// API pipeline that turns one request into one reply.
import { after } from "./clock";
import { COLLECTIONS } from "./collections";
import { Store } from "./state";
import type { Ctx, Reply } from "./context";
import { DEFAULT_SWITCHES, DEFAULT_USERS } from "./defaults";
import { ApiFailure, codeForStatus, errorBody, notFound } from "./errors";
import { FaultQueue, echoedEnv } from "./faults";
import { TokenBucket } from "./ratelimit";
import { findRoute } from "./routes";
import { checkSwitches } from "./switches";
import type { Fault, RequestLogEntry, SimKind, SimUser, SimulatorControl, SimulatorOptions, Switches } from "./types";
import { parseObject } from "./validate";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Thrown by the control object for an unknown id; the admin API answers 404. */
export class UnknownRecordError extends Error {}

export class Core {
  readonly store: Store;
  readonly faults = new FaultQueue();
  private switchValues: Switches;
  private readonly initialSwitches: Switches;
  private readonly users: Map<string, SimUser>;
  private bucket: TokenBucket;
  private log: RequestLogEntry[] = [];

  constructor(private readonly options: SimulatorOptions = {}) {
    const { host: _h, port: _p, users, stateFile, log: _l, maxHeaderBytes: _m, ...switchOptions } = options;
    this.initialSwitches = { ...DEFAULT_SWITCHES, ...checkSwitches(switchOptions) };
    this.switchValues = { ...this.initialSwitches };
    this.users = new Map((users ?? DEFAULT_USERS).map((user) => [user.token, user]));
    this.bucket = new TokenBucket(this.switchValues.rateLimitPerSecond, Date.now());
    this.store = new Store(COLLECTIONS, stateFile);
    this.store.load();
  }

  get switches(): Switches {
    return this.switchValues;
  }

  setSwitches(patch: Partial<Switches>): void {
    this.switchValues = { ...this.switchValues, ...checkSwitches(patch) };
    if (patch.rateLimitPerSecond !== undefined)
      this.bucket = new TokenBucket(this.switchValues.rateLimitPerSecond, Date.now());
  }

  record(entry: RequestLogEntry): void {
    this.log.push(entry);
    const withheld = entry.withheldStatus === undefined ? "" : ` (withheld ${entry.withheldStatus})`;
    const fault = entry.fault ? ` fault=${entry.fault}${withheld}` : "";
    this.options.log?.(`${entry.method} ${entry.path} -> ${entry.status} ${entry.requestId}${fault}`);
  }

  /** The reply an injected fault gives instead of acting, for the kinds that answer at once. */
  faultReply(fault: Fault, requestId: string, rawBody = ""): Reply | undefined {
    if (fault.kind === "echo_env")
      return this.errorReply(new ApiFailure(400, "VALIDATION_FAILED", echoedEnv(rawBody)), requestId);
    if (fault.kind === "status") {
      const status = fault.status ?? 500;
      return this.errorReply(new ApiFailure(status, codeForStatus(status), "injected fault"), requestId);
    }
    if (fault.kind === "rate_limit") {
      const headers: Record<string, string> = fault.retryAfter == null ? {} : { "retry-after": fault.retryAfter };
      return this.errorReply(new ApiFailure(429, "RATE_LIMITED", "too many requests (injected)", headers), requestId);
    }
    return undefined;
  }

  /** The answer to an API request whose body is over `maxRequestBodyBytes`. */
  payloadTooLarge(requestId: string): Reply {
    const limit = this.switchValues.maxRequestBodyBytes;
    return this.errorReply(
      new ApiFailure(413, "PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`),
      requestId,
    );
  }

  /** One API request, start to end: rate limit, auth, route, permission, ownership, then the rules. */
  handleApi(
    method: string,
    path: string,
    authorization: string | undefined,
    rawBody: string,
    requestId: string,
  ): Reply {
    const now = Date.now();
    try {
      const wait = this.bucket.take(now);
      if (wait !== undefined) {
        throw new ApiFailure(429, "RATE_LIMITED", "too many requests", { "retry-after": String(wait) });
      }
      const user = this.authenticate(authorization);
      const route = findRoute(method, path);
      if (route.kind === "none") throw notFound(`${path}`);
      if (route.kind === "wrong_method") {
        throw new ApiFailure(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here`, {
          allow: route.allowed.join(", "),
        });
      }
      if (WRITE_METHODS.has(method) && user.readOnly)
        throw new ApiFailure(403, "FORBIDDEN", "this user may not make changes");
      const projectId = route.params.projectId;
      if (projectId !== undefined && !user.projects.includes(projectId)) throw notFound(`project ${projectId}`);

      this.store.settle(now);
      const ctx: Ctx = {
        user,
        store: this.store,
        switches: this.switchValues,
        now,
        params: route.params,
        body: () => parseObject(rawBody, route.route.otherFieldsIgnored ? undefined : (route.route.body ?? [])),
      };
      try {
        return route.route.handler(ctx);
      } finally {
        if (WRITE_METHODS.has(method)) this.store.persist();
      }
    } catch (error) {
      if (error instanceof ApiFailure) return this.errorReply(error, requestId);
      this.options.log?.(`internal error on ${method} ${path}: ${(error as Error).stack ?? String(error)}`);
      return this.errorReply(new ApiFailure(500, "INTERNAL_ERROR", "internal simulator error"), requestId);
    }
  }

  private authenticate(authorization: string | undefined): SimUser {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    const user = match ? this.users.get(match[1]) : undefined;
    if (!user) throw new ApiFailure(401, "UNAUTHORIZED", "missing or invalid bearer token");
    return user;
  }

  private errorReply(failure: ApiFailure, requestId: string): Reply {
    return {
      status: failure.status,
      json: errorBody(this.switchValues.errorShape, failure.code, failure.message, requestId),
      headers: failure.headers,
    };
  }

  /** The control object of CONTRACTS.md. */
  control(): SimulatorControl {
    const store = this.store;
    const settled = () => store.settle(Date.now());
    const changed = () => store.persist();
    const find = (kind: SimKind, id: string): Record<string, unknown> => {
      const record = store.records(kind).find((item) => item.id === id);
      if (!record) throw new UnknownRecordError(`${kind} ${id} not found`);
      return record as unknown as Record<string, unknown>;
    };
    return {
      switches: () => structuredClone(this.switchValues),
      setSwitches: (patch) => this.setSwitches(patch),
      setProjectSuspended: (projectId, suspended) => {
        store.setSuspended(projectId, suspended);
        changed();
      },
      setAutoscaling: (containerId, enabled) => {
        find("services", containerId).autoscaling = enabled;
        changed();
      },
      injectFault: (fault) => this.faults.inject(fault),
      setFaultSource: (source) => {
        this.faults.source = source;
      },
      faults: () => this.faults.pending(),
      clearFaults: () => this.faults.clear(),
      requests: () => this.log.map((entry) => ({ ...entry })),
      clearRequests: () => {
        this.log = [];
      },
      snapshot: () => {
        settled();
        return store.snapshot();
      },
      mutate: (kind, id, patch) => {
        settled();
        applyOutOfBand(find(kind, id), patch, Date.now());
        changed();
      },
      remove: (kind, id) => {
        find(kind, id);
        store.remove(kind, id);
        changed();
      },
      setVolumeReady: (id) => {
        const volume = find("volumes", id);
        Object.assign(volume, { status: "running", status_reason: "", ready_at: null });
        changed();
      },
      reset: () => {
        store.state = store.empty();
        changed();
        this.faults.clear();
        this.log = [];
        this.switchValues = { ...this.initialSwitches };
        this.bucket = new TokenBucket(this.switchValues.rateLimitPerSecond, Date.now());
      },
    };
  }
}

/**
 * An out-of-band change, as if made outside the API: it moves `updated_at` unless the patch sets it,
 * and a patched `status` stays as set (any pending provisioning transition is dropped).
 */
function applyOutOfBand(record: Record<string, unknown>, patch: Record<string, unknown>, now: number): void {
  if ("id" in patch && patch.id !== record.id) throw new Error("mutate: id cannot change");
  Object.assign(record, structuredClone(patch));
  if ("status" in patch && "ready_at" in record && !("ready_at" in patch)) record.ready_at = null;
  if ("status" in patch && "start_outcome" in record && !("start_outcome" in patch)) record.start_outcome = null;
  if ("updated_at" in record && !("updated_at" in patch)) record.updated_at = after(String(record.updated_at), now);
}
