// Messages to the Pulumi display through the engine's Log service, and whether the engine is still
// there (its health). The engine's address is the plugin's last argument, or arrives in Handshake
// (an engine that shakes hands need not pass it) or later through Attach (a plugin started by hand
// for PULUMI_DEBUG_PROVIDERS). Without an engine (tests, a bare start), messages are dropped. Every
// message is bounded (redact.ts `bounded`): an app's log tail or an API's echo can be megabytes.
import * as grpc from "@grpc/grpc-js";
import { bounded } from "../redact";
import { decode, encode, type Message } from "./codec";
import { Empty, LogRequest } from "./messages";
import { ENGINE_CLIENT_OPTIONS } from "./grpcOptions";

export type Severity = "debug" | "info" | "warning" | "error";

/** engine.proto's `rpc Log(LogRequest) returns (google.protobuf.Empty)`. */
const LOG = "/pulumirpc.Engine/Log";
const serialize = (request: Partial<Message<typeof LogRequest>>) => encode(LogRequest, request);
const deserialize = (bytes: Buffer) => decode(Empty, bytes);

/**
 * grpc.health.v1's `rpc Check(HealthCheckRequest) returns (HealthCheckResponse)`, which the engine serves (its
 * rpcutil.ServeWithOptions registers it): asked with an empty request (the server as a whole), the answer unread.
 */
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";
const EMPTY = Buffer.alloc(0);

export interface EngineLog {
  /** Settles once the engine has the message, or could not be reached; it never rejects. */
  log(severity: Severity, message: string, urn?: string, ephemeral?: boolean): Promise<void>;
  /** Log to the engine at `address` from now on (the connection already open stays, if it is to the same address). */
  attach(address: string): void;
  close(): void;
}

/** The connection to the engine: its log, and its health, which only the second stage (start.ts) watches. */
export interface EngineConnection extends EngineLog {
  /**
   * Asks the engine every `intervalMs` whether it is still there, as Pulumi's Go providers do (rpcutil.Healthcheck),
   * and calls `gone` once, with why, when it is not: its health check failed, and failed again when asked at once
   * (one failed call on a connection being replaced proves nothing). UNIMPLEMENTED is an answer, so the engine is
   * there; a check with no answer yet (an engine stopped with Ctrl-Z) is no failure either.
   */
  watch(intervalMs: number, gone: (why: string) => void): void;
}

export function connectEngineLog(address: string | undefined): EngineConnection {
  let client: grpc.Client | undefined;
  let connectedTo: string | undefined;
  const connect = (to: string | undefined) => {
    if (to === connectedTo) return;
    client?.close();
    connectedTo = to;
    client = to ? new grpc.Client(to, grpc.credentials.createInsecure(), ENGINE_CLIENT_OPTIONS) : undefined;
  };
  connect(address);
  let watching: NodeJS.Timeout | undefined;
  /** Calls `answered` with nothing when the engine answered, or with why not. */
  const check = (answered: (failure?: string) => void) => {
    const engine = client;
    if (!engine) return;
    engine.makeUnaryRequest(
      HEALTH_CHECK,
      () => EMPTY,
      (bytes: Buffer) => bytes,
      EMPTY,
      (err) => {
        // Closed meanwhile: no more checks. Attached elsewhere: this answer was the old engine's, so no verdict.
        if (client !== engine) return client ? answered() : undefined;
        answered(
          err && err.code !== grpc.status.UNIMPLEMENTED ? `${grpc.status[err.code]}: ${err.details}` : undefined,
        );
      },
    );
  };
  return {
    async log(severity, message, urn = "", ephemeral = false) {
      const engine = client;
      if (!engine) return;
      const request = {
        severity: severity.toUpperCase() as Uppercase<Severity>,
        message: bounded(message),
        urn,
        ephemeral,
      };
      // Display messages are best effort: a lost one must never fail an operation.
      await new Promise<void>((resolve) =>
        engine.makeUnaryRequest(LOG, serialize, deserialize, request, () => resolve()),
      );
    },
    attach: connect,
    watch(intervalMs, gone) {
      clearTimeout(watching);
      const next = () => {
        watching = setTimeout(
          () =>
            check((failure) => {
              if (!failure) return next();
              check((again) => (again ? gone(again) : next()));
            }),
          intervalMs,
        );
        // The gRPC server keeps the process alive while it serves; the watch alone must not.
        watching.unref();
      };
      next();
    },
    close() {
      clearTimeout(watching);
      connect(undefined);
    },
  };
}
