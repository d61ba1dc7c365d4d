// The seeded fault-injection soak (issue 6): the built plugin, driven over gRPC as the engine
// drives it, through randomized lifecycles of every resource type, while the simulator injects
// faults at random (simulator/src/chaos.ts). After the run, what the engine would have stored
// (ids and outputs, partial failures included) is compared with the simulator's own state; then,
// resource by resource, what state records of each input property with what a Read of the platform
// finds; then a second `pulumi up` in the engine's order (Check, Diff, Update where Diff sees a change
// or the state holds a partial failure) must converge: state equal to the platform again, and a
// third Diff of nothing. Half of the apps created are linked apps (`links: [db.id]`), whose create
// is four steps (PATCH, stop, link, start).
//
// Two shapes of run: `ops` random operations of every kind (create, update, refresh, delete), or
// `creates` creates alone, every other one a linked app (issue 38's soak: 100 creates at 30% faults).
//
// Used by `npm run soak` (soak/run.ts) and, shorter, by test/soak/soak.test.ts.
import { isExampleSecret, isReference, tokenOf, type ExampleValue } from "../provider/src/framework/declare";
import type { FieldFlags } from "../provider/src/framework/spec";
import { deepEqual } from "../provider/src/framework/values";
import { hostingPackage } from "../provider/src/package";
import {
  ALICE,
  randomFaults,
  seededRandom,
  startSimulator,
  type RandomFaultName,
  type SimAttachment,
  type SimKind,
  type SimState,
} from "../simulator/src";
import { KINDS as SIM_COLLECTIONS } from "../simulator/src/collections";
import {
  DIFF_SOME,
  Plugin,
  initFailure,
  isSecret,
  plain,
  readOrInitFailure,
  secret,
  type GrpcFailure,
} from "../test/grpc/engine";

export interface SoakOptions {
  ops: number;
  /** Creates alone, `ops` of them, every other one a linked app (the rest of every kind): the creates soak. */
  createsOnly?: boolean;
  seed: number;
  /** Probability that one API request meets a fault. Default 0.08. */
  faultRate?: number;
  /** Progress lines (one per operation when verbose). */
  log?: (line: string) => void;
  verbose?: boolean;
}

/** Every resource of the package, each created from its first example. */
const KINDS = hostingPackage.resources.map((r) => r.typeName);
type Kind = string;
const declarationOf = (kind: Kind) => hostingPackage.resources.find((r) => r.typeName === kind)!;
const typeOf = (kind: Kind) => tokenOf(hostingPackage, kind);

type Props = Record<string, any>;

/** A resource as the engine records it in the stack's state. */
interface Recorded {
  kind: Kind;
  name: string;
  id: string;
  inputs: Props;
  outputs: Props;
  /** What the program asks of it now (the inputs of its last create or update, whether or not that finished). */
  program: Props;
  /** The reasons of a partial failure: the engine's next `up` sends an Update even when Diff sees no change. */
  initErrors?: string[];
  /** The resource's customTimeouts (seconds), which the engine sends with its create and its updates. */
  timeout?: number;
}

/** One resource's recorded input properties against a Read of the platform: those that differ. */
export interface StateVsPlatform {
  kind: Kind;
  name: string;
  /** `property (state …, platform …)`, one per input property whose recorded output the platform does not have. */
  differs: string[];
}

/**
 * The soak's ServiceLinks are of type `tcp`: an `http` link into an app is one of the app's `links`, which its
 * Container reads back, and a program gives an app's links in one place (DESIGN: a ServiceLink links an app that
 * already runs, such as another stack's). Links of another type are the ServiceLink's alone.
 */
const SOAK_INPUTS: Record<Kind, Props> = { ServiceLink: { linkType: "tcp" } };
/** The example of a linked app: Container's, with `links` (its create stops, links and starts the app). */
const LINKED_APP = declarationOf("Container").examples.findIndex((e) => "links" in e.inputs);

type OpName = "create" | "update" | "refresh" | "delete";

export interface OperationRecord {
  n: number;
  op: OpName;
  kind: Kind;
  name: string;
  ok: boolean;
  /** The engine got a partial failure: the resource exists and its id is recorded. */
  partial?: boolean;
  error?: string;
  /** Faults the simulator injected into this operation's requests. */
  faults: string[];
  /** For creates: records of this kind the server gained. */
  created?: number;
}

