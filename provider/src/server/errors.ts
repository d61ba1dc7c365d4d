// gRPC errors the engine understands: a partial failure with the resource that exists
// (ErrorResourceInitFailed), missing configuration (ConfigureErrorMissingKeys), and the status
// code of every other failure.
import * as grpc from "@grpc/grpc-js";
import {
  AbortedError,
  ApiError,
  InvalidIdError,
  NetworkError,
  ProjectNotVisibleError,
  ResponseValidationError,
  UnusableIdError,
  outcomeUnknown,
} from "../api/errors";
import { ClientConfigError } from "../api/http";
import { InputError } from "../framework/declare";
import { WaitTimeout } from "../framework/polling";
import { ConfigureErrorMissingKeys, ErrorResourceInitFailed, Status, encode, type StructObject } from "./codec";

export interface GrpcError {
  code: grpc.status;
  details: string;
  message: string;
  metadata: grpc.Metadata;
}

/** A failure whose google.rpc.Status carries `detail`, a message named `typeName`, as the engine reads it. */
function withDetail(code: grpc.status, message: string, detail: Uint8Array, typeName: string): GrpcError {
  const status = encode(Status, {
    code,
    message,
    details: [{ typeUrl: `type.googleapis.com/${typeName}`, value: detail }],
  });
  const metadata = new grpc.Metadata();
  // grpc-js has no API for rich status details; this trailer is where gRPC carries them.
  metadata.add("grpc-status-details-bin", status);
  return { code, details: message, message, metadata };
}

/**
 * A partial failure: the resource exists as `properties` say, with `inputs`; `refreshBeforeUpdate`
 * asks the engine to read it again before its next update (the engine keeps the mark until an answer
 * clears it).
 */
export function resourceInitFailed(
  message: string,
  id: string,
  properties: StructObject,
  inputs: StructObject,
  refreshBeforeUpdate: boolean,
): GrpcError {
  const detail = encode(ErrorResourceInitFailed, { id, properties, inputs, reasons: [message], refreshBeforeUpdate });
  return withDetail(grpc.status.UNKNOWN, message, detail, "pulumirpc.ErrorResourceInitFailed");
}

export function missingConfigKeys(missingKeys: Array<{ name: string; description: string }>): GrpcError {
  const detail = encode(ConfigureErrorMissingKeys, { missingKeys });
  return withDetail(
    grpc.status.INVALID_ARGUMENT,
    "required configuration keys were missing",
    detail,
    "pulumirpc.ConfigureErrorMissingKeys",
  );
}

export function plainError(code: grpc.status, message: string): GrpcError {
  return { code, details: message, message, metadata: new grpc.Metadata() };
}

/**
 * The gRPC status of a failed call. The engine reads UNKNOWN, INTERNAL and DATA_LOSS as "the
 * resource's state may be corrupt" (provider_plugin.go `resourceStateAndError`), so those are
 * kept for what is truly unknown: a write whose outcome no one knows, or a fault of our own.
 * Everything the API or the program said plainly gets a clean code.
 */
export function statusOf(err: unknown): grpc.status {
  if (err instanceof InputError || err instanceof ClientConfigError || err instanceof InvalidIdError)
    return grpc.status.INVALID_ARGUMENT;
  if (err instanceof WaitTimeout) return grpc.status.DEADLINE_EXCEEDED;
  if (outcomeUnknown(err)) return grpc.status.UNKNOWN;
  if (err instanceof AbortedError) return grpc.status.CANCELLED;
  if (err instanceof NetworkError) return grpc.status.UNAVAILABLE;
  if (err instanceof ResponseValidationError || err instanceof ProjectNotVisibleError || err instanceof UnusableIdError)
    return grpc.status.FAILED_PRECONDITION;
  if (err instanceof ApiError)
    return err.status >= 500 ? grpc.status.UNAVAILABLE : (API_STATUS[err.status] ?? grpc.status.FAILED_PRECONDITION);
  return grpc.status.UNKNOWN;
}

const API_STATUS: Record<number, grpc.status> = {
  400: grpc.status.INVALID_ARGUMENT,
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  404: grpc.status.NOT_FOUND,
  429: grpc.status.RESOURCE_EXHAUSTED,
};
