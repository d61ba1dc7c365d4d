// gRPC errors the engine understands: a partial failure with the resource that exists
// (ErrorResourceInitFailed), missing configuration (ConfigureErrorMissingKeys), and the status
// code of every other failure. A failure is put into words for the engine once, on its way out
// (`grpcStatusOf`): every text in it redacted, then bounded, and only then written into the status and
// its details, which travel in HTTP/2 trailers (a trailer block too large is never sent, and the
// engine would wait for ever).
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
import type { CheckFailure } from "../framework/spec";
import { encode, encodeStruct, type StructObject } from "./codec";
import { ConfigureErrorMissingKeys, ErrorResourceInitFailed, Status } from "./messages";
import { MESSAGE_LIMIT_BYTES } from "../redact";
import { withHint } from "./hints";

/** What a text becomes before the engine sees it: redacted, then bounded (redact.ts `Secrets`). */
export interface Speaker {
  say(text: string): string;
}

/** A status detail, built when the failure is said, from its texts as said: its bytes and its message's name. */
type Detail = (say: (text: string) => string) => { detail: Uint8Array; typeName: string };

/** A failure as the provider states it; `grpcStatusOf` turns it into the status grpc-js sends. */
export class GrpcError {
  constructor(
    readonly code: grpc.status,
    readonly message: string,
    readonly detail?: Detail,
  ) {}
}

/** The status grpc-js sends for a failure (a GrpcError, or anything a handler threw), every text in it said. */
export function grpcStatusOf(err: unknown, speaker: Speaker): Partial<grpc.StatusObject> & { message: string } {
  const failure = err instanceof GrpcError ? err : new GrpcError(statusOf(err), withHint(err));
  const say = (text: string) => speaker.say(text);
  const message = say(failure.message);
  const metadata = new grpc.Metadata();
  if (failure.detail) {
    const { detail, typeName } = failure.detail(say);
    const status = encode(Status, {
      code: failure.code,
      message,
      details: [{ typeUrl: `type.googleapis.com/${typeName}`, value: detail }],
    });
    // grpc-js has no API for rich status details; this trailer is where gRPC carries them.
    metadata.add("grpc-status-details-bin", status);
  }
  return { code: failure.code, details: message, message, metadata };
}

/**
 * An answer with Check failures (Check, CheckConfig, Invoke), their texts redacted and bounded: a validator quotes
 * the value it refuses, which may be a secret sent elsewhere, or 100 KB long.
 */
export function withRedactedFailures<T>(answer: T, speaker: Speaker): T {
  const failures = (answer as { failures?: CheckFailure[] } | null)?.failures;
  if (!Array.isArray(failures) || failures.length === 0) return answer;
  return {
    ...answer,
    failures: failures.map((f) => ({ ...f, property: speaker.say(f.property), reason: speaker.say(f.reason) })),
  };
}

/**
 * The most the status details of a partial failure may take: its trailer field carries the status
 * (with its message), the reason (the message again) and the state. grpc-js never sends a trailer
 * field of about 64 KiB or more (the engine would wait for ever), and a binary field travels in
 * base64 (4 bytes for 3): 40 KiB of details are about 54 KiB on the wire.
 */
export const STATUS_DETAILS_LIMIT_BYTES = 40 * 1024;
/** What a status, its detail's envelope, its id and the note of what was left out take besides the two messages. */
const DETAILS_OVERHEAD_BYTES = 1024;

/**
 * The state that travels with a partial failure: all of it when it fits, else without its largest
 * properties (an app's `env` of 200 KiB) until it fits. What is left out the engine reads back
 * before the next update, as the failure asks it to refresh the resource first.
 */
export function fittedState(
  properties: StructObject,
  inputs: StructObject,
  limit: number,
): { properties: StructObject; inputs: StructObject; leftOut: string[] } {
  const sizes = new Map<string, number>();
  for (const state of [properties, inputs])
    for (const [key, value] of Object.entries(state))
      sizes.set(key, (sizes.get(key) ?? 0) + encodeStruct({ [key]: value }).length);
  let total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const leftOut: string[] = [];
  for (const [key, size] of [...sizes].sort(([, a], [, b]) => b - a)) {
    if (total <= limit) break;
    leftOut.push(key);
    total -= size;
  }
  const without = (state: StructObject) =>
    Object.fromEntries(Object.entries(state).filter(([key]) => !leftOut.includes(key)));
  return { properties: without(properties), inputs: without(inputs), leftOut };
}

/**
 * A partial failure: the resource exists as `properties` say, with `inputs` (a Read's: the engine
 * reads them from no other partial failure, provider_plugin.go `parseError`); `refreshBeforeUpdate`
 * asks the engine to read it again before its next update (the engine keeps the mark until an
 * answer clears it). A state too large to travel beside the message is recorded without its
 * largest properties, and the resource is then always refreshed first, so that nothing is lost:
 * the id is what matters.
 */
export function resourceInitFailed(
  message: string,
  id: string,
  properties: StructObject,
  inputs: StructObject | undefined,
  refreshBeforeUpdate: boolean,
): GrpcError {
  // The message as said is at most MESSAGE_LIMIT_BYTES, and travels twice (the status, the reason).
  const said = Math.min(Buffer.byteLength(message), MESSAGE_LIMIT_BYTES);
  const fitted = fittedState(properties, inputs ?? {}, STATUS_DETAILS_LIMIT_BYTES - DETAILS_OVERHEAD_BYTES - 2 * said);
  const note =
    fitted.leftOut.length > 0
      ? ` (state records it without ${fitted.leftOut.join(", ")}, too large to travel with this error; the next preview or update reads ${fitted.leftOut.length === 1 ? "it" : "them"} from the platform first)`
      : "";
  return new GrpcError(grpc.status.UNKNOWN, `${message}${note}`, (say) => ({
    detail: encode(ErrorResourceInitFailed, {
      id,
      properties: fitted.properties,
      inputs: inputs && fitted.inputs,
      reasons: [say(`${message}${note}`)],
      refreshBeforeUpdate: refreshBeforeUpdate || fitted.leftOut.length > 0,
    }),
    typeName: "pulumirpc.ErrorResourceInitFailed",
  }));
}

export function missingConfigKeys(missing: Array<{ name: string; description: string }>): GrpcError {
  return new GrpcError(grpc.status.INVALID_ARGUMENT, "required configuration keys were missing", (say) => ({
    detail: encode(ConfigureErrorMissingKeys, {
      missingKeys: missing.map(({ name, description }) => ({ name: say(name), description: say(description) })),
    }),
    typeName: "pulumirpc.ConfigureErrorMissingKeys",
  }));
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
