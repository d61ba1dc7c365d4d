// The in-memory world, and its optional persistence to a JSON file.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { SimKind, SimRecords, SimState } from "./types";

const FILE_VERSION = 1;

/** What the world needs of a collection: what goes with one of its records, and what settles. */
export interface WorldRules<R> {
  /**
   * Fields that hold the id of a record of another collection (by its name): deleting that record,
   * through the API or out of band, deletes this one too.
   */
  references?: Partial<Record<keyof R & string, SimKind>>;
  /** A pending transition that is due by `now` (a ready-at time, so it also completes across a restart). */
  settle?(record: R, store: Store, now: number): void;
}

/** The world's rules of every collection, by its name (collections.ts's table hands them over). */
export type WorldTable = { [K in SimKind]: WorldRules<SimRecords[K]> };

type AnyRules = WorldRules<{ id: string }>;

export class Store {
  state: SimState;
  private readonly rules: Array<[SimKind, AnyRules]>;

  constructor(
    table: WorldTable,
    private readonly file?: string,
  ) {
    this.rules = Object.entries(table) as Array<[SimKind, AnyRules]>;
    this.state = this.empty();
  }

  /** No record of any collection, no log, no suspended project. */
  empty(): SimState {
    const collections = Object.fromEntries(this.rules.map(([kind]) => [kind, []]));
    return { ...collections, logs: {}, suspended_projects: [] } as unknown as SimState;
  }

  /** Load the state file if there is one; a missing file is an empty world. */
  load(): void {
    if (!this.file || !existsSync(this.file)) return;
    const parsed = JSON.parse(readFileSync(this.file, "utf8")) as { version?: number; state?: Partial<SimState> };
    if (parsed.version !== FILE_VERSION || typeof parsed.state !== "object" || parsed.state === null) {
      throw new Error(`${this.file}: not a simulator state file (version ${FILE_VERSION})`);
    }
    this.state = { ...this.empty(), ...parsed.state };
  }

  /** Write the state file atomically (temp file + rename), so a crash never leaves half a file. */
  persist(): void {
    if (!this.file) return;
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ version: FILE_VERSION, state: this.state }, null, 2));
    renameSync(temp, this.file);
  }

  /**
   * Apply every asynchronous transition that is due by `now` (each collection's `settle`).
   * Transitions are stored as a ready-at time rather than as timers, so they also complete across a restart.
   */
  settle(now: number): void {
    for (const [kind, { settle }] of this.rules) {
      if (settle) for (const record of this.records(kind)) settle(record, this, now);
    }
  }

  /**
   * Delete a record with what hangs off it: the records of other collections that refer to it (a
   * service's attachments and links; the volumes stay) and its log lines.
   */
  remove(kind: SimKind, id: string): void {
    this.setRecords(
      kind,
      this.records(kind).filter((record) => record.id !== id),
    );
    for (const [from, { references = {} }] of this.rules) {
      for (const [field, target] of Object.entries(references)) {
        if (target !== kind) continue;
        for (const record of this.records(from)) {
          if ((record as unknown as Record<string, unknown>)[field] === id) this.remove(from, record.id);
        }
      }
    }
    delete this.state.logs[id];
  }

  records(kind: SimKind): Array<{ id: string }> {
    return this.state[kind];
  }

  private setRecords(kind: SimKind, records: Array<{ id: string }>): void {
    (this.state as unknown as Record<SimKind, Array<{ id: string }>>)[kind] = records;
  }

  snapshot(): SimState {
    return structuredClone(this.state);
  }

  isSuspended(projectId: string): boolean {
    return this.state.suspended_projects.includes(projectId);
  }

  setSuspended(projectId: string, suspended: boolean): void {
    const others = this.state.suspended_projects.filter((id) => id !== projectId);
    this.state.suspended_projects = suspended ? [...others, projectId] : others;
  }
}
