// The API client's public surface (docs/CONTRACTS.md).
export * from "./client";
export * from "./errors";
export * from "./wire";
export { parseRetryAfter, retryDecision, backoffDelay, isRepeatableMethod } from "./retry";
export type { RetryDecision, RetryInput, RetryReason } from "./retry";
export { RateController, RateCore } from "./rateControl";
export type { RateControlOptions, RateSnapshot, Ticket, Outcome, Clock } from "./rateControl";
export { ReadCoalescer } from "./coalesce";
export { ClientConfigError, closeSharedDispatcher, isLoopbackHost, parseBaseUrl, sharedDispatcher } from "./http";
