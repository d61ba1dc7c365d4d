// The provider's own configuration: `hosting:<key>` in stack config, or the inputs of an
// explicit `new hosting.Provider(...)`. Declared like a resource, checked like one.
import type { FlagsOf } from "./framework/spec";
import { uuid } from "./framework/validators";
import { parseBaseUrl } from "./api/http";

/** Configuration of the hosting provider. */
export interface HostingProviderConfig {
  /** Base URL of the hosting API, such as `https://api.example.com`. It must be `https://` unless the host is loopback (the simulator). */
  baseUrl: string;
  /** Bearer token for the API (the access token from the portal). Secret: never printed, logged or put in an error. */
  token: string;
  /** Default project (UUID) for project-scoped resources that set no `projectId`. */
  projectId?: string;
  /**
   * Seconds before a single API request times out.
   * @TJS-type integer
   */
  requestTimeoutSeconds?: number;
  /**
   * How many times a failed request is retried where retrying is safe.
   * @TJS-type integer
   */
  maxRetries?: number;
}

export const MISSING_KEY_DESCRIPTIONS: Record<"baseUrl" | "token", string> = {
  baseUrl: "the base URL of the hosting API (or set HOSTING_BASE_URL)",
  token: "the API access token from the portal; set it with --secret (or set HOSTING_TOKEN)",
};

/** The client's own rule for base URLs (https unless loopback), as a Check failure. */
export function baseUrlProblem(value: unknown): string | undefined {
  try {
    parseBaseUrl(String(value));
    return undefined;
  } catch (err) {
    return `${(err as Error).message}; for example "https://api.example.com"`;
  }
}

export const configFlags: FlagsOf<HostingProviderConfig> = {
  baseUrl: { env: ["HOSTING_BASE_URL"], validate: baseUrlProblem },
  token: { env: ["HOSTING_TOKEN"], secret: true },
  projectId: { env: ["HOSTING_PROJECT_ID"], validate: uuid },
  requestTimeoutSeconds: { default: 30, validate: (v) => ((v as number) > 0 ? undefined : "requestTimeoutSeconds must be greater than zero") },
  maxRetries: { default: 5, validate: (v) => ((v as number) >= 0 ? undefined : "maxRetries must be zero or more") },
};
