// HostingClient: the typed client of the Container Hosting Service API. It knows the API's
// shape (paths under /v1, projects, the verbs) but no kind of record: each resource declares the
// collection its records live in (`Collection`: a path, what its answers look like, which verbs
// it has), and `client.of(collection)` gives that collection's endpoints.
//
// Every method takes an optional last argument `{ signal?, requestTimeoutMs? }` and speaks
// camelCase (wire.ts maps to and from the API's snake_case). Behaviour every caller gets:
//   - one process-wide keep-alive connection pool (http.ts);
//   - retries where safe, client-wide rate control after a 429 (transport.ts);
//   - a write in flight is never aborted, and a create is never sent twice blindly (transport.ts);
//   - an action (stop, start, attach…) is retried like a safe request, an attempt whose outcome is
//     unknown judged by the record read after it (the collection's `actions`);
//   - list reads that wait at the same time share one GET, which starts after every one of them
//     began (loader.ts): no read is ever answered with older data.
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { version as packageVersion } from "../../../package.json";
import {
  AbortedError,
  InvalidIdError,
  ProjectNotVisibleError,
  UnusableIdError,
  HostingApiClientError,
  isNotFound,
  outcomeUnknown,
} from "./errors";
import { ClientConfigError, parseBaseUrl } from "./http";
import { FreshList, FreshLookups, Gathering, PerKey, readConsistency, type Demand, type ReadPrices } from "./loader";
import type { Admission, RateControlOptions } from "./rateControl";
import { DEFAULT_RETRY_AFTER_CAP_MS } from "./retry";
import { Transport, raceSignal, type CallOptions } from "./transport";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./transport";
import { toWire, type ListAnswer, type ListShape } from "./wire";
import { notAnId } from "../ids";

export type { CallOptions } from "./transport";

/** The client's defaults; the provider's configuration declares these same values as its own. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_USER_AGENT = `pulumi-hosting/${packageVersion}`;

/**
 * Where a kind of record lives and what its endpoints answer. A project collection is at
 * `/v1/projects/{projectId}/<path>`, the user's own at `/v1/<path>`.
 */
export interface Collection<R = unknown, L = R> {
  path: string;
  scope: "project" | "user";
  /** One record, as a create, an update and a GET by id answer it. */
  record: z.ZodType<R>;
  /** The list answer (GET <path>), when there is one. */
  list?: ListShape<L>;
  /** GET <path>/{id} answers one record. */
  readById?: boolean;
  /** How an update is sent: PATCH (the fields that change), PUT (the whole record). */
  update?: "PATCH" | "PUT";
  /**
   * How to find what a create made when its answer was lost (transport.ts never sends a create
   * again before it has looked): the listed record it would be (`in` this collection's list, or
   * another's), and the answer to give for it (by default the listed record itself).
   */
  created?: CreatedLookup<R, any>;
  /**
   * The actions (POST <path>/{id}/<verb>), each with how to judge it from what the platform shows: an action is
   * sent only through its declaration here.
   */
  actions?: Record<string, Action<R>>;
}

/**
 * An action on one record (a stop, a start, an attach). Each is idempotent in what it leaves (a stopped app, a volume
 * attached there), so it is retried on transient faults like any safe request; an attempt whose outcome is unknown
 * (no answer after sending, a 5xx) is judged by the record read fresh after it (transport.ts `recover`): done, it is
 * not sent again; not done, it is, within the retry budget.
 */
export interface Action<R> {
  /**
   * Whether `now` (the record as a GET by id answers it, or as listed where there is none; undefined when it is gone)
   * shows the action sent with `body` (camelCase, as sent) done.
   */
  done(now: R | undefined, body: Record<string, any>): boolean;
}

/**
 * How a create finds what it made when its answer was lost (or unreadable), and how it proves the
 * record is its own: a record that merely has the same name may be another stack's, and adopting
 * it would let this stack overwrite, and later delete, what is not its own.
 */
