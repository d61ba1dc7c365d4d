// The engine's side of the wire in the refresh rows (2, 7 and the curve): grpc-go, the real engine's
// gRPC library, where Go and grpc-go are installed (test/grpc/goEngine: one Go process sends every
// request itself, `parallelism` at a time, and times them); otherwise grpc-js in this process. On a
// two-core machine the choice shows: grpc-js is a heavier client than the engine's and takes CPU
// from the plugin (a refresh of 1,000 at once, same run: 1.2 s through grpc-js, 0.6–0.8 s through
// grpc-go).
import { GoEngine, goEngineMissing, type Message } from "../test/grpc/goEngine";
import type { Plugin } from "../test/grpc/engine";
import { now, pool, processFigures } from "./lib";

export interface EngineSide {
  /** "grpc-go", or "grpc-js (no Go here: …)". */
  name: string;
  /**
   * Every request of `method` (as grpc-js names it: `read`), `parallelism` at a time: the wall time, and the replies.
   */
  sendAll<T>(method: string, requests: Message[], parallelism: number): Promise<{ wallMs: number; replies: T[] }>;
  /** The engine side's CPU so far, in milliseconds. */
  cpuMs(): number;
  close(): Promise<void>;
}

/** The engine side for `plugin`: grpc-go where it can be built, else grpc-js. */
export async function engineSide(plugin: Plugin): Promise<EngineSide> {
  const missing = goEngineMissing();
  if (missing) return grpcJsSide(plugin, `grpc-js (no Go here: ${missing})`);
  const go = await GoEngine.dial(plugin.port);
  return {
    name: "grpc-go",
    sendAll: (method, requests, parallelism) => go.batch(method, requests, parallelism),
    cpuMs: () => processFigures(go.pid).cpuMs,
    close: () => go.close(),
  };
}

function grpcJsSide(plugin: Plugin, name: string): EngineSide {
  return {
    name,
    async sendAll(method, requests, parallelism) {
      const started = now();
      const replies = await pool(requests.length, parallelism, (i) => plugin.call<any>(method, requests[i]));
      return { wallMs: now() - started, replies };
    },
    cpuMs() {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    },
    close: async () => undefined,
  };
}
