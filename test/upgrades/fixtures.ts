// The recorded states in states/, one directory per schema version (1, 2, …): each holds the
// engine's state of every resource as the release that recorded it wrote it (stack.json: Check's
// inputs and Create's outputs, secrets as the engine marks them; refreshed.json: the same stack
// after a refresh, Read's inputs and outputs), the program they were made from
// (program.json: the inputs as the engine sends them, references as ids), the simulator's world
// behind them (simulator.json), the state shape they were recorded under (shape.json, see
// shape.ts), and who recorded them (about.json).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ResourceState } from "../grpc/engine";
import { shapeChanges, type StateShape } from "./shape";

export const STATES = resolve(__dirname, "states");

export interface Recorded extends ResourceState {
  type: string;
}

export interface About {
  schemaVersion: number;
  /** package.json's version when it was recorded. */
  release: string;
  /** The commit whose plugin recorded it. */
  commit: string;
  note?: string;
}

export interface Fixture {
  version: number;
  dir: string;
  about: About;
  /** Resource name → its state as the engine stored it, in the order they were made. */
  stack: Record<string, Recorded>;
  /** The same, after a refresh (Read's inputs and outputs as the engine stores them). */
  refreshed: Record<string, Recorded>;
  /** Resource name → the inputs its program sent (before Check). */
  program: Record<string, Record<string, unknown>>;
  shape: StateShape;
}

const json = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), "utf8"));

/** Every schema version's fixture in `states`, oldest first. */
export function fixtures(states = STATES): Fixture[] {
  if (!existsSync(states)) return [];
  return readdirSync(states)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b)
    .map((version) => {
      const dir = join(states, String(version));
      const read = (file: string) => json(dir, `${file}.json`);
      const [about, stack, refreshed, program, shape] = ["about", "stack", "refreshed", "program", "shape"].map(read);
      return { version, dir, about, stack, refreshed, program, shape };
    });
}

/**
 * The schema version to record the current shape as: one past the newest fixture's when the shape
 * changed since (with the changes), none when it did not, as a fixture is what a release wrote and
 * stays as it was; `replace` records the newest again (before it is released).
 */
export function versionToRecord(
  newest: Pick<Fixture, "version" | "shape"> | undefined,
  shape: StateShape,
  replace = false,
): { version: number; changes: string[] } {
  if (!newest) return { version: 1, changes: [] };
  const changes = shapeChanges(newest.shape, shape);
  if (changes.length > 0) return { version: newest.version + 1, changes };
  if (replace) return { version: newest.version, changes };
  throw new Error(
    `the state shape is schema version ${newest.version}'s, which has its fixture already. A fixture is what a release wrote and stays as it was; run with --replace (make record-state ARGS=--replace) to record it again.`,
  );
}
