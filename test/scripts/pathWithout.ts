// A PATH without some commands (Go, pulumi) that keeps every other: one folder of links to what PATH finds
// first, leaving those names out. Dropping each PATH folder that holds one of them would drop bash with Go
// wherever Go lives in /usr/bin.
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";

/** A PATH of `extra` first, then a folder made in `dir` linking every command on PATH but `names`. */
export function pathWithout(dir: string, names: readonly string[], extra: readonly string[] = []): string {
  const bin = join(dir, "path-without");
  if (!existsSync(bin)) {
    mkdirSync(bin, { recursive: true });
    const linked = new Set(names);
    for (const folder of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        if (linked.has(name)) continue;
        linked.add(name);
        symlinkSync(join(folder, name), join(bin, name));
      }
    }
  }
  return [...extra, bin].join(delimiter);
}
