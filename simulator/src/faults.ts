// Injected faults: each matches by method and path, applies to the next `times` matching requests.
import type { Fault, FaultKind } from "./types";

const KINDS: readonly FaultKind[] = ["status", "rate_limit", "reset_before", "reset_after", "latency", "respond_after", "huge_body", "redirect"];

interface Armed {
  fault: Fault;
  path?: RegExp;
  remaining: number;
}

/** Check a fault from an untrusted source (the admin API); throws with a readable message. */
export function checkFault(value: unknown): Fault {
  if (typeof value !== "object" || value === null) throw new Error("fault: must be an object");
  const fault = value as Fault;
  if (!KINDS.includes(fault.kind)) throw new Error(`fault.kind: must be one of ${KINDS.join(", ")}`);
  if (fault.kind === "status" && !(Number.isInteger(fault.status) && fault.status! >= 400 && fault.status! <= 599)) {
    throw new Error("fault.status: must be an HTTP error status (400-599)");
  }
  if (fault.kind === "latency" && !(typeof fault.latencyMs === "number" && fault.latencyMs >= 0)) {
    throw new Error("fault.latencyMs: must be a number >= 0");
  }
  if (fault.kind === "respond_after") {
    if (fault.status !== undefined && !(Number.isInteger(fault.status) && fault.status >= 200 && fault.status <= 599)) {
      throw new Error("fault.status: for respond_after, an HTTP status (200-599)");
    }
    if (fault.body !== undefined && typeof fault.body !== "string") throw new Error("fault.body: must be a string, the raw body to send");
  }
  if (fault.kind === "huge_body" && !(Number.isInteger(fault.bytes) && fault.bytes! >= 1)) {
    throw new Error("fault.bytes: for huge_body, a whole number of bytes >= 1, e.g. 209715200 for 200 MB");
  }
  if (fault.kind === "redirect" && fault.status !== undefined && ![301, 302, 303, 307, 308].includes(fault.status)) {
    throw new Error("fault.status: for redirect, one of 301, 302, 303, 307, 308");
  }
  if (fault.times !== undefined && !(Number.isInteger(fault.times) && fault.times >= 1)) {
    throw new Error("fault.times: must be an integer >= 1");
  }
  if (fault.path !== undefined) new RegExp(fault.path);
  return fault;
}

export class FaultQueue {
  private armed: Armed[] = [];
  /** Consulted when no armed fault matches (the seeded random faults of chaos.ts, for soak runs). */
  source?: (method: string, path: string) => Fault | undefined;

  inject(fault: Fault): void {
    checkFault(fault);
    this.armed.push({
      fault: { ...fault },
      path: fault.path === undefined ? undefined : new RegExp(fault.path),
      remaining: fault.times ?? 1,
    });
  }

  clear(): void {
    this.armed = [];
  }

  pending(): Fault[] {
    return this.armed.map(({ fault, remaining }) => ({ ...fault, times: remaining }));
  }

  /** The first armed fault (in injection order) that matches this request, consuming one use. */
  take(method: string, path: string): Fault | undefined {
    const hit = this.armed.find(
      (armed) =>
        (armed.fault.method === undefined || armed.fault.method.toUpperCase() === method) &&
        (armed.path === undefined || armed.path.test(path)),
    );
    if (!hit) return this.source?.(method, path);
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.armed = this.armed.filter((armed) => armed !== hit);
    return hit.fault;
  }
}
