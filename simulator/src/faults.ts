// Injected faults: each matches by method and path, applies to the next `times` matching requests.
import { validateHeaderName, validateHeaderValue } from "node:http";
import type { Reply } from "./context";
import type { Fault, FaultKind } from "./types";

export const FAULT_KINDS: readonly FaultKind[] = [
  "status",
  "rate_limit",
  "reset_before",
  "reset_after",
  "latency",
  "respond_after",
  "huge_body",
  "redirect",
  "omit_record",
  "duplicate_record",
  "ignored",
  "echo_env",
];

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** The most copies a duplicate_record fault adds: a million records of ~600 bytes is a 600 MB answer. */
const MAX_COPIES = 1_000_000;

/** Where a redirect fault sends the client when it names no location: the same path, another host. */
export const ELSEWHERE = "https://elsewhere.example.com";

const isStatusBetween = (value: unknown, low: number, high: number): boolean =>
  Number.isInteger(value) && (value as number) >= low && (value as number) <= high;

/** Whether Node sends this header as it is (a token for a name; no CR, LF or other control character in the value). */
function isSendable(name: string, value: string): boolean {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

function checkHeaders(headers: unknown): void {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new Error("fault.headers: must be an object of header names to string values");
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw new Error(`fault.headers[${JSON.stringify(name)}]: must be a string`);
    if (!isSendable(name, value)) {
      throw new Error(
        `fault.headers[${JSON.stringify(name)}]: not a valid HTTP header (a token name; no CR, LF or NUL in the value)`,
      );
    }
  }
}

interface Armed {
  fault: Fault;
  path?: RegExp;
  remaining: number;
}

/** Check a fault from an untrusted source (the admin API); throws with a readable message. */
export function checkFault(value: unknown): Fault {
  if (typeof value !== "object" || value === null) throw new Error("fault: must be an object");
  const fault = value as Fault;
  if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`fault.kind: must be one of ${FAULT_KINDS.join(", ")}`);
  if (fault.kind === "status" && !isStatusBetween(fault.status, 400, 599)) {
    throw new Error("fault.status: must be an HTTP error status (400-599)");
  }
  const { retryAfter } = fault;
  if (fault.kind === "rate_limit" && retryAfter != null) {
    // Any text a server might send ("0", "-5", "soon", a date), but one Node can send as a header.
    if (!(typeof retryAfter === "string" && isSendable("retry-after", retryAfter)))
      throw new Error("fault.retryAfter: must be the Retry-After header's text (no CR, LF or NUL), or null for none");
  }
  if (fault.kind === "latency" && !(typeof fault.latencyMs === "number" && fault.latencyMs >= 0)) {
    throw new Error("fault.latencyMs: must be a number >= 0");
  }
  const sendsItsStatus = fault.kind === "respond_after" || fault.kind === "huge_body";
  if (sendsItsStatus && fault.status !== undefined && !isStatusBetween(fault.status, 200, 599)) {
    throw new Error("fault.status: must be the HTTP status to send (200-599; default 200)");
  }
  if (fault.kind === "respond_after") {
    if (fault.body !== undefined && typeof fault.body !== "string")
      throw new Error("fault.body: must be a string, sent as is");
    if (fault.headers !== undefined) checkHeaders(fault.headers);
  }
  if (fault.kind === "huge_body") {
    if (!(Number.isSafeInteger(fault.bytes) && fault.bytes! >= 0)) {
      throw new Error("fault.bytes: must be an integer >= 0, the size of the body (209715200 for 200 MiB)");
    }
    if (fault.withLength !== undefined && typeof fault.withLength !== "boolean") {
      throw new Error(
        "fault.withLength: must be a boolean (false: no Content-Length, the body goes chunked; default true)",
      );
    }
  }
  if (fault.kind === "redirect") {
    if (fault.status !== undefined && !REDIRECT_STATUSES.includes(fault.status)) {
      throw new Error(`fault.status: must be a redirect status, one of ${REDIRECT_STATUSES.join(", ")} (default 302)`);
    }
    const { location } = fault;
    if (
      location !== undefined &&
      !(typeof location === "string" && location !== "" && isSendable("location", location))
    ) {
      throw new Error(
        `fault.location: must be a URL or a path for the Location header (default: the same path on ${ELSEWHERE})`,
      );
    }
  }
  if (fault.kind === "ignored" && fault.status !== undefined && !isStatusBetween(fault.status, 200, 299)) {
    throw new Error("fault.status: must be the 2xx status to answer with (default 204)");
  }
  const namesRecord = fault.kind === "omit_record" || fault.kind === "duplicate_record";
  if (namesRecord && fault.id !== undefined && typeof fault.id !== "string")
    throw new Error("fault.id: must be a record's id");
  if (fault.kind === "duplicate_record" && fault.copies !== undefined) {
    if (!(Number.isInteger(fault.copies) && fault.copies >= 1 && fault.copies <= MAX_COPIES)) {
      throw new Error(
        `fault.copies: must be an integer from 1 to ${MAX_COPIES}, how many copies of the record the list answer adds (default 1)`,
      );
    }
  }
  if (fault.times !== undefined && !(Number.isInteger(fault.times) && fault.times >= 1)) {
    throw new Error("fault.times: must be an integer >= 1");
  }
  if (fault.path !== undefined) new RegExp(fault.path);
  return fault;
}

