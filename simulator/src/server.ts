// The HTTP front: request ids, the admin API, injected faults, and writing (or withholding) replies.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { handleAdmin, isAdminPath } from "./admin";
import type { Reply } from "./context";
import type { Core } from "./core";
import type { SimulatorControl } from "./types";

const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface HttpFront {
  server: Server;
  /** Cancel replies still waiting on an injected latency. */
  cancelPending(): void;
}

export function createHttpFront(core: Core, control: SimulatorControl): HttpFront {
  const pending = new Set<NodeJS.Timeout>();

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://simulator").pathname;
    const rawBody = await readBody(req);
    if (rawBody === undefined) {
      req.socket.destroy();
      return;
    }
    if (isAdminPath(path)) {
      send(res, handleAdmin(control, method, path, rawBody), requestId);
      return;
    }

    const at = Date.now();
    const fault = core.faults.take(method, path);
    const record = (status: number | "reset") =>
      core.record({ at, method, path, status, requestId, ...(fault ? { fault: fault.kind } : {}) });

    if (fault?.kind === "reset_before") {
      record("reset");
      req.socket.destroy();
      return;
    }
    const reply =
      (fault && core.faultReply(fault, requestId)) ??
      core.handleApi(method, path, req.headers.authorization, rawBody, requestId);
    if (fault?.kind === "reset_after") {
      record("reset");
      req.socket.destroy();
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

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { status: 500, json: { code: "INTERNAL_ERROR", message: String(error) } }, randomUUID());
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

/** The whole body as text, or undefined if the client went away or sent too much. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(undefined));
  });
}

function send(res: ServerResponse, reply: Reply, requestId: string): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string> = { "x-request-id": requestId, ...reply.headers };
  let payload: string | undefined;
  if (reply.status !== 204 && reply.json !== undefined) {
    payload = JSON.stringify(reply.json);
    headers["content-type"] = "application/json";
  } else if (reply.status !== 204 && reply.text !== undefined) {
    payload = reply.text;
    headers["content-type"] ??= "text/plain; charset=utf-8";
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}
