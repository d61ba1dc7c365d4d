// What each engine call does with a resource, in the framework's terms: Check, Diff, Create,
// Read, Update and Delete as plain values in and out. The gRPC service (server/provider.ts) only
// decodes a request, calls one of these and encodes the answer; every rule is here or below: the
// run's plan (plan.ts), what is refused before any write (judge.ts, check.ts `refusedChange`), what
// state records, and when the engine is asked to refresh a resource before its next update.
import type { AutonamingOptions } from "./autoname";
import type { BoundFunction, BoundResource } from "./bind";
import { type CheckResult, checkInputs, refusedChange } from "./check";
import { InputError, PartialFailure, type OperationContext, type Proposal, type ResourceAddress } from "./declare";
import { type DiffResult, diffInputs, ignoredAsCurrent, keptIgnored } from "./diff";
import { driftWarning } from "./drift";
import { judge } from "./judge";
import { migrateState } from "./migrations";
import { type PlannedReplacement, RunPlan } from "./plan";
import { previewCreate, previewUpdate } from "./preview";
import type { ObjectSpec } from "./spec";
import { desiredInputs, impliedInputs, recordedOutputs } from "./state";
import { containsUnknown, type PropertyMap } from "./values";

/**
 * How the verbs reach the API: the server runs each lifecycle call with its context (the client, the
 * signal, the display).
 */
export interface Runner<C = any> {
  /** Runs a lifecycle call that may write, given `timeoutMs` (its signal aborts a little after that, as a backstop). */
  run<T>(urn: string, timeoutMs: number, call: (ctx: OperationContext<C>) => Promise<T>): Promise<T>;
  /** Runs a read's, whose timeout is its deadline. */
  read<T>(urn: string, timeoutMs: number, call: (ctx: OperationContext<C>) => Promise<T>): Promise<T>;
  /** Whether the API can be reached now: every provider setting is known (a preview may lack one). */
  reachable(): boolean;
  /** The provider's settings, as Configure resolved them. */
  config(): PropertyMap;
  /**
   * What an earlier create of `urn` made and the engine was never told (its run was stopped before the answer:
   * server/unrecorded.ts): its id and name, which this run's Check and Create take back. None for most.
   */
  unrecorded(urn: string): { id: string; name?: string } | undefined;
  /** The engine has been told what the create of `urn` made: its entry, if any, is forgotten. */
  recorded(urn: string): void;
}

/** A resource as the engine records it, and whether the engine is to refresh it before its next update. */
export interface Recorded {
  id: string;
  outputs: PropertyMap;
  inputs: PropertyMap;
  refreshBeforeUpdate: boolean;
}

/**
 * An operation that acted but did not finish (or a Read of a resource that is not finished): the
 * engine records `recorded` with the error (a partial failure), and the next `pulumi up` retries it.
 */
export class Unfinished extends Error {
  override readonly name = "Unfinished";
  constructor(
    message: string,
    readonly recorded: Recorded,
  ) {
    super(message);
  }
}

/** A call on one resource: its URN, and the milliseconds it may take. */
interface Call {
  urn: string;
  timeoutMs: number;
}

export class ResourceVerbs {
  private readonly plan = new RunPlan();

  constructor(
    private readonly packageName: string,
    private readonly runner: Runner,
  ) {}

  private get config(): PropertyMap {
    return this.runner.config();
  }

  /**
   * Check the program's inputs (news) against the declaration, filling in defaults and names. `olds`
   * are the old inputs (none for a new resource, and none in the engine's second Check of a
   * replacement, which therefore names an autonamed resource afresh).
   */
  check(
    { declaration, spec }: BoundResource,
    request: {
      urn: string;
      logicalName: string;
      news: PropertyMap;
      olds: PropertyMap;
      secretPaths: ReadonlySet<string>;
      randomSeed: Uint8Array;
      autonaming?: AutonamingOptions;
    },
  ): CheckResult {
    const checked = checkInputs(spec, request.news, {
      packageName: this.packageName,
      config: this.config,
      secretPaths: request.secretPaths,
      naming: {
        logicalName: request.logicalName,
        randomSeed: request.randomSeed,
        autonaming: request.autonaming,
        olds: migrateState(declaration.migrations, request.olds),
        // A new resource to the engine that an earlier, stopped run made: it keeps the name it was made under, so
        // that its Create can take it back. Never a replacement's second Check, which must name it afresh.
        unrecorded: this.replacing(request.urn) ? undefined : this.runner.unrecorded(request.urn)?.name,
      },
    });
    const olds = Object.keys(request.olds).length > 0 ? request.olds : undefined;
    this.plan.checked(request.urn, { autonamed: checked.autonamed, olds });
    return checked;
  }