export interface SoakReport {
  seed: number;
  ops: number;
  /** Creates alone (the creates soak). */
  createsOnly: boolean;
  faultRate: number;
  seconds: number;
  byOp: Record<OpName, { ok: number; failed: number }>;
  byKind: Record<string, number>;
  requests: number;
  faults: { injected: number; byName: Record<RandomFaultName, number>; recovered: number; surfaced: number };
  failures: {
    total: number;
    namingCode: number;
    partial: number;
    waitTimeouts: number;
    withoutFault: OperationRecord[];
    /** Partial failures of operations that met at most one fault (a wait that gave up aside): each step is retried. */
    partialFromOneFault: OperationRecord[];
  };
  /** Apps created with `links`, and how many of those creates ended as partial failures. */
  linkedApps: { created: number; partial: number };
  /** Resources whose state records an input property the platform does not have, after the run. */
  stateVsPlatform: StateVsPlatform[];
  /** How many resources were compared (every one in state at the end of the run). */
  compared: number;
  /** The second `pulumi up`, in the engine's order, without faults. */
  secondUp: {
    updates: number;
    /** Resources whose state equals the platform after it, and whose third Diff shows no change. */
    converged: number;
    notConverged: string[];
  };
  unnamed: OperationRecord[];
  recorded: number;
  onServer: number;
  orphans: string[];
  ghosts: string[];
  goneOnRefresh: string[];
  duplicates: string[];
  /** Resources deleted from the stack that stay on the server: the API cannot delete them (service links). */
  forgotten: number;
  leftAfterTeardown: string[];
  operations: OperationRecord[];
}

/**
 * An error that names the API's code, as the client words it: `NAME_TAKEN: … (HTTP 409, request …)`,
 * or, when no HTTP response came at all, the transport's: `ECONNRESET: … no HTTP response …`.
 */
