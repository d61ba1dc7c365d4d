// What the benchmarks share that loads nothing heavy (no bundler, no plugin, no simulator), so that tests can
// import it: the world's constants, a clock, and a process's figures from /proc. bench/lib.ts re-exports it.
import { readFileSync } from "node:fs";
import { ALICE } from "../simulator/src/defaults";

export const PROJECT = ALICE.projects[0];
export const IMAGE = "registry.example.com/acme/web:1.0.0";

export const now = () => Number(process.hrtime.bigint()) / 1e6;

/** CPU time (user + system) and resident memory of a process, from /proc (Linux). */
export function processFigures(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { cpuMs: (ticks * 1000) / 100, rssMb: rssKb / 1024 }; // USER_HZ is 100 on Linux
}