export interface CreatedLookup<R, L> {
  /** Where the record would be listed (by default this collection's list). */
  in?: Collection<any, L>;
  /** Whether `listed` carries every field a create of `body` (camelCase, as sent) set. */
  match(listed: L, body: Record<string, any>): boolean;
  /**
   * What proves a matching record was made by this create:
   * - `createdAt`: it was not listed just before the create was sent, and the server created it (by its own
   *   clock, from its Date header) after it was sent. The time alone cannot tell our record from one another
   *   stack made a moment before; the list can, and the time closes the gap between the list and the POST;
   * - `absentBefore`: no matching record was listed just before the create was sent.
   * Both cost one list before a create, shared by the creates in flight together (one fresh list).
   * - `identical`: any matching record is as good as one made now (a link: it has nothing of its own to overwrite).
   */
  proof: "createdAt" | "absentBefore" | "identical";
  /** For `createdAt`: when the record was created (ISO 8601, the server's clock). */
  createdAt?(listed: L): string | undefined;
  /** The answer to give for it (by default the listed record itself). */
  answer?(
    listed: L,
    found: { get(id: string, opts: CallOptions): Promise<any> },
    opts: CallOptions,
  ): Promise<R | undefined> | R | undefined;
}

/** How a lookup reads one record by its id, for its answer. */
type Found = { get(id: string, opts: CallOptions): Promise<any> };

/** A create's options: its call's, and a record to take back instead of making one. */
export interface CreateOptions extends CallOptions {
  /**
   * The id of what an earlier create of this resource made and the engine was never told of (its run was stopped
   * before the answer: server/unrecorded.ts): taken as this create's answer when it is still there and is what the
   * create would make.
   */
  adopt?: string;
  /** Called when `adopt` was taken. */
  adopted?(): void;
}

/**
 * How much earlier than our clock says a create was sent the server may date a record it made
 * then: the Date header's whole seconds, and the time the request took to arrive.
 */
const CLOCK_SLACK_MS = 2_000;

export interface HostingClientOptions {
  /** `https://…`, or `http://` to a loopback host (localhost, 127.0.0.0/8, ::1). May carry a path prefix. */
  baseUrl: string;
  /** Bearer token. Never logged nor put into an error. */
  token: string;
  /** How long one request (one attempt) may take. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Retries after a 5xx or a failure with no answer, where repeating is safe. Default 5. A 429 spends none: it is
   * retried, paced by the rate control, until the call's `signal` ends it (or `rateLimitPatienceMs` without one).
   */
  maxRetries?: number;
  /** How long a call without a `signal` goes on being answered 429 before it fails. Default 10 minutes. */
  rateLimitPatienceMs?: number;
  /** The largest answer read. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Longest wait taken from a Retry-After header. Default 30 s. */
  retryAfterCapMs?: number;
  /** Backoff base: the first retry waits up to this (full jitter). Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Backoff ceiling. Default 10 s. */
  retryMaxDelayMs?: number;
  /** Default `pulumi-hosting/<version>`. */
  userAgent?: string;
  /**
   * How many reads the caller has in flight at the peak of a burst of them: shared reads gather them all (loader.ts).
   */
  demand?: Demand;
  /** Debug line per attempt: method, path, status, duration, attempt, request id. No headers. */
  logger?: (line: string) => void;
  /** Tuning of the client-wide adaptive rate control. */
  rateControl?: RateControlOptions;
  /** Another client-wide admission control in place of the adaptive one (benchmarks, tests). */
  rateController?: Admission;
  /** Use another undici dispatcher than the shared process-wide pool (tests). */
  dispatcher?: Dispatcher;
}

/** An id or a project as one path segment. Ids are data, never paths: `..`, `/` and the like are refused. */
export function segment(value: string, what = "id"): string {
  const why = notAnId(value);
  if (why) throw new InvalidIdError(what, value, why);
  return encodeURIComponent(value);
}

/**
 * What a request costs against an API's budget of requests when it has said nothing of its rate
 * limit: 50 ms, as at 20 requests a second. After a 429, the rate the client has slowed to says.
 */
const REQUEST_BUDGET_MS = 50;
/** What one record of a list costs to carry and parse, until a list has been timed: ~0.6 KB at ~20 MB/s. */
const RECORD_MS = 0.03;

/** The endpoints of one collection. `projectId` is ignored for the user's own collections. */
export class CollectionApi<R, L> {
  private readonly lists: PerKey<FreshList<ListAnswer<L>>>;
  private readonly lookups: PerKey<FreshLookups<L & { id: string }>>;
  /** This run's list of each project, for reads that may take a snapshot, and the writes made before it was taken. */
  private readonly snapshots = new Map<string, { answer: Promise<ListAnswer<L>>; writes: number }>();
  private readonly prices: PerKey<ReadPrices>;

