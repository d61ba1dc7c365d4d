// Account-level gates shared by several operations.
import { ApiFailure, conflict } from "../errors";
import type { Store } from "../state";
import type { BillingState } from "../types";

export function billingGate(billing: BillingState): void {
  switch (billing) {
    case "ok":
      return;
    case "insufficient_balance":
      throw new ApiFailure(402, "INSUFFICIENT_BALANCE", "the billing account has no balance");
    case "not_initialized":
      throw new ApiFailure(402, "ACCOUNT_NOT_INITIALIZED", "the billing account is not initialized");
    case "suspended":
      throw new ApiFailure(403, "ACCOUNT_SUSPENDED", "the billing account is suspended");
  }
}

export function projectNotSuspended(store: Store, projectId: string): void {
  if (store.isSuspended(projectId)) throw conflict("PROJECT_SUSPENDED", `project ${projectId} is suspended`);
}
