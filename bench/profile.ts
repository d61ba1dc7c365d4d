// Where a plugin's CPU goes, from the profiles `node --cpu-prof` writes (one .cpuprofile per process): every
// sample's self time, mapped through the bundles' source maps (bin/*.js.map) to the module it came from, and
// summed by part: the provider's own code (provider/src/<folder>), each library (node_modules/<package>),
// Node.js's own JavaScript (node:http2, node:internal/streams, …), the garbage collector, and V8's
// "(program)" (native code with no JavaScript frame: compilation, the event loop, the C++ side of http2).
// `summarizeProfiles(dir)` reads every profile in `dir`; bench/cliProfile.ts makes them.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  /** Sampled time, ms, over every profile. */
  totalMs: number;
  /** Self time by part, ms, largest first. */
  parts: Array<{ part: string; ms: number }>;
  /** Self time by function (`name (source:line)`), ms, largest first. */
  functions: Array<{ fn: string; part: string; ms: number }>;
}

const maps = new Map<string, TraceMap | undefined>();
function mapFor(file: string): TraceMap | undefined {
  if (!maps.has(file))
    maps.set(file, existsSync(`${file}.map`) ? new TraceMap(readFileSync(`${file}.map`, "utf8")) : undefined);
  return maps.get(file);
}

/** The source a frame ran from: through the bundle's source map, else its URL as it is. */
function source(frame: CallFrame): { file: string; line: number } {
  if (!frame.url.startsWith("file://")) return { file: frame.url, line: frame.lineNumber + 1 };
  const file = fileURLToPath(frame.url);
  const map = mapFor(file);
  if (!map) return { file, line: frame.lineNumber + 1 };
  const original = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  return original.source ? { file: original.source, line: original.line ?? 0 } : { file, line: frame.lineNumber + 1 };
}

/** The part of the plugin a source belongs to. */
export function partOf(file: string, functionName: string): string {
  if (functionName === "(garbage collector)") return "garbage collector";
  if (functionName === "(program)") return "V8 and native code, no JS frame (compilation, event loop, http2's C++)";
  if (functionName === "(idle)") return "(idle)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (modules) return modules[1];
  const ours = /provider\/src\/([^/]+)\//.exec(file) ?? /provider\/src\/([^/.]+)\.ts/.exec(file);
  if (ours) return `provider/src/${ours[1]}`;
  if (file.startsWith("node:")) {
    const inner = /^node:(?:internal\/)?([^/]+)/.exec(file)!;
    return `Node.js ${inner[1]}`;
  }
  return file === "" ? "(native)" : file;
}

export function summarizeProfiles(dir: string): ProfileSummary {
  const parts = new Map<string, number>();
  const functions = new Map<string, { part: string; ms: number }>();
  let totalMs = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, name), "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const selfUs = new Map<number, number>();
    for (const [i, id] of profile.samples.entries())
      selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    for (const [id, us] of selfUs) {
      const frame = byId.get(id)!.callFrame;
      const { file, line } = source(frame);
      const part = partOf(file, frame.functionName);
      if (part === "(idle)") continue;
      const ms = us / 1000;
      totalMs += ms;
      parts.set(part, (parts.get(part) ?? 0) + ms);
      const fn = `${frame.functionName || "(anonymous)"} (${file.replace(/^.*?(node_modules|provider\/src)/, "$1")}:${line})`;
      const entry = functions.get(fn) ?? { part, ms: 0 };
      entry.ms += ms;
      functions.set(fn, entry);
    }
  }
  return {
    totalMs,
    parts: [...parts].map(([part, ms]) => ({ part, ms })).sort((a, b) => b.ms - a.ms),
    functions: [...functions].map(([fn, f]) => ({ fn, ...f })).sort((a, b) => b.ms - a.ms),
  };
}

/** The summary as text: the parts, then the `top` functions. */
export function profileText(summary: ProfileSummary, top = 25): string {
  const pct = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1)}%`;
  return [
    `${summary.totalMs.toFixed(0)} ms sampled (idle left out)`,
    ...summary.parts.map((p) => `  ${p.ms.toFixed(0).padStart(7)} ms ${pct(p.ms).padStart(6)}  ${p.part}`),
    `the ${top} functions with the most self time:`,
    ...summary.functions
      .slice(0, top)
      .map((f) => `  ${f.ms.toFixed(0).padStart(7)} ms ${pct(f.ms).padStart(6)}  ${f.fn}`),
  ].join("\n");
}