  constructor(
    private readonly client: HostingClient,
    private readonly t: Transport,
    readonly collection: Collection<R, L>,
    gathering: Gathering,
  ) {
    const fetchList = (scope: string, signal?: AbortSignal) =>
      t.shared<ListAnswer<L>>({
        path: this.base(scope || undefined),
        response: { kind: "list", shape: this.listShape() },
        signal,
      });
    this.lists = new PerKey((scope) => new FreshList((signal) => fetchList(scope, signal), gathering));
    this.prices = new PerKey(() => ({ requestMs: () => t.requestPriceMs(REQUEST_BUDGET_MS), recordMs: RECORD_MS }));
    this.lookups = new PerKey(
      (scope) =>
        new FreshLookups<L & { id: string }>(
          async (id, signal) =>
            (await this.getOrGone(scope || undefined, id, { signal })) as (L & { id: string }) | undefined,
          (signal) => fetchList(scope, signal) as Promise<ListAnswer<L & { id: string }>>,
          this.prices.get(scope),
          gathering,
        ),
    );
  }

  /** `/v1/projects/{projectId}/<path>`, or `/v1/<path>`. */
  base(projectId: string | undefined): string {
    if (this.collection.scope === "user") return `/v1/${this.collection.path}`;
    if (projectId === undefined) throw new InvalidIdError("project", "", "no project was given");
    return `/v1/projects/${segment(projectId, "project id")}/${this.collection.path}`;
  }

  private listShape(): ListShape<L> {
    if (!this.collection.list) throw new TypeError(`${this.collection.path} has no list endpoint`);
    return this.collection.list;
  }

  /**
   * Every record, from a GET that began after this call; shared with the reads waiting at the same
   * time. Under `readConsistency` "snapshot", this run's list of the project instead, unless this
   * client has written anything since it was taken.
   */
  async list(projectId: string | undefined, opts: CallOptions = {}): Promise<readonly L[]> {
    return (await this.visible(projectId, () => this.listAnswer(projectId, opts))).all();
  }

  /**
   * The list as `list` reads it, each record checked only when asked for by id: a wait wants one
   * record of a project's thousands, and checking them all on every poll made 1,000 creates' waits
   * grow with the square of the project (bench row 24).
   */
  listed(projectId: string | undefined, opts: CallOptions = {}): Promise<Pick<ListAnswer<L>, "withId">> {
    return this.visible(projectId, () => this.listAnswer(projectId, opts));
  }

  /** `snapshot`: this run's list (hosting:readConsistency), where a fresh one is not needed. */
  private listAnswer(
    projectId: string | undefined,
    opts: CallOptions,
    snapshot = readConsistency.getStore() === "snapshot",
  ): Promise<ListAnswer<L>> {
    const path = this.base(projectId);
    this.listShape();
    const aborted = () =>
      new AbortedError({ method: "GET", path, mayHaveReachedServer: true, after: this.t.lastFailure("GET", path) });
    const scope = projectId ?? "";
    return raceSignal(
      snapshot ? this.snapshot(scope) : this.lists.get(scope).read(!opts.alongside, opts.signal),
      opts.signal,
      aborted,
    );
  }

  /**
   * The record with this id, read fresh, or undefined when there is none: reads that wait together
   * are answered by GETs by id or by one list, whichever costs less (loader.ts `chooseLookup`), where
   * the collection has GETs by id; else from the list.
   */
  async find(projectId: string | undefined, id: string, opts: CallOptions = {}): Promise<R | L | undefined> {
    const first = await this.visible(projectId, () =>
      this.findOnce(projectId, id, opts, readConsistency.getStore() === "snapshot"),
    );
    if (first !== undefined) return first;
    // Gone only after a second look, with a fresh request: one answer that omits a record (an
    // eventually consistent list, a replica behind) is no proof.
    const second = await this.visible(projectId, () => this.findOnce(projectId, id, opts, false));
    if (second === undefined && this.collection.readById) await this.projectSeen(projectId, opts);
    return second;
  }

