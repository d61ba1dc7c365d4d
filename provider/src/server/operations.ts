// How a lifecycle call runs: with its context (the API client, the provider's settings, the
// display), under a signal that Cancel, SIGTERM and its deadline abort, with its warnings delivered
// before its answer, and a Read counted among the Reads in flight. The framework's verbs reach the
// API through it (framework/verbs.ts `Runner`); it judges nothing.
import * as grpc from "@grpc/grpc-js";
import type { HostingClient } from "../api/client";
import { readConsistency, type Demand } from "../api/loader";
import { PartialFailure, type OperationContext } from "../framework/declare";
import { SharedPoll } from "../framework/polling";
import type { PropertyMap } from "../framework/values";
import type { Runner } from "../framework/verbs";
import type { EngineLog } from "./engineLog";
import { type GrpcError, plainError } from "./errors";
import type { UnrecordedCreates } from "./unrecorded";

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

export interface Configured {
  /** None while a setting is not known yet (a preview of a provider configured from other resources' outputs). */
  client?: HostingClient;
  /** The settings not known yet, as `<package>:<key>`. */
  unknown: string[];
  /** The provider's settings as Configure resolved them. */
  values: PropertyMap;
  /** The provider's poll loops, one per source (see OperationContext.sharedPoll). */
  polls: Map<string, SharedPoll<unknown>>;
  /**
   * The engine's id of this provider (Configure's `id`): made once, when the stack's provider is first created, and
   * kept in its state, so it tells this stack's creates from another's. None when the engine sent none, or not yet
   * (a preview of the run that creates the provider).
   */
  providerId?: string;
}

/** Runs the lifecycle calls of one provider process. */
export class Operations implements Runner<HostingClient> {
  /**
   * The operations in flight, which Cancel and SIGTERM abort. A set rather than listeners on one
   * shared signal: an EventTarget looks for a duplicate before it adds a listener, so a refresh
   * with 1,000 Reads in flight walked 1,000 listeners for each one added and removed.
   */
  private readonly inFlight = new Set<AbortController>();
  private cancelled = false;
  /** The Reads in flight: how many reads the API client's shared requests may expect to gather. */
  readonly reads = new ReadsInFlight();

  constructor(
    private readonly engine: EngineLog,
    private readonly redact: (text: string) => string,
    /** What Configure made: the client and the settings (nothing before Configure). */
    private readonly configured: () => Configured | undefined,
    /** What creates made that the engine was never told (none kept without it). */
    private readonly unrecordedCreates?: UnrecordedCreates,
  ) {}

  unrecorded(urn: string): { id: string; name?: string } | undefined {
    const providerId = this.configured()?.providerId;
    return providerId ? this.unrecordedCreates?.find(providerId, urn) : undefined;
  }

  recorded(urn: string): void {
    const providerId = this.configured()?.providerId;
    if (providerId) this.unrecordedCreates?.forget(providerId, urn);
  }

  reachable(): boolean {
    return this.configured()?.client !== undefined;
  }

  config(): PropertyMap {
    return this.configured()?.values ?? {};
  }

  /**
   * Aborts every operation in flight and every one still to come (Cancel, SIGTERM); a write already sent still answers.
   */
  cancelAll(): void {
    this.cancelled = true;
    for (const controller of this.inFlight) controller.abort();
  }

  /** A function's call: its limit is the whole answer's, with no grace after it (it has no wait of its own to end). */
  invoke<T>(limitMs: number, call: (ctx: OperationContext<HostingClient>) => Promise<T>): Promise<T> {
    return this.run("", limitMs, call, 0);
  }

  /**
   * Runs one lifecycle operation with its context: the API, the defaults, and a signal that
   * Cancel, SIGTERM and the operation's deadline abort. Its timer and its place among the
   * operations in flight are released when it ends (AbortSignal.any() and AbortSignal.timeout()
   * would each keep memory per operation alive on Node 20: a leak over a long run).
   */
  async run<T>(
    urn: string,
    timeout: number,
    run: (ctx: OperationContext<HostingClient>) => Promise<T>,
    grace = DEADLINE_GRACE_MS,
  ): Promise<T> {
    const configured = this.configured();
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
      progress: (message) => void this.engine.log("info", this.redact(message), urn, true),
      warn: (message) => void warnings.push(this.engine.log("warning", this.redact(message), urn, false)),
      redact: this.redact,
      made: () => undefined, // a create's verbs.ts sets its own
      creating: { signal: controller.signal },
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

  /**
   * A Read's operation: its customTimeouts.read is the deadline itself (a read has no wait of its own
   * to end cleanly), it counts among the Reads in flight, and a run that asks for snapshots reads
   * this run's lists (only such a run pays for the async context that carries the choice).
   */
  async read<T>(urn: string, timeout: number, read: (ctx: OperationContext<HostingClient>) => Promise<T>) {
    const snapshot = this.configured()?.values.readConsistency === "snapshot";
    this.reads.started();
    try {
      return await this.run(
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
}
