// gRPC errors the engine understands: a partial failure with the resource that exists
// (ErrorResourceInitFailed) and missing configuration (ConfigureErrorMissingKeys).
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";

export interface GrpcError {
  code: grpc.status;
  details: string;
  message: string;
  metadata: grpc.Metadata;
}

function withDetail(code: grpc.status, message: string, detail: { serializeBinary(): Uint8Array }, typeName: string): GrpcError {
  const status = new statusproto.Status();
  status.setCode(code);
  status.setMessage(message);
  const any = new Any();
  any.pack(detail.serializeBinary(), typeName);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  // grpc-js has no API for rich status details; this trailer is where gRPC carries them.
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code, details: message, message, metadata };
}

export function resourceInitFailed(message: string, id: string, properties: Struct, inputs: Struct): GrpcError {
  const detail = new provproto.ErrorResourceInitFailed();
  detail.setId(id);
  detail.setProperties(properties);
  detail.setInputs(inputs);
  detail.setReasonsList([message]);
  return withDetail(grpc.status.UNKNOWN, message, detail, "pulumirpc.ErrorResourceInitFailed");
}

export function missingConfigKeys(missing: Array<{ name: string; description: string }>): GrpcError {
  const detail = new provproto.ConfigureErrorMissingKeys();
  detail.setMissingkeysList(
    missing.map(({ name, description }) => {
      const key = new provproto.ConfigureErrorMissingKeys.MissingKey();
      key.setName(name);
      key.setDescription(description);
      return key;
    }),
  );
  return withDetail(grpc.status.INVALID_ARGUMENT, "required configuration keys were missing", detail, "pulumirpc.ConfigureErrorMissingKeys");
}

export function plainError(code: grpc.status, message: string): GrpcError {
  return { code, details: message, message, metadata: new grpc.Metadata() };
}
