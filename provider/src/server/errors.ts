// gRPC errors the engine understands: a partial failure with the resource that exists
// (ErrorResourceInitFailed), missing configuration (ConfigureErrorMissingKeys), and the status
// code of every other failure. A failure is put into words for the engine once, on its way out
// (`said`): every text in it redacted, then bounded, and only then written into the status and
// its details, which travel in HTTP/2 trailers (a trailer block too large is never sent, and the
// engine would wait for ever).
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
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
import type { CheckFailure } from "../framework/spec";
import type { WireObject } from "./codec";
import { withHint } from "./hints";

/** What a text becomes before the engine sees it: redacted, then bounded (redact.ts `Secrets`). */
export interface Speaker {
  say(text: string): string;
}

/** A status detail, built when the failure is said, from its texts as said. */
type Detail = (say: (text: string) => string) => { detail: { serializeBinary(): Uint8Array }; typeName: string };

/** A failure as the provider states it; `said` turns it into the status grpc-js sends. */
export class GrpcError {
  constructor(
    readonly code: grpc.status,
    readonly message: string,
    readonly detail?: Detail,
  ) {}
}

/** The status grpc-js sends for a failure (a GrpcError, or anything a handler threw), every text in it said. */
export function said(err: unknown, speaker: Speaker): Partial<grpc.StatusObject> & { message: string } {
  const failure = err instanceof GrpcError ? err : new GrpcError(statusOf(err), withHint(err));
  const say = (text: string) => speaker.say(text);
  const message = say(failure.message);
  const metadata = new grpc.Metadata();
  if (failure.detail) {
    const { detail, typeName } = failure.detail(say);
    const status = new statusproto.Status();
    status.setCode(failure.code);
    status.setMessage(message);
    const any = new Any();
    any.pack(detail.serializeBinary(), typeName);
    status.addDetails(any);
    // grpc-js has no API for rich status details; this trailer is where gRPC carries them.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: failure.code, details: message, message, metadata };
}

/**
 * An answer with Check failures (Check, CheckConfig, Invoke), their texts said: a validator quotes
 * the value it refuses, which may be a secret sent elsewhere, or 100 KB long.
 */
export function withSaidFailures<T>(answer: T, speaker: Speaker): T {
  const failures = (answer as { failures?: CheckFailure[] } | null)?.failures;
  if (!Array.isArray(failures) || failures.length === 0) return answer;
  return {
    ...answer,
    failures: failures.map((f) => ({ ...f, property: speaker.say(f.property), reason: speaker.say(f.reason) })),
  };
}

export function resourceInitFailed(message: string, id: string, properties: WireObject, inputs: WireObject): GrpcError {
  return new GrpcError(grpc.status.UNKNOWN, message, (say) => {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(id);
    detail.setProperties(Struct.fromJavaScript(properties as Parameters<typeof Struct.fromJavaScript>[0]));
    detail.setInputs(Struct.fromJavaScript(inputs as Parameters<typeof Struct.fromJavaScript>[0]));
    detail.setReasonsList([say(message)]);
    return { detail, typeName: "pulumirpc.ErrorResourceInitFailed" };
  });
}

export function missingConfigKeys(missing: Array<{ name: string; description: string }>): GrpcError {
  return new GrpcError(grpc.status.INVALID_ARGUMENT, "required configuration keys were missing", (say) => {
    const detail = new provproto.ConfigureErrorMissingKeys();
    detail.setMissingkeysList(
      missing.map(({ name, description }) => {
        const key = new provproto.ConfigureErrorMissingKeys.MissingKey();
        key.setName(say(name));
        key.setDescription(say(description));
        return key;
      }),
    );
    return { detail, typeName: "pulumirpc.ConfigureErrorMissingKeys" };
  });
}

export function plainError(code: grpc.status, message: string): GrpcError {
  return new GrpcError(code, message);
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