  /**
   * Diff the new inputs against the recorded state. A Diff with no Check before it is a refresh's, the
   * other way round: its news are the inputs the state recorded, in an earlier release's shape perhaps.
   */
  diff(
    { declaration, spec }: BoundResource,
    request: {
      urn: string;
      /** The resource's id (the engine's state of it, `olds` its outputs). */
      id: string;
      olds: PropertyMap;
      news: PropertyMap;
      oldInputs?: PropertyMap;
      ignoreChanges: readonly string[];
      secretPaths: ReadonlySet<string>;
    },
  ): DiffResult {
    const planning = this.plan.diffed(request.urn);
    const olds = migrateState(declaration.migrations, request.olds);
    const oldInputs = request.oldInputs ? migrateState(declaration.migrations, request.oldInputs) : olds;
    const news = planning ? request.news : migrateState(declaration.migrations, request.news);
    const diff = diffInputs(spec, olds, news, oldInputs, {
      ignoreChanges: request.ignoreChanges,
      autonamed: planning?.autonamed ?? [],
      secretPaths: request.secretPaths,
    });
    if (planning)
      this.plan.planned(request.urn, diff.replaces.length > 0 ? { olds, news, replaces: diff.replaces } : undefined, {
        id: request.id,
        outputs: olds,
      });
    return diff;
  }

  async create(
    { declaration, spec }: BoundResource,
    request: Call & { inputs: PropertyMap; secretPaths: ReadonlySet<string>; preview: boolean },
  ): Promise<Recorded> {
    const { urn, inputs } = request;
    this.refuseUnchecked(spec, inputs, request.secretPaths);
    // The resource this one replaces: as this run's Diff planned it, or as the engine's Check without a Diff gave it
    // (a replacement the engine made on its own: its data guard is the user's option, not a changed input).
    const planned = this.plan.replacementOf(urn);
    const replacing = planned?.olds ?? this.plan.replacedUnasked(urn);
    // What an earlier, stopped run made for this resource under the name it has now: taken back rather than made again.
    const unrecorded = replacing ? undefined : this.runner.unrecorded(urn);
    const adopt =
      unrecorded && (unrecorded.name === undefined || unrecorded.name === inputs.name) ? unrecorded : undefined;
    this.plan.begun(urn);
    const wanted = desiredInputs(spec, inputs, {}, this.config);
    await this.judged(
      declaration.lifecycle,
      request,
      { operation: replacing ? "replacement" : "create", news: wanted, olds: replacing },
      planned,
    );
    if (request.preview) return this.recorded("", previewCreate(spec, inputs), inputs);
    // What the create has made so far: an error after it is a partial failure of that resource, never an orphan.
    let made: PartialFailure | undefined;
    const { id, outputs } = await this.unfinishedAs(spec, inputs, inputs, () =>
      this.runner
        .run(urn, request.timeoutMs, (ctx) =>
          declaration.lifecycle.create(
            {
              ...ctx,
              made: (id, outputs, refreshFirst) => (made = new PartialFailure("", id, outputs, refreshFirst)),
              creating: adopt
                ? { ...ctx.creating, adopt: adopt.id, adopted: () => ctx.warn(taken(adopt)) }
                : ctx.creating,
            },
            wanted,
            { replacing },
          ),
        )
        .catch((err: unknown) => {
          if (!made || err instanceof PartialFailure) throw err;
          throw new PartialFailure(
            `${(err as Error).message} (it was created, and is recorded in state as it was last seen; the next \`pulumi up\` finishes it)`,
            made.id,
            made.outputs,
            made.refreshFirst,
          );
        }),
    ).catch((err: unknown) => {
      if (err instanceof Unfinished) {
        this.plan.created(urn, err.recorded);
        this.runner.recorded(urn);
      }
      throw err;
    });
    const recorded = this.recorded(id, asRecorded(spec, outputs as PropertyMap, inputs), inputs);
    this.plan.created(urn, recorded);
    this.runner.recorded(urn);
    return recorded;
  }

