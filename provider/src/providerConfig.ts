// The provider's own configuration: `hosting:<key>` in stack config, the inputs of an explicit
// `new hosting.Provider(...)`, or the environment. Declared like a resource, checked like one.
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "./api/client";
import { parseBaseUrl } from "./api/http";
import type { Checked, FlagsOf, Validator } from "./framework/spec";
import { between, matches, uuid } from "./framework/validators";

/** Configuration of the hosting provider. */
export interface HostingProviderConfig {
  /**
   * Base URL of the hosting API, such as `https://api.example.com`. It must be `https://` unless the host is loopback
   * (the simulator).
   */
  baseUrl: string;
  /** Bearer token for the API (the access token from the portal). Never printed, logged or put in an error. */
  token: string;
  /** Default project (UUID) for project-scoped resources that set no `projectId`. */
  projectId?: string;
  /**
   * Seconds before a single API request times out.
   * @TJS-type integer
   */
  requestTimeoutSeconds?: number;
  /**
   * How many times a request that failed with a 5xx or no answer is retried where retrying is safe.
   * A 429 is not counted: it is retried, paced, for as long as the operation has time (customTimeouts).
   * @TJS-type integer
   */
  maxRetries?: number;
  /**
   * The largest answer the provider reads from the API, in megabytes; a larger one fails the call, naming the endpoint.
   * @TJS-type integer
   */
  maxResponseMegabytes?: number;
  /**
   * How a refresh's Reads are answered. `fresh` (the default): each from a request that began after
   * the Read did, so nothing older than the Read is ever reported (at the engine's parallelism, a
   * refresh of N apps reads the project's list about N / P times). `snapshot`: from one list of each
   * project's apps (volumes, links) taken once per run and taken again after any change the provider
   * makes: one list per kind, but what changes outside Pulumi during the run may be missed.
   */
  readConsistency?: string;
  /**
   * Ask the engine to refresh every resource before its next update, so that a preview (a pull
   * request's) always diffs against the live platform without `--refresh`. Resources left unfinished
   * (a failed rollout, a database or volume not yet running) ask for it whatever this says.
   */
  refreshBeforeUpdate?: boolean;
}

/** The client's own rule for base URLs (https unless loopback); its messages name `baseUrl` already. */
const httpsUnlessLoopback = (): Validator => (value) => {
  try {
    parseBaseUrl(String(value));
    return undefined;
  } catch (err) {
    return `${(err as Error).message}; for example "https://api.example.com"`;
  }
};

export const configFlags = {
  baseUrl: { env: ["HOSTING_BASE_URL"], validate: httpsUnlessLoopback() },
  token: { env: ["HOSTING_TOKEN"], secret: true },
  projectId: { env: ["HOSTING_PROJECT_ID"], validate: uuid() },
  requestTimeoutSeconds: {
    default: DEFAULT_REQUEST_TIMEOUT_MS / 1000,
    validate: between(1, 3600, "seconds; a request that takes an hour has failed"),
  },
  maxRetries: { default: DEFAULT_MAX_RETRIES, validate: between(0, 100, "retries back off up to 10 s each") },
  refreshBeforeUpdate: { env: ["HOSTING_REFRESH_BEFORE_UPDATE"], default: false },
  readConsistency: { default: "fresh", validate: matches(/^(fresh|snapshot)$/, '"fresh" or "snapshot"') },
  maxResponseMegabytes: {
    default: DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024,
    validate: between(1, 1024, "a project's list of 10,000 apps is about 6 MB"),
  },
} satisfies FlagsOf<HostingProviderConfig>;

/** The provider's settings as Configure resolves them: checked, every default filled in. */
export type ProviderSettings = Checked<HostingProviderConfig, typeof configFlags>;

export const providerConfig = { typeName: "HostingProviderConfig", flags: configFlags };