/** What a respond_after fault sends once the API has acted: the status, headers and body it names, as they are. */
export function chosenAnswer(fault: Fault): Reply {
  const headers = Object.fromEntries(
    Object.entries(fault.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return {
    status: fault.status ?? 200,
    text: fault.body ?? "",
    headers: { "content-type": "application/json", ...headers },
  };
}

/**
 * An omit_record fault's answer: the API's list answer (an array, or an object holding one) without
 * the record of that id (or its first), as a list that is behind would answer. Other answers pass.
 */
export const withoutRecord = (reply: Reply, fault: Fault): Reply =>
  withRecords(reply, fault, (records, index) => records.filter((_, i) => i !== index));

/**
 * A duplicate_record fault's answer: the API's list answer with the record of that id (or its first) listed again, its
 * `copies` (default 1) at the end, as a careless API's join or paging answers. Other answers pass.
 */
export const withRecordCopies = (reply: Reply, fault: Fault): Reply =>
  withRecords(reply, fault, (records, index) => [
    ...records,
    ...Array.from({ length: fault.copies ?? 1 }, () => records[index]),
  ]);

/** A list answer (an array, or an object holding one) with `change` made around the fault's record (its index). */
function withRecords(reply: Reply, fault: Fault, change: (records: unknown[], index: number) => unknown[]): Reply {
  if (reply.status !== 200 || reply.json === undefined) return reply;
  const changed = (records: unknown[]) => {
    const index = fault.id === undefined ? 0 : records.findIndex((r) => (r as { id?: unknown })?.id === fault.id);
    return index < 0 || index >= records.length ? records : change(records, index);
  };
  if (Array.isArray(reply.json)) return { ...reply, json: changed(reply.json) };
  const json = reply.json as Record<string, unknown>;
  const key = Object.keys(json).find((k) => Array.isArray(json[k]));
  return key === undefined ? reply : { ...reply, json: { ...json, [key]: changed(json[key] as unknown[]) } };
}

/**
 * What an echo_env fault answers, without acting: 400 VALIDATION_FAILED whose message quotes every
 * variable of the request's `env`, name and value, as an API that echoes what it refuses.
 */
export function echoedEnv(rawBody: string): string {
  let env: unknown;
  try {
    env = (JSON.parse(rawBody) as { env?: unknown })?.env;
  } catch {
    env = undefined;
  }
  const variables = env !== null && typeof env === "object" ? Object.entries(env) : [];
  if (variables.length === 0) return "env: the platform refuses this request's variables (it sent none)";
  const quoted = variables.map(([name, value]) => `"${name}" = "${String(value)}"`).join(", ");
  return `env: the platform refuses the variables ${quoted}`;
}

/** What an ignored fault answers, without acting: its 2xx (default 204), no body. */
export const ignoredAnswer = (fault: Fault): Reply => ({ status: fault.status ?? 204 });

/** What a redirect fault sends instead of acting: its status and a Location, no body. */
export function redirectAnswer(fault: Fault, target: string): Reply {
  return { status: fault.status ?? 302, headers: { location: fault.location ?? ELSEWHERE + target } };
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
