// The in-memory world, and its optional persistence to a JSON file.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { iso } from "./clock";
import { endStatus, startEndedLines } from "./starts";
import type { SimService, SimState } from "./types";

const FILE_VERSION = 1;

export function emptyState(): SimState {
  return { services: [], volumes: [], attachments: [], registries: [], links: [], logs: {}, suspended_projects: [] };
}

export class Store {
  state: SimState = emptyState();

  constructor(private readonly file?: string) {}

  /** Load the state file if there is one; a missing file is an empty world. */
  load(): void {
    if (!this.file || !existsSync(this.file)) return;
    const parsed = JSON.parse(readFileSync(this.file, "utf8")) as { version?: number; state?: Partial<SimState> };
    if (parsed.version !== FILE_VERSION || typeof parsed.state !== "object" || parsed.state === null) {
      throw new Error(`${this.file}: not a simulator state file (version ${FILE_VERSION})`);
    }
    this.state = { ...emptyState(), ...parsed.state };
  }

  /** Write the state file atomically (temp file + rename), so a crash never leaves half a file. */
  persist(): void {
    if (!this.file) return;
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ version: FILE_VERSION, state: this.state }, null, 2));
    renameSync(temp, this.file);
  }

  /**
   * Apply every asynchronous transition that is due by `now`. Transitions are stored as a ready-at
   * time rather than as timers, so they also complete across a restart.
   */
  settle(now: number): void {
    for (const service of this.state.services) {
      if (service.status === "provisioning" && service.ready_at !== null && service.ready_at <= now) {
        this.endStart(service, service.ready_at);
      }
    }
    for (const volume of this.state.volumes) {
      if (volume.status === "provisioning" && volume.ready_at !== null && volume.ready_at <= now) {
        volume.status = "running";
        volume.status_reason = "";
        volume.ready_at = null;
      }
    }
  }

  /**
   * A start ends in the outcome decided when it began. Its log lines carry the time it ended, not the
   * time a request noticed, so a world settled again from the state file logs the same lines.
   */
  private endStart(service: SimService, endedAt: number): void {
    const outcome = service.start_outcome ?? "running";
    service.status = endStatus(outcome);
    service.ready_at = null;
    service.start_outcome = null;
    const lines = (this.state.logs[service.id] ??= []);
    for (const line of startEndedLines(service, outcome)) lines.push(`${iso(endedAt)} ${line}`);
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
