import { STATUS_CODES } from "node:http";
import type { Switches } from "./types";

/** An API error answer. Handlers throw it; the server renders it in the configured shape. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationFailed = (message: string) => new ApiFailure(400, "VALIDATION_FAILED", message);
export const notFound = (what: string) => new ApiFailure(404, "NOT_FOUND", `${what} not found`);
export const conflict = (code: string, message: string) => new ApiFailure(409, code, message);

export function errorBody(
  shape: Switches["errorShape"],
  code: string,
  message: string,
  requestId: string,
): Record<string, string> {
  return shape === "error" ? { error: code, request_id: requestId } : { code, message };
}

/** The code a bare HTTP status is reported with, e.g. 503 -> SERVICE_UNAVAILABLE. */
export function codeForStatus(status: number): string {
  if (status === 500) return "INTERNAL_ERROR";
  if (status === 429) return "RATE_LIMITED";
  const text = STATUS_CODES[status] ?? `HTTP ${status}`;
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}