  /** The resource as it lives now (its outputs, and the inputs they imply), or nothing when it is gone. */
  async read(
    { declaration, spec }: BoundResource,
    request: Call & {
      address: ResourceAddress;
      outputs: PropertyMap;
      inputs: PropertyMap;
      secretPaths: ReadonlySet<string>;
    },
  ): Promise<Recorded | undefined> {
    const outputs = migrateState(declaration.migrations, request.outputs);
    const oldInputs = migrateState(declaration.migrations, request.inputs);
    const live = (await this.runner.read(request.urn, request.timeoutMs, async (ctx) => {
      const found = (await declaration.lifecycle.read(ctx, request.address, { outputs, inputs: oldInputs })) as
        | PropertyMap
        | undefined;
      // A drift job's summary quotes this: what changed outside Pulumi, and when.
      const drift = found && driftWarning(spec, outputs, found, oldInputs, request.secretPaths);
      if (drift) ctx.warn(drift);
      return found;
    })) as PropertyMap | undefined;
    if (!live) return undefined;
    const recorded = recordedOutputs(spec, live, oldInputs);
    const state = this.recorded(request.address.id, recorded, impliedInputs(spec, recorded, oldInputs, this.config));
    // Still failed (or not ready): a refresh keeps it so, and the next `pulumi up` refreshes and retries it.
    const unfinished = declaration.unfinished?.(recorded, outputs);
    if (unfinished) throw new Unfinished(unfinished, { ...state, refreshBeforeUpdate: true });
    return state;
  }

  async update(
    { declaration, spec }: BoundResource,
    request: Call & {
      address: ResourceAddress;
      olds: PropertyMap;
      news: PropertyMap;
      oldInputs?: PropertyMap;
      ignoreChanges: readonly string[];
      secretPaths: ReadonlySet<string>;
      preview: boolean;
    },
  ): Promise<Recorded> {
    const { urn, address } = request;
    const olds = migrateState(declaration.migrations, request.olds);
    const oldInputs = request.oldInputs ? migrateState(declaration.migrations, request.oldInputs) : olds;
    this.refuseUnchecked(spec, request.news, request.secretPaths);
    // What Diff compared, and so what the preview showed: an ignored path keeps the live value, not
    // the old input the engine put there (which would undo a change made outside Pulumi unseen).
    const news = ignoredAsCurrent(spec, olds, request.news, oldInputs, request.ignoreChanges);
    this.plan.begun(urn);
    const refused = refusedChange(spec, olds, news, request.ignoreChanges, oldInputs);
    if (refused) throw new InputError(refused.reason);
    const wanted = desiredInputs(spec, news, oldInputs, this.config);
    await this.judged(declaration.lifecycle, request, { operation: "update", news: wanted, olds, id: address.id });
    if (request.preview) return this.recorded(address.id, previewUpdate(spec, olds, news, oldInputs), news);
    const update = declaration.lifecycle.update;
    // The engine keeps the old inputs when an update fails partway (a retry is an update).
    const live = await this.unfinishedAs(spec, wanted, oldInputs, () =>
      this.runner.run(urn, request.timeoutMs, async (ctx) =>
        // Without an update of its own every input replaces (bind.ts): no input changed, so it stays as it is.
        update
          ? update(ctx, address, {
              olds,
              news: wanted,
              oldInputs,
              keepIgnored: (name, live, sent) => keptIgnored(name, live, sent, request.ignoreChanges),
            })
          : olds,
      ),
    );
    return this.recorded(address.id, asRecorded(spec, live as PropertyMap, wanted), news);
  }

  async delete(
    { declaration }: BoundResource,
    request: Call & { address: ResourceAddress; outputs: PropertyMap },
  ): Promise<void> {
    const outputs = migrateState(declaration.migrations, request.outputs);
    const successor = this.plan.successorOf(request.urn, outputs);
    // The delete that starts a delete-before-replace: the replacement is judged before anything is deleted.
    const replacing = this.plan.replacementOf(request.urn);
    if (replacing)
      await this.judged(
        declaration.lifecycle,
        request,
        { operation: "replacement", news: replacing.news, olds: outputs, id: request.address.id },
        replacing,
      );
    await this.runner.run(request.urn, request.timeoutMs, (ctx) =>
      declaration.lifecycle.delete(ctx, request.address, outputs, { successor }),
    );
  }