const NAMED_CODE =
  /\b[A-Z][A-Z0-9_]*[A-Z0-9]: .*\(HTTP \d{3}\b|\b(?:E[A-Z]+|UND_ERR_[A-Z_]+|ABORT_ERR): .*no HTTP response/s;
const WAIT_TIMEOUT = /gave up waiting/;

/** The engine's id of a record, where it is not the record's own: an attachment's, as the provider's. */
const ENGINE_IDS: Partial<Record<SimKind, (record: any) => string>> = {
  attachments: (a: SimAttachment) => `${a.volume_id}:${a.container_id}`,
};

/**
 * Records that are part of another resource, not resources of their own: an `http` link is its consumer app's, one
 * of the `links` of its Container (which reads it back, and which hosting-export imports it with); the soak's
 * ServiceLinks are of another type (SOAK_INPUTS).
 */
const PART_OF_ANOTHER: Partial<Record<SimKind, (record: any) => boolean>> = {
  links: (link: SimState["links"][number]) => link.link_type === "http",
};

/**
 * What the server holds, one key per resource the engine could have recorded, in every collection
 * of the simulator: its id (ids are UUIDs, unique across collections), or its engine id (ENGINE_IDS).
 */
function serverKeys(state: SimState): Map<string, string> {
  const keys = new Map<string, string>();
  for (const kind of SIM_COLLECTIONS) {
    for (const record of state[kind] as Array<{ id: string; name?: string }>) {
      if (PART_OF_ANOTHER[kind]?.(record)) continue;
      keys.set(ENGINE_IDS[kind]?.(record) ?? record.id, `${kind} ${record.name ?? record.id}`);
    }
  }
  return keys;
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const started = Date.now();
  const faultRate = options.faultRate ?? 0.08;
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed ^ 0x5eed5eed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;

  const sim = await startSimulator({ port: 0, volumeProvisioningMs: 200 });
  const faults = randomFaults({ seed: options.seed, rate: faultRate, latencyMs: 1_500 });
  faults.enabled = false;
  sim.control.setFaultSource(faults.source);
  const plugin = await Plugin.start();
  const project = ALICE.projects[0];
  // A 1 s request timeout, so that the latency faults (1.5 s) time out without slowing the run down.
  await plugin.configure({
    baseUrl: sim.url,
    token: ALICE.token,
    projectId: project,
    requestTimeoutSeconds: 1,
    maxRetries: 5,
  });

  const state = new Map<string, Recorded>();
  const forgotten = new Set<string>();
  const operations: OperationRecord[] = [];
  const duplicates: string[] = [];
  let counter = 0;

  const recorded = (kind?: Kind) => [...state.values()].filter((r) => kind === undefined || r.kind === kind);
  /** What refers to `r` (a link to an app, an attachment of a volume): it must go first. */
  const dependents = (r: Recorded) =>
    recorded().filter(
      (d) => d !== r && Object.values(d.inputs).some((v) => v === r.id || (Array.isArray(v) && v.includes(r.id))),
    );
  /**
   * A resource of `kind` that `property` of a new `of` may refer to: one no other `of` refers to by
   * that property (a volume attaches once, an app takes one volume at /data, a pair links once).
   */
  const free = (kind: Kind, of: Kind, property: string) => {
    const taken = new Set(recorded(of).map((d) => d.inputs[property]));
    return recorded(kind).filter((r) => !taken.has(r.id));
  };

  /** An example's value as the engine sends it: another resource's id, or a secret from config. */
  function resolved(of: Kind, property: string, value: ExampleValue): unknown {
    if (Array.isArray(value)) {
      const items = value.map((item) => resolved(of, property, item));
      return items.includes(undefined) ? undefined : items;
    }
    if (isReference(value)) {
      const candidates = free(value.reference, of, property);
      return candidates.length === 0 ? undefined : pick(candidates).id;
    }
    if (isExampleSecret(value)) return secret(`${value.sample}-${counter}`);
    return value;
  }

  /**
   * The program's inputs for a new resource (its first example's, under a name of its own), or undefined when what it
   * refers to is missing.
   */
  function newInputs(kind: Kind, exampleIndex = 0): Props | undefined {
    const example = declarationOf(kind).examples[exampleIndex];
    const inputs: Props = { ...SOAK_INPUTS[kind] };
    for (const [property, value] of Object.entries(example.inputs)) {
      inputs[property] = property === "name" ? `${kind.toLowerCase()}-${++counter}` : resolved(kind, property, value);
      if (inputs[property] === undefined) return undefined;
    }
    return inputs;
  }

  /**
   * An in-place change (the example's `update`, and back again), or undefined for kinds whose
   * every input replaces. A value that may only grow grows by one from what is live.
   */
  function changed(r: Recorded): Props | undefined {
    const example = declarationOf(r.kind).examples[0];
    if (!example.update) return undefined;
    const flags = declarationOf(r.kind).flags as Record<string, FieldFlags>;
    const program: Props = Object.fromEntries(Object.entries(r.inputs).filter(([, v]) => v !== undefined));
    for (const [property, value] of Object.entries(example.update)) {
      if (flags[property]?.growOnly) program[property] = (r.outputs[property] ?? r.inputs[property]) + 1;
      else
        program[property] =
          JSON.stringify(program[property]) === JSON.stringify(value) ? example.inputs[property] : value;
    }
    return program;
  }

  async function operation(op: OpName, kind: Kind, name: string, run: () => Promise<void>): Promise<OperationRecord> {
    const mark = sim.control.requests().length;
    faults.epoch = operations.length + 1;
    const before = op === "create" ? serverKeys(sim.control.snapshot()) : new Map<string, string>();
    const record: OperationRecord = { n: operations.length + 1, op, kind, name, ok: true, faults: [] };
    try {
      await run();
    } catch (err) {
      record.ok = false;
      const failure = err as GrpcFailure;
      record.error = String(failure.details ?? failure.message ?? err);
      const detail = failure.metadata ? initFailure(failure) : undefined;
      // A create or an update that acted but did not finish (ErrorResourceInitFailed): the engine records it.
      if ((op === "create" || op === "update") && detail?.id) record.partial = true;
      if (!failure.metadata) throw err; // not an answer from the plugin: a bug in the soak itself
    }
    record.faults = sim.control
      .requests()
      .slice(mark)
      .filter((r) => r.fault)
      .map((r) => (r.fault === "status" ? String(r.status) : r.fault!));
    if (op === "create") {
      record.created = [...serverKeys(sim.control.snapshot()).keys()].filter((key) => !before.has(key)).length;
      if (record.created > 1) duplicates.push(`${kind} ${name}: one create made ${record.created} records`);
    }
    operations.push(record);
    if (options.verbose) {
      log(
        `#${record.n} ${op} ${kind} ${name}: ${record.ok ? "ok" : record.partial ? "partial failure" : "failed"}${record.faults.length ? ` [faults: ${record.faults.join(", ")}]` : ""}${record.error ? ` — ${record.error}` : ""}`,
      );
    }
    return record;
  }

  const linkedApps = new Set<string>();
  /** Volumes made never to become ready (the platform's fault, which ends before the second `up`). */
  const stuckVolumes = new Set<string>();

  /** A create of `kind`; an app is a linked app half the time, when there is a database to link. */
  async function createOne(kind: Kind, linked = kind === "Container" && chance(0.5)) {
    if (linked && (await create("Container", LINKED_APP))) return;
    await create(kind);
  }

  async function create(kind: Kind, exampleIndex = 0) {
    const program = newInputs(kind, exampleIndex);
    if (!program) return false;
    const name = program.name ?? `${kind.toLowerCase()}-${++counter}`;
    const type = typeOf(kind);
    const { inputs, failures } = await plugin.check(type, name, program);
    if (failures.length) throw new Error(`soak bug: ${kind} inputs fail Check: ${JSON.stringify(failures)}`);
    // Now and then a volume that never becomes ready, with a short customTimeouts.create.
    const stuck = kind === "Volume" && chance(0.15);
    if (stuck) stuckVolumes.add(name);
    if (stuck) sim.control.setSwitches({ volumeProvisioningMs: -1 });
    // Its program gives it customTimeouts, which also bound the updates that wait for it again.
    const timeout = stuck ? 2 : undefined;
    try {
      await operation("create", kind, name, async () => {
        if (kind === "Container" && exampleIndex === LINKED_APP) linkedApps.add(name);
        try {
          const created = await plugin.create(type, name, inputs, { timeout });
          state.set(name, {
            kind,
            name,
            id: created.id,
            inputs,
            outputs: created.properties,
            program: inputs,
            timeout,
          });
        } catch (err) {
          const detail = (err as GrpcFailure).metadata ? initFailure(err as GrpcFailure) : undefined;
          // The engine records a partial failure's resource, with the properties it was given and the checked inputs.
          if (detail?.id)
            state.set(name, {
              kind,
              name,
              id: detail.id,
              inputs,
              outputs: detail.properties,
              program: inputs,
              initErrors: detail.reasons,
              timeout,
            });
          throw err;
        }
      });
    } finally {
      if (stuck) sim.control.setSwitches({ volumeProvisioningMs: 200 });
    }
    return true;
  }

  async function update(r: Recorded) {
    const program = changed(r);
    if (!program) return false;
    const type = typeOf(r.kind);
    const { inputs, failures } = await plugin.check(type, r.name, program, r.inputs);
    if (failures.length) throw new Error(`soak bug: ${r.kind} update fails Check: ${JSON.stringify(failures)}`);
    const diff = await plugin.diff(type, r.name, r.id, r.outputs, inputs, r.inputs);
    if (diff.replaces.length) throw new Error(`soak bug: ${r.kind} change replaces (${diff.replaces.join(", ")})`);
    await operation("update", r.kind, r.name, async () => {
      try {
        const updated = await plugin.update(type, r.name, r.id, r.outputs, inputs, r.inputs, { timeout: r.timeout });
        state.set(r.name, { ...r, inputs, outputs: updated.properties, program: inputs, initErrors: undefined });
      } catch (err) {
        // An update's partial failure: the engine keeps the old inputs and records the outputs it was given.
        const detail = (err as GrpcFailure).metadata ? initFailure(err as GrpcFailure) : undefined;
        state.set(
          r.name,
          detail
            ? { ...r, outputs: detail.properties, program: inputs, initErrors: detail.reasons }
            : { ...r, program: inputs },
        );
        throw err;
      }
    });
    return true;
  }

  async function refresh(r: Recorded) {
    await operation("refresh", r.kind, r.name, async () => {
      // An unfinished resource (a volume not running yet) reads as a partial failure: the refresh goes on,
      // and records it.
      const read = await readOrInitFailure(plugin.read(typeOf(r.kind), r.name, r.id, r.outputs, r.inputs));
      if (read.id === "") state.delete(r.name);
      else state.set(r.name, { ...r, outputs: read.properties, inputs: read.inputs, initErrors: read.initErrors });
    });
  }

  async function destroy(r: Recorded) {
    await operation("delete", r.kind, r.name, async () => {
      await plugin.delete(typeOf(r.kind), r.name, r.id, r.outputs, r.inputs);
      state.delete(r.name);
      // A delete the API cannot make only forgets the resource (a service link): it stays on the server.
      if (serverKeys(sim.control.snapshot()).has(r.id)) forgotten.add(r.id);
    });
  }

  /** The properties a program sets (the next Diff compares each with its recorded output). */
  const inputProperties = (kind: Kind) =>
    Object.entries(declarationOf(kind).flags as Record<string, FieldFlags>)
      .filter(([, flags]) => !flags.output)
      .map(([property]) => property);
  const shown = (value: unknown) =>
    isSecret(value) ? "[secret]" : value === undefined ? "(none)" : JSON.stringify(value).slice(0, 80);

  /** Each recorded resource's input properties, as state records them (its outputs), against a Read of the platform. */
  async function stateAgainstPlatform(): Promise<StateVsPlatform[]> {
    const compared: StateVsPlatform[] = [];
    for (const r of recorded()) {
      const read = await readOrInitFailure(plugin.read(typeOf(r.kind), r.name, r.id, r.outputs, r.inputs));
      const differs =
        read.id === ""
          ? ["gone from the platform"]
          : inputProperties(r.kind)
              .filter((property) => !deepEqual(plain(r.outputs[property]), plain(read.properties[property])))
              .map(
                (property) =>
                  `${property} (state ${shown(r.outputs[property])}, platform ${shown(read.properties[property])})`,
              );
      compared.push({ kind: r.kind, name: r.name, differs });
    }
    return compared;
  }

  /**
   * A second `pulumi up` of the same program, without faults, in the engine's order (dependencies first): Check
   * (olds: the recorded inputs), Diff (olds: the recorded outputs), and an Update where Diff sees a change or the
   * state holds a partial failure. Then each resource must equal the platform, and a third Diff see no change.
   */
  async function upAgain(): Promise<SoakReport["secondUp"]> {
    let updates = 0;
    const notConverged = new Map<string, string>();
    for (const r of recorded()) {
      const type = typeOf(r.kind);
      const { inputs, failures } = await plugin.check(type, r.name, r.program, r.inputs);
      if (failures.length) {
        notConverged.set(r.name, `${r.kind} ${r.name}: Check fails: ${JSON.stringify(failures)}`);
        continue;
      }
      const diff = await plugin.diff(type, r.name, r.id, r.outputs, inputs, r.inputs);
      if (diff.replaces.length) {
        notConverged.set(r.name, `${r.kind} ${r.name}: would be replaced (${diff.replaces.join(", ")})`);
        continue;
      }
      if (diff.changes !== DIFF_SOME && !r.initErrors?.length) continue;
      updates += 1;
      try {
        const updated = await plugin.update(type, r.name, r.id, r.outputs, inputs, r.inputs, { timeout: r.timeout });
        state.set(r.name, { ...r, inputs, outputs: updated.properties, initErrors: undefined });
      } catch (err) {
        const detail = (err as GrpcFailure).metadata ? initFailure(err as GrpcFailure) : undefined;
        if (detail) state.set(r.name, { ...r, outputs: detail.properties, initErrors: detail.reasons });
        notConverged.set(r.name, `${r.kind} ${r.name}: the update failed: ${(err as GrpcFailure).details ?? err}`);
      }
    }
    for (const { kind, name, differs } of await stateAgainstPlatform()) {
      if (differs.length > 0 && !notConverged.has(name))
        notConverged.set(name, `${kind} ${name}: state differs from the platform: ${differs.join("; ")}`);
    }
    for (const r of recorded()) {
      if (notConverged.has(r.name)) continue;
      const type = typeOf(r.kind);
      const { inputs } = await plugin.check(type, r.name, r.program, r.inputs);
      const diff = await plugin.diff(type, r.name, r.id, r.outputs, inputs, r.inputs);
      if (diff.changes === DIFF_SOME || r.initErrors?.length)
        notConverged.set(
          r.name,
          `${r.kind} ${r.name}: a third Diff still sees ${diff.diffs.join(", ") || "a partial failure"}`,
        );
    }
    return { updates, converged: state.size - notConverged.size, notConverged: [...notConverged.values()] };
  }

  let lastReported = 0;
  try {
    faults.enabled = true;
    while (operations.length < options.ops) {
      const all = recorded();
      const roll = random();
      const crowded = all.length >= 24;
      if (options.createsOnly) {
        // Every other create a linked app (a database first, while there is none); the rest of every kind.
        if (operations.length % 2 === 1) {
          if (!(await create("Container", LINKED_APP))) await create("Postgres");
        } else await create(pick(KINDS));
      } else if (all.length === 0 || (!crowded && roll < 0.4)) {
        await createOne(pick(KINDS));
      } else if (roll < 0.6) {
        await update(pick(all));
      } else if (roll < 0.8) {
        await refresh(pick(all));
      } else {
        const leaves = all.filter((r) => dependents(r).length === 0);
        if (leaves.length) await destroy(pick(leaves));
      }
      if (!options.verbose && operations.length % 50 === 0 && operations.length > lastReported) {
        lastReported = operations.length;
        log(`… ${operations.length} operations, ${recorded().length} resources recorded`);
      }
    }

    // ---- compare what the engine recorded with the truth ----
    faults.enabled = false;
    const truth = serverKeys(sim.control.snapshot());
    const recordedKeys = new Map(recorded().map((r) => [r.id, r]));
    const forgottenOnServer = [...truth.keys()].filter((key) => forgotten.has(key)).length;
    const orphans = [...truth.entries()]
      .filter(([key]) => !recordedKeys.has(key) && !forgotten.has(key))
      .map(([key, what]) => `${what} (${key})`);
    const ghosts: string[] = [];
    const goneOnRefresh: string[] = [];
    for (const [key, r] of recordedKeys) {
      if (truth.has(key)) continue;
      const read = await plugin.read(typeOf(r.kind), r.name, r.id, r.outputs, r.inputs);
      if (read.id === "") {
        goneOnRefresh.push(`${r.kind} ${r.name}`);
        state.delete(r.name);
      } else ghosts.push(`${r.kind} ${r.name} (${key})`);
    }
    const ids = recorded().map((r) => r.id);
    for (const id of new Set(ids))
      if (ids.filter((x) => x === id).length > 1) duplicates.push(`${id} is recorded twice`);
    const onServer = truth.size;
    const recordedCount = recordedKeys.size;

    // ---- state against the platform, resource by resource; then a second `pulumi up`, and a third Diff ----
    for (const name of stuckVolumes) {
      const r = state.get(name);
      if (r && truth.has(r.id)) sim.control.setVolumeReady(r.id);
    }
    const stateVsPlatform = (await stateAgainstPlatform()).filter((r) => r.differs.length > 0);
    const compared = state.size;
    const secondUp = await upAgain();

    // ---- tear down (no faults), as `pulumi destroy` would, and check nothing is left ----
    for (let round = 0; round < 5 && state.size > 0; round++) {
      for (const r of recorded().filter((x) => dependents(x).length === 0)) {
        await plugin.delete(typeOf(r.kind), r.name, r.id, r.outputs, r.inputs).then(
          () => state.delete(r.name),
          () => undefined,
        );
      }
    }
    const left = [...serverKeys(sim.control.snapshot()).entries()].map(([key, what]) => `${what} (${key})`);

    const failed = operations.filter((o) => !o.ok);
    const unnamed = failed.filter(
      (o) => !NAMED_CODE.test(o.error ?? "") && !(o.partial && WAIT_TIMEOUT.test(o.error ?? "")),
    );
    const requests = sim.control.requests();
    const byOp = {
      create: { ok: 0, failed: 0 },
      update: { ok: 0, failed: 0 },
      refresh: { ok: 0, failed: 0 },
      delete: { ok: 0, failed: 0 },
    };
    const byKind: Record<string, number> = {};
    for (const o of operations) {
      byOp[o.op][o.ok ? "ok" : "failed"] += 1;
      byKind[o.kind] = (byKind[o.kind] ?? 0) + 1;
    }
    return {
      seed: options.seed,
      ops: operations.length,
      createsOnly: options.createsOnly ?? false,
      faultRate,
      seconds: (Date.now() - started) / 1000,
      byOp,
      byKind,
      requests: requests.length,
      faults: {
        injected: requests.filter((r) => r.fault).length,
        byName: { ...faults.chosen },
        recovered: operations.filter((o) => o.ok).reduce((n, o) => n + o.faults.length, 0),
        surfaced: failed.reduce((n, o) => n + o.faults.length, 0),
      },
      failures: {
        total: failed.length,
        namingCode: failed.filter((o) => NAMED_CODE.test(o.error ?? "")).length,
        partial: failed.filter((o) => o.partial).length,
        waitTimeouts: failed.filter((o) => WAIT_TIMEOUT.test(o.error ?? "")).length,
        withoutFault: failed.filter((o) => o.faults.length === 0 && !WAIT_TIMEOUT.test(o.error ?? "")),
        partialFromOneFault: failed.filter(
          (o) => o.partial && o.faults.length <= 1 && !WAIT_TIMEOUT.test(o.error ?? ""),
        ),
      },
      linkedApps: {
        created: operations.filter((o) => o.op === "create" && linkedApps.has(o.name) && (o.ok || o.partial)).length,
        partial: operations.filter((o) => o.op === "create" && linkedApps.has(o.name) && o.partial).length,
      },
      stateVsPlatform,
      compared,
      secondUp,
      unnamed,
      recorded: recordedCount,
      onServer,
      orphans,
      ghosts,
      goneOnRefresh,
      duplicates,
      forgotten: forgottenOnServer,
      leftAfterTeardown: left,
      operations,
    };
  } finally {
    sim.control.setFaultSource(undefined);
    await plugin.stop();
    await sim.close();
  }
}

/** The report as the soak prints it. */
export function describeReport(r: SoakReport): string {
  const names = Object.entries(r.faults.byName)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const ops = Object.entries(r.byOp)
    .map(([k, v]) => `${k} ${v.ok + v.failed} (${v.failed} failed)`)
    .join(", ");
  const lines = [
    `soak: seed ${r.seed}, ${r.ops} ${r.createsOnly ? "creates" : "operations"}, fault rate ${r.faultRate} per request, ${r.seconds.toFixed(0)} s`,
    `operations: ${ops}`,
    `by type: ${Object.entries(r.byKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `requests: ${r.requests}; faults injected: ${r.faults.injected} (${names})`,
    `faults recovered (the operation still succeeded): ${r.faults.recovered}; surfaced as a failed operation: ${r.faults.surfaced}`,
    `failed operations: ${r.failures.total}, ${r.failures.namingCode} naming the API code${r.failures.waitTimeouts ? `, ${r.failures.waitTimeouts} volume waits that gave up` : ""}; ${r.failures.partial} partial failures, all with their id recorded; ${r.unnamed.length} without a code`,
    `state: ${r.recorded} resources recorded; the server holds ${r.onServer}` +
      (r.forgotten
        ? ` (those and ${r.forgotten} deleted from the stack that the API cannot delete: service links)`
        : ""),
    `${r.orphans.length} orphans, ${r.ghosts.length} ghosts${r.goneOnRefresh.length ? ` (${r.goneOnRefresh.length} gone on the next refresh)` : ""}, ${r.duplicates.length} duplicates`,
    `linked apps: ${r.linkedApps.created} created, ${r.linkedApps.partial} of them partial failures; partial failures after at most one fault: ${r.failures.partialFromOneFault.length}`,
    `state equals platform (every input property, state's against a Read): ${r.compared - r.stateVsPlatform.length} of ${r.compared} resources after the run`,
    `second up (engine order, no faults): ${r.secondUp.updates} updates; ${r.secondUp.converged} of ${r.compared} resources equal the platform and a third diff sees no change`,
    `teardown: ${r.leftAfterTeardown.length} left on the server`,
  ];
  for (const [label, xs] of [
    ["orphan", r.orphans],
    ["ghost", r.ghosts],
    ["duplicate", r.duplicates],
    ["left after teardown", r.leftAfterTeardown],
  ] as const) {
    for (const x of xs) lines.push(`  ${label}: ${x}`);
  }
  for (const o of r.unnamed) lines.push(`  failure without a code: #${o.n} ${o.op} ${o.kind} ${o.name}: ${o.error}`);
  for (const o of r.failures.partialFromOneFault)
    lines.push(`  partial failure after at most one fault: #${o.n} ${o.op} ${o.kind} ${o.name}: ${o.error}`);
  for (const x of r.stateVsPlatform)
    lines.push(`  state ≠ platform after the run: ${x.kind} ${x.name}: ${x.differs.join("; ")}`);
  for (const x of r.secondUp.notConverged) lines.push(`  not converged by the second up: ${x}`);
  for (const o of r.failures.withoutFault)
    lines.push(`  failure with no injected fault: #${o.n} ${o.op} ${o.kind} ${o.name}: ${o.error}`);
  return lines.join("\n");
}
