// Creates the engine never heard the end of. A `pulumi up` stopped while a create is in flight (a second Ctrl-C,
// which terminates the CLI at once; a killed CLI) closes its connection before the plugin answers: the engine's state
// keeps a pending create with no id, and the next `up` creates the resource again under a fresh name (its random seed
// is new each run), leaving the first one on the platform, in no stack. The plugin does not receive that Ctrl-C (the
// engine starts it in a process group of its own) and cannot keep the CLI alive, so it keeps what it made instead:
// when a Create's call is cancelled before its answer, the id it made is written here, under the provider's id (the
// engine's, made once per stack and kept in its state) and the resource's URN. The next run's Check of that URN (a
// new resource to the engine) names it as it was named, and its Create takes the record back by id (api/client.ts
// `adopt`) instead of making another. An entry is forgotten once the engine has been told (a Create answered), or as
// soon as any call shows the engine holds its id (a refresh or an import of it).
//
// One file per entry, beside the user's Pulumi state on this machine: `$PULUMI_HOME/hosting/unrecorded` (PULUMI_HOME
// defaults to ~/.pulumi). Written whole (a temporary file renamed), so plugins running side by side never read half
// of one.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Unrecorded {
  /** The engine's id of the provider (Configure's `id`) that made it. */
  providerId: string;
  urn: string;
  /** What the Create made: its id, and its name when it has one. */
  id: string;
  name?: string;
  /** When the Create's call was given up (ISO 8601), for a person reading the folder. */
  at: string;
}

/** Where the entries live: PULUMI_HOME's, or ~/.pulumi's. */
export function unrecordedFolder(env: NodeJS.ProcessEnv): string {
  return join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "hosting", "unrecorded");
}

const fileOf = (providerId: string, urn: string) =>
  `${createHash("sha256").update(`${providerId}\n${urn}`).digest("hex").slice(0, 32)}.json`;

export class UnrecordedCreates {
  /** The entries of this folder, read once, on first use (a run has few, and most have none). */
  private entries?: Map<string, Unrecorded>;

  constructor(
    private readonly folder: string,
    /** Where a failure to read or write the folder is said (stderr, with -v): an entry is help, never a condition. */
    private readonly debug: (line: string) => void = () => undefined,
  ) {}

  private all(): Map<string, Unrecorded> {
    if (this.entries) return this.entries;
    this.entries = new Map();
    let files: string[] = [];
    try {
      files = readdirSync(this.folder).filter((file) => file.endsWith(".json"));
    } catch {
      return this.entries; // no folder: no entry
    }
    for (const file of files) {
      try {
        const entry = JSON.parse(readFileSync(join(this.folder, file), "utf8")) as Unrecorded;
        if (typeof entry.id === "string" && file === fileOf(entry.providerId, entry.urn)) this.entries.set(file, entry);
      } catch (err) {
        this.debug(`unrecorded creates: ${file} is not readable (${(err as Error).message}); it is left alone`);
      }
    }
    return this.entries;
  }

  /** Keeps what a Create made that the engine was not told. */
  keep(entry: Omit<Unrecorded, "at">): void {
    const file = fileOf(entry.providerId, entry.urn);
    const kept: Unrecorded = { ...entry, at: new Date().toISOString() };
    try {
      mkdirSync(this.folder, { recursive: true });
      const temporary = join(this.folder, `.${file}.${process.pid}`);
      writeFileSync(temporary, `${JSON.stringify(kept, null, 2)}\n`);
      renameSync(temporary, join(this.folder, file));
      this.all().set(file, kept);
    } catch (err) {
      this.debug(`unrecorded creates: could not keep ${entry.urn} (${entry.id}): ${(err as Error).message}`);
    }
  }

  /** What a Create of `urn` under this provider made and the engine was not told, if anything. */
  find(providerId: string, urn: string): Unrecorded | undefined {
    const entries = this.all();
    // Most runs keep none: a preview's thousand Creates pay no digest then.
    return entries.size === 0 ? undefined : entries.get(fileOf(providerId, urn));
  }

  /** Forgets the entry of `urn` under this provider: the engine has been told. */
  forget(providerId: string, urn: string): void {
    if (this.all().size > 0) this.remove(fileOf(providerId, urn));
  }

  /** Forgets any entry of this id: a call shows the engine holds it (a refresh, an import). */
  forgetId(id: string): void {
    for (const [file, entry] of this.all()) if (entry.id === id) this.remove(file);
  }

  private remove(file: string): void {
    if (!this.all().delete(file)) return;
    try {
      rmSync(join(this.folder, file), { force: true });
    } catch (err) {
      this.debug(`unrecorded creates: could not remove ${file}: ${(err as Error).message}`);
    }
  }
}
