// Messages to the Pulumi display through the engine's Log service. The engine's address is the
// plugin's last argument, or arrives later through Attach (a plugin started by hand for
// PULUMI_DEBUG_PROVIDERS). Without an engine (tests, a bare start), messages are dropped. Every
// message is bounded (redact.ts `bounded`): an app's log tail or an API's echo can be megabytes.
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { bounded } from "../redact";
import { ENGINE_CLIENT_OPTIONS } from "./grpcOptions";

export type Severity = "debug" | "info" | "warning" | "error";

const SEVERITY: Record<Severity, number> = {
  debug: engineproto.LogSeverity.DEBUG,
  info: engineproto.LogSeverity.INFO,
  warning: engineproto.LogSeverity.WARNING,
  error: engineproto.LogSeverity.ERROR,
};

export interface EngineLog {
  /** Settles once the engine has the message, or could not be reached; it never rejects. */
  log(severity: Severity, message: string, urn?: string, ephemeral?: boolean): Promise<void>;
  /** Log to the engine at `address` from now on. */
  attach(address: string): void;
  close(): void;
}

export function connectEngineLog(address: string | undefined): EngineLog {
  let client: enginerpc.EngineClient | undefined;
  const connect = (to: string | undefined) => {
    client?.close();
    client = to ? new enginerpc.EngineClient(to, grpc.credentials.createInsecure(), ENGINE_CLIENT_OPTIONS) : undefined;
  };
  connect(address);
  return {
    async log(severity, message, urn = "", ephemeral = false) {
      const engine = client;
      if (!engine) return;
      const request = new engineproto.LogRequest();
      request.setSeverity(SEVERITY[severity]);
      request.setMessage(bounded(message));
      request.setUrn(urn);
      request.setEphemeral(ephemeral);
      // Display messages are best effort: a lost one must never fail an operation.
      await new Promise<void>((resolve) => engine.log(request, () => resolve()));
    },
    attach: connect,
    close() {
      connect(undefined);
    },
  };
}