  /**
   * The record with this id as its GET answers it (what only a single record carries: a volume's `attachment`),
   * or undefined when there is none: gone only after a second look, as `find`.
   */
  async findRecord(projectId: string | undefined, id: string, opts: CallOptions = {}): Promise<R | undefined> {
    const found = (await this.getOrGone(projectId, id, opts)) ?? (await this.getOrGone(projectId, id, opts));
    if (found === undefined) await this.projectSeen(projectId, opts);
    return found;
  }

  /** A GET by id answers 404 for a project the token cannot see, too: its list tells which (ProjectNotVisibleError). */
  private async projectSeen(projectId: string | undefined, opts: CallOptions): Promise<void> {
    if (this.collection.scope === "project") await this.list(projectId, opts);
  }

  private findOnce(
    projectId: string | undefined,
    id: string,
    opts: CallOptions,
    snapshot: boolean,
  ): Promise<R | L | undefined> {
    if (!this.collection.readById || snapshot)
      return this.listAnswer(projectId, opts, snapshot).then((answer) => answer.withId(id));
    const path = `${this.base(projectId)}/${segment(id)}`;
    const aborted = () =>
      new AbortedError({
        method: "GET",
        path,
        mayHaveReachedServer: true,
        after: this.t.lastFailure("GET", path) ?? this.t.lastFailure("GET", this.base(projectId)),
      });
    return raceSignal(this.lookups.get(projectId ?? "").read(id, opts.signal), opts.signal, aborted);
  }

