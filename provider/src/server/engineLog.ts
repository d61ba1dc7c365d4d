// Messages to the Pulumi display through the engine's Log service. The engine's address is the
// plugin's last argument, or arrives in Handshake (an engine that shakes hands need not pass it)
// or later through Attach (a plugin started by hand for PULUMI_DEBUG_PROVIDERS). Without an
// engine (tests, a bare start), messages are dropped. Every message is bounded (redact.ts
// `bounded`): an app's log tail or an API's echo can be megabytes.
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

export interface EngineLog {
  /** Settles once the engine has the message, or could not be reached; it never rejects. */
  log(severity: Severity, message: string, urn?: string, ephemeral?: boolean): Promise<void>;
  /** Log to the engine at `address` from now on (the connection already open stays, if it is to the same address). */
  attach(address: string): void;
  close(): void;
}

export function connectEngineLog(address: string | undefined): EngineLog {
  let client: grpc.Client | undefined;
  let connectedTo: string | undefined;
  const connect = (to: string | undefined) => {
    if (to === connectedTo) return;
    client?.close();
    connectedTo = to;
    client = to ? new grpc.Client(to, grpc.credentials.createInsecure(), ENGINE_CLIENT_OPTIONS) : undefined;
  };
  connect(address);
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
    close() {
      connect(undefined);
    },
  };
}