  /** Whether this run replaces the resource of `urn`: its Diff planned it, or the engine's Check with olds came. */
  private replacing(urn: string): boolean {
    return this.plan.replacementOf(urn) !== undefined || this.plan.replacedUnasked(urn) !== undefined;
  }

  /** State as the engine records it; every resource asks to be refreshed first when the provider is set to. */
  private recorded(id: string, outputs: PropertyMap, inputs: PropertyMap): Recorded {
    return { id, outputs, inputs, refreshBeforeUpdate: this.config.refreshBeforeUpdate === true };
  }

  /**
   * A lifecycle's partial failure as the engine records it: the live values it carries over `basis`
   * (what was sent), the `inputs` state keeps, and a refresh before the next update unless the
   * lifecycle says a Read would erase what the state knows (even with hosting:refreshBeforeUpdate).
   */
  private async unfinishedAs<T>(
    spec: ObjectSpec,
    basis: PropertyMap,
    inputs: PropertyMap,
    operation: () => Promise<T>,
  ): Promise<T> {
    try {
      return await operation();
    } catch (err) {
      if (!(err instanceof PartialFailure)) throw err;
      throw new Unfinished(err.message, {
        id: err.id,
        outputs: asRecorded(spec, err.outputs, basis),
        inputs,
        refreshBeforeUpdate: err.refreshFirst,
      });
    }
  }

  /**
   * A proposal refused by a rule (judge.ts), before any write: at a preview and for real. The live
   * rules run only when the API can be reached (a provider configured from outputs not known yet
   * cannot, at a preview; they run at `up`).
   */
  private async judged(
    lifecycle: BoundResource["declaration"]["lifecycle"],
    { urn, timeoutMs }: Call,
    proposal: Proposal<any, any>,
    replacing?: PlannedReplacement,
  ): Promise<void> {
    const refusal = await judge(lifecycle, proposal, {
      urn,
      replacing,
      live: this.runner.reachable() ? (call) => this.runner.run(urn, timeoutMs, call) : undefined,
    });
    if (refusal) throw new InputError(refusal);
  }

  /**
   * Create and Update act on what Check passed. The engine always checks first; inputs that would
   * not pass (sent by something else, or without a Check) are refused here, before any call.
   */
  private refuseUnchecked(spec: ObjectSpec, inputs: PropertyMap, secretPaths: ReadonlySet<string>): void {
    const { failures } = checkInputs(spec, inputs, { packageName: this.packageName, config: this.config, secretPaths });
    if (failures.length > 0)
      throw new InputError(
        `these inputs did not pass Check, so nothing was sent: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
      );
  }
}

/** The warning of a create that took back what an earlier, stopped run made. */
const taken = ({ id, name }: { id: string; name?: string }) =>
  `${name ? `${name} (${id})` : id} was made by an earlier \`pulumi up\` that was stopped before it could record it (a second Ctrl-C, a killed CLI): it is taken back, not made again. That run's pending create stays in the stack until \`pulumi refresh --clear-pending-creates\` clears it.`;

/**
 * What state records of live values: those values over `basis` (what was sent), with what the API
 * never returns from it.
 */
const asRecorded = (spec: ObjectSpec, live: PropertyMap, basis: PropertyMap) =>
  recordedOutputs(spec, { ...basis, ...live }, basis);

/**
 * A function's arguments, checked: the failures, or the inputs to call it with; nothing to call
 * while an argument is not known yet (a preview: the API is never asked with a guess).
 */
export function checkedArguments(
  fn: BoundFunction,
  args: PropertyMap,
  context: { packageName: string; config: PropertyMap; secretPaths: ReadonlySet<string> },
): { call?: PropertyMap; failures: CheckResult["failures"] } {
  const { inputs, failures } = checkInputs(fn.args, args, context);
  return failures.length > 0 || containsUnknown(inputs) ? { failures } : { call: inputs, failures };
}
