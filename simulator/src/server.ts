// The HTTP front: request ids, the size limits, the admin API, injected faults, and writing (or
// withholding) replies.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ADMIN_MAX_BODY_BYTES, adminPayloadTooLarge, handleAdmin, isAdminPath } from "./admin";
import type { Reply } from "./context";
import type { Core } from "./core";
import { chosenAnswer, ignoredAnswer, redirectAnswer, withRecordCopies, withoutRecord } from "./faults";
import { hugeBodyChunks, writeChunks } from "./hugeBody";
import type { Fault, SimulatorControl } from "./types";

/**
 * How long a connection whose request was refused for its size stays open, reading and dropping what
 * the client still sends, before it closes anyway.
 */
const LINGER_MS = 2000;

export interface HttpFront {
  server: Server;
  /** Cancel replies still waiting on an injected latency. */
  cancelPending(): void;
}

/** Node's own default for `maxHeaderSize`. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

export function checkMaxHeaderBytes(value: unknown): number {
  if (!(Number.isSafeInteger(value) && (value as number) >= 1)) {
    throw new Error("maxHeaderBytes: must be an integer >= 1 (bytes)");
  }
  return value as number;
}

export function createHttpFront(
  core: Core,
  control: SimulatorControl,
  options: { maxHeaderBytes?: number } = {},
): HttpFront {
  const pending = new Set<NodeJS.Timeout>();

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://simulator").pathname;
    const admin = isAdminPath(path);
    const body = await readBody(req, admin ? ADMIN_MAX_BODY_BYTES : core.switches.maxRequestBodyBytes);
    if (body.kind === "gone") return;
    if (body.kind === "too_large") {
      if (!admin) core.record({ at: Date.now(), method, path, status: 413, requestId });
      sendThenClose(req, res, admin ? adminPayloadTooLarge() : core.payloadTooLarge(requestId), requestId);
      return;
    }
    const rawBody = body.text;
    if (admin) {
      send(res, handleAdmin(control, method, path, rawBody), requestId);
      return;
    }

    const at = Date.now();
    const fault = core.faults.take(method, path);
    const record = (status: number | "reset", withheldStatus?: number) =>
      core.record({
        at,
        method,
        path,
        status,
        requestId,
        ...(fault ? { fault: fault.kind } : {}),
        ...(withheldStatus === undefined ? {} : { withheldStatus }),
      });

    if (fault?.kind === "reset_before") {
      record("reset");
      req.socket.destroy();
      return;
    }
    // Faults that answer instead of acting.
    if (fault?.kind === "redirect") {
      const answer = redirectAnswer(fault, req.url ?? path);
      record(answer.status);
      send(res, answer, requestId);
      return;
    }
    if (fault?.kind === "huge_body") {
      record(fault.status ?? 200);
      await sendHugeBody(res, fault, requestId);
      return;
    }
    const acted =
      fault?.kind === "ignored"
        ? ignoredAnswer(fault)
        : ((fault && core.faultReply(fault, requestId, rawBody)) ??
          core.handleApi(method, path, req.headers.authorization, rawBody, requestId));
    const reply =
      fault?.kind === "omit_record"
        ? withoutRecord(acted, fault)
        : fault?.kind === "duplicate_record"
          ? withRecordCopies(acted, fault)
          : acted;
    if (fault?.kind === "reset_after") {
      record("reset", reply.status);
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "respond_after") {
      const answer = chosenAnswer(fault);
      record(answer.status, reply.status);
      if (answer.status === 204 && answer.text) sendBodyAfter204(res, answer, requestId);
      else send(res, answer, requestId);
      return;
    }
    record(reply.status);
    if (fault?.kind === "latency") {
      const timer = setTimeout(() => {
        pending.delete(timer);
        send(res, reply, requestId);
      }, fault.latencyMs ?? 0);
      pending.add(timer);
      return;
    }
    send(res, reply, requestId);
  }

  const maxHeaderSize = checkMaxHeaderBytes(options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES);
  const server = createServer({ maxHeaderSize }, (req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, { status: 500, json: { code: "INTERNAL_ERROR", message: String(error) } }, randomUUID());
    });
  });
  return {
    server,
    cancelPending: () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
}

type Body = { kind: "text"; text: string } | { kind: "too_large" } | { kind: "gone" };

/**
 * The whole body as text; too large as soon as its Content-Length, or the bytes read so far, pass
 * `limit` (the rest is then dropped as it comes, never kept); gone if the client went away first.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  if (Number(req.headers["content-length"]) > limit) return Promise.resolve({ kind: "too_large" });
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        chunks = [];
        resolve({ kind: "too_large" });
      }
    });
    req.on("end", () => resolve({ kind: "text", text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", () => resolve({ kind: "gone" }));
    req.on("close", () => resolve({ kind: "gone" })); // after "end" when the body came whole, so then a no-op
  });
}

/** A huge_body fault's answer: `bytes` bytes of JSON that never ends, with a Content-Length or chunked. */
async function sendHugeBody(res: ServerResponse, fault: Fault, requestId: string): Promise<void> {
  const bytes = fault.bytes ?? 0;
  const length = fault.withLength === false ? {} : { "content-length": String(bytes) };
  res.writeHead(fault.status ?? 200, { "x-request-id": requestId, "content-type": "application/json", ...length });
  await writeChunks(res, hugeBodyChunks(bytes));
}

/** A reply as it goes on the wire: its headers and its body, if it has one. */
function render(reply: Reply, requestId: string): { headers: Record<string, string>; payload?: string } {
  const headers: Record<string, string> = { "x-request-id": requestId, ...reply.headers };
  let payload: string | undefined;
  if (reply.status !== 204 && reply.json !== undefined) {
    payload = JSON.stringify(reply.json);
    headers["content-type"] = "application/json";
  } else if (reply.status !== 204 && reply.text !== undefined) {
    payload = reply.text;
    headers["content-type"] ??= "text/plain; charset=utf-8";
  }
  return { headers, payload };
}

function send(res: ServerResponse, reply: Reply, requestId: string): void {
  if (res.destroyed || res.headersSent) return;
  const { headers, payload } = render(reply, requestId);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/**
 * A 204 that carries a body, which Node's own response never sends (it drops the body): written
 * on the socket as a broken server would, with its Content-Length, and the connection closed.
 */
function sendBodyAfter204(res: ServerResponse, reply: Reply, requestId: string): void {
  const payload = reply.text ?? "";
  const headers = {
    "x-request-id": requestId,
    ...reply.headers,
    "content-length": String(Buffer.byteLength(payload)),
    connection: "close",
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  res.socket?.end(`HTTP/1.1 204 No Content\r\n${head}\r\n${payload}`);
}

/**
 * Answer at once with `Connection: close`, but close only once the client has finished sending (or
 * after LINGER_MS), dropping what it sends: closing with its bytes unread resets the connection, and
 * a client still writing its body can meet that reset before it reads the answer (RFC 9112 section 9.6).
 */
function sendThenClose(req: IncomingMessage, res: ServerResponse, reply: Reply, requestId: string): void {
  const { headers, payload = "" } = render(reply, requestId);
  res.writeHead(reply.status, {
    ...headers,
    connection: "close",
    "content-length": String(Buffer.byteLength(payload)),
  });
  res.write(payload); // with its Content-Length written, the answer is whole for the client already
  const close = () => {
    clearTimeout(timer);
    if (!res.destroyed) res.end();
  };
  const timer = setTimeout(close, LINGER_MS);
  res.once("close", () => clearTimeout(timer));
  if (req.readableEnded) close();
  else req.once("end", close);
  req.resume();
}
