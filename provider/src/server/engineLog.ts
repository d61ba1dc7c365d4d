// Messages to the Pulumi display through the engine's Log service (the engine address is
// the plugin's last argument). Without an engine (tests, a bare start), messages are dropped.
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";

export type Severity = "debug" | "info" | "warning" | "error";

const SEVERITY: Record<Severity, number> = {
  debug: engineproto.LogSeverity.DEBUG,
  info: engineproto.LogSeverity.INFO,
  warning: engineproto.LogSeverity.WARNING,
  error: engineproto.LogSeverity.ERROR,
};

export interface EngineLog {
  log(severity: Severity, message: string, urn?: string, ephemeral?: boolean): void;
  close(): void;
}

export function connectEngineLog(address: string | undefined): EngineLog {
  if (!address) return { log() {}, close() {} };
  const client = new enginerpc.EngineClient(address, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });
  return {
    log(severity, message, urn = "", ephemeral = false) {
      const request = new engineproto.LogRequest();
      request.setSeverity(SEVERITY[severity]);
      request.setMessage(message);
      request.setUrn(urn);
      request.setEphemeral(ephemeral);
      // Display messages are best effort: a lost one must never fail an operation.
      client.log(request, () => undefined);
    },
    close() {
      client.close();
    },
  };
}