  /** A project collection's list that answers 404 is the project the token cannot see, never a record gone. */
  private async visible<T>(projectId: string | undefined, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (
        this.collection.scope === "project" &&
        projectId !== undefined &&
        isNotFound(err) &&
        err.path === this.base(projectId)
      )
        throw new ProjectNotVisibleError(projectId, err);
      throw err;
    }
  }

  /** This run's list of a project: taken once, and again only after this client has written something. */
  private snapshot(scope: string): Promise<ListAnswer<L>> {
    const taken = this.snapshots.get(scope);
    if (taken && taken.writes === this.t.writes) return taken.answer;
    const snapshot = { answer: this.lists.get(scope).read(), writes: this.t.writes };
    this.snapshots.set(scope, snapshot);
    snapshot.answer.catch(() => this.snapshots.delete(scope));
    return snapshot.answer;
  }

  /** GET by id, undefined on a 404. */
  private async getOrGone(projectId: string | undefined, id: string, opts: CallOptions = {}): Promise<R | undefined> {
    try {
      return await this.get(projectId, id, opts);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** One record by its id (GET <path>/{id}). */
  get(projectId: string | undefined, id: string, opts: CallOptions = {}): Promise<R> {
    if (!this.collection.readById) throw new TypeError(`${this.collection.path} has no GET by id`);
    return this.t.request({
      ...opts,
      method: "GET",
      path: `${this.base(projectId)}/${segment(id)}`,
      response: { kind: "json", schema: this.collection.record },
    });
  }

  /**
   * POST a new record. When the outcome of an attempt is unknown, what it may have made is looked
   * up (the collection's `created`) before anything is sent again (transport.ts), and adopted only
   * if it is proven to be this create's own.
   */
  async create(projectId: string | undefined, body: Record<string, unknown>, opts: CreateOptions = {}): Promise<R> {
    const lookup = this.collection.created as CreatedLookup<R, { id: string }> | undefined;
    const where = lookup?.in ? this.client.of(lookup.in) : (this as unknown as CollectionApi<R, { id: string }>);
    const matching = async (o: CallOptions) =>
      (await where.list(projectId, o)).filter((record) => lookup!.match(record, body));
    const found = { get: (id: string, o: CallOptions) => this.get(projectId, id, o) };
    if (opts.adopt && lookup) {
      const taken = await this.takenBack(opts.adopt, body, (await where.list(projectId, opts)) as { id: string }[], {
        lookup,
        found,
        opts,
      });
      if (taken !== undefined) {
        opts.adopted?.();
        return taken;
      }
    }
    const before =
      lookup && lookup.proof !== "identical" ? new Set((await matching(opts)).map((r) => r.id)) : undefined;
    const sentAt = Date.now();
    const ours = (record: { id: string }): boolean => {
      if (lookup!.proof === "identical") return true;
      if (before!.has(record.id)) return false;
      if (lookup!.proof === "absentBefore") return true;
      const created = Date.parse(lookup!.createdAt?.(record) ?? "");
      const offset = this.t.serverClockOffsetMs;
      return Number.isFinite(created) && offset !== undefined && created >= sentAt + offset - CLOCK_SLACK_MS;
    };
    const recover =
      lookup &&
      (async (o: CallOptions) => {
        const listed = (await matching(o)).find(ours);
        if (listed === undefined) return undefined;
        const value = lookup.answer ? await lookup.answer(listed, found, o) : (listed as unknown as R);
        return value === undefined ? undefined : { value };
      });
    const made = await this.t.request({
      ...opts,
      method: "POST",
      path: this.base(projectId),
      body: toWire(body),
      response: { kind: "json", schema: this.collection.record },
      recover,
    });
    const id = (made as { id?: unknown; service?: { id?: unknown } }).service?.id ?? (made as { id?: unknown }).id;
    if (typeof id === "string") this.usableId(id, body);
    return made;
  }

  /**
   * The record `id`, which an earlier create of this resource made and the engine was never told of, as this create's
   * answer: undefined when it is gone (a new one is made). One that is there but is not what this create would make
   * (the program changed since) is neither taken nor made again beside it: the create fails, saying what to do.
   */
  private async takenBack(
    id: string,
    body: Record<string, unknown>,
    listed: { id: string }[],
    { lookup, found, opts }: { lookup: CreatedLookup<R, { id: string }>; found: Found; opts: CallOptions },
  ): Promise<R | undefined> {
    const record = listed.find((r) => r.id === id);
    if (record === undefined) return undefined;
    if (!lookup.match(record, body)) {
      const what = `${this.collection.path}${typeof body.name === "string" ? ` "${body.name}"` : ""}`;
      throw new HostingApiClientError(
        `${what} (${id}) was made by an earlier \`pulumi up\` of this resource that was stopped before it could record it, but it is not what the program now asks for, so it is not taken back, and no other is made beside it: adopt it with \`pulumi import\` (its id is ${id}) or delete it on the platform, then run \`pulumi up\` again.`,
      );
    }
    return lookup.answer ? await lookup.answer(record, found, opts) : (record as unknown as R);
  }

  /** An id the API answered a create with, checked before anything uses it in a path or records it. */
  private usableId(id: string, body: Record<string, unknown>): void {
    try {
      segment(id);
    } catch (err) {
      const what = `${this.collection.path}${typeof body.name === "string" ? ` "${body.name}"` : ""}`;
      throw new UnusableIdError(
        `the API answered the create of ${what} with the id ${JSON.stringify(id)}, which is not an id (${(err as InvalidIdError).why}), so it is neither used nor recorded. The record may exist on the platform: find its id (a get… function, or the portal) and adopt it with \`pulumi import\`, or delete it there and run \`pulumi up\` again.`,
      );
    }
  }

  update(projectId: string | undefined, id: string, body: object, opts: CallOptions = {}): Promise<R> {
    const method = this.collection.update;
    if (!method) throw new TypeError(`${this.collection.path} cannot be updated`);
    return this.t.request({
      ...opts,
      method,
      path: `${this.base(projectId)}/${segment(id)}`,
      body: toWire(body),
      response: { kind: "json", schema: this.collection.record },
    });
  }

  /**
   * A 404 means already gone, unless the project itself reads as 404 (then ProjectNotVisibleError: nothing may leave
   * the stack).
   */
  async delete(projectId: string | undefined, id: string, opts: CallOptions = {}): Promise<void> {
    try {
      await this.t.request({
        ...opts,
        method: "DELETE",
        path: `${this.base(projectId)}/${segment(id)}`,
        response: { kind: "empty" },
      });
    } catch (err) {
      if (isNotFound(err) && this.collection.scope === "project") await this.list(projectId, opts);
      // An answer lost or unreadable (a 204 that carries a body): the delete is done if the record is gone.
      if (outcomeUnknown(err) && (await this.find(projectId, id, opts)) === undefined) return;
      throw err;
    }
  }

  /** GET <path>/{id}/<what> as text (an app's logs). */
  text(projectId: string | undefined, id: string, what: string, opts: CallOptions = {}): Promise<string> {
    return this.t.request({
      ...opts,
      method: "GET",
      path: `${this.base(projectId)}/${segment(id)}/${what}`,
      response: { kind: "text" },
    });
  }

  /**
   * POST <path>/{id}/<verb>, answered by an empty body or by a record of `answer`'s shape. The verb is one the
   * collection declares (`actions`), which says how an attempt whose outcome is unknown is judged; undefined when the
   * record showed it done but its answer was lost.
   */
  act<T = void>(
    projectId: string | undefined,
    id: string,
    verb: string,
    request: { body?: Record<string, unknown>; answer?: z.ZodType<T> } = {},
    opts: CallOptions = {},
  ): Promise<T | undefined> {
    if (!this.collection.actions?.[verb]) throw new TypeError(`${this.collection.path} declares no action "${verb}"`);
    const body = request.body ?? {};
    return this.t.request<T | undefined>({
      ...opts,
      method: "POST",
      path: `${this.base(projectId)}/${segment(id)}/${verb}`,
      body: request.body && toWire(request.body),
      response: request.answer ? { kind: "json", schema: request.answer } : { kind: "empty" },
      recover: async (o) => ((await this.shows(projectId, id, verb, body, o)) ? { value: undefined } : undefined),
    });
  }

  /** Whether the record, read now, shows the action `verb` sent with `body` done (its declaration judges). */
  async shows(
    projectId: string | undefined,
    id: string,
    verb: string,
    body: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<boolean> {
    const action = this.collection.actions?.[verb];
    if (!action) throw new TypeError(`${this.collection.path} declares no action "${verb}"`);
    return action.done(await this.current(projectId, id, opts), body);
  }

  /** The record as it is now, read fresh: by its id where the collection has one (the fuller answer), else listed. */
  private async current(projectId: string | undefined, id: string, opts: CallOptions): Promise<R | undefined> {
    if (this.collection.readById) return this.getOrGone(projectId, id, opts);
    return (await this.find(projectId, id, opts)) as R | undefined;
  }
}

export class HostingClient {
  /** The request machinery (rate control state) for diagnostics and tests. */
  readonly transport: Transport;
  readonly baseUrl: string;
  private readonly collections = new Map<Collection<any, any>, CollectionApi<any, any>>();
  /** The reads waiting on any of this client's shared requests. */
  private readonly gathering: Gathering;

  constructor(options: HostingClientOptions) {
    if (!options || typeof options !== "object") throw new ClientConfigError("HostingClient options are required");
    const { origin, prefix } = parseBaseUrl(options.baseUrl);
    if (typeof options.token !== "string" || options.token.trim() === "") {
      throw new ClientConfigError("token is required (provider config `hosting:token` or HOSTING_TOKEN)");
    }
    if (/[\r\n]/.test(options.token)) throw new ClientConfigError("token must not contain line breaks");
    const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(requestTimeoutMs > 0))
      throw new ClientConfigError(`requestTimeoutMs must be positive (got ${requestTimeoutMs})`);
    if (!(maxRetries >= 0) || !Number.isInteger(maxRetries)) {
      throw new ClientConfigError(`maxRetries must be a non-negative integer (got ${maxRetries})`);
    }
    this.baseUrl = origin + prefix;
    this.gathering = new Gathering(options.demand);
    this.transport = new Transport({
      origin,
      prefix,
      token: options.token,
      requestTimeoutMs,
      maxRetries,
      rateLimitPatienceMs: options.rateLimitPatienceMs,
      maxResponseBytes: options.maxResponseBytes,
      retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
      retryBaseDelayMs: options.retryBaseDelayMs,
      retryMaxDelayMs: options.retryMaxDelayMs,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      logger: options.logger,
      rateControl: options.rateControl,
      rateController: options.rateController,
      dispatcher: options.dispatcher,
    });
  }

  /** The endpoints of a collection; one per collection, so that its reads share their GETs. */
  of<R, L>(collection: Collection<R, L>): CollectionApi<R, L> {
    let endpoints = this.collections.get(collection);
    if (!endpoints) {
      endpoints = new CollectionApi(this, this.transport, collection, this.gathering);
      this.collections.set(collection, endpoints);
    }
    return endpoints;
  }

  /** Never reveal the token, even through util.inspect / console.log of the client. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `HostingClient { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }
}
