// Public types of the simulator (docs/CONTRACTS.md). The records it keeps are declared with their
// rules (rules/*.ts), which add each to SimRecords, and have an entry each in collections.ts; their
// fields use the API's snake_case wire names, the few simulator-only fields marked.

/**
 * The record of each collection of the world, by its name in collections.ts. Empty here: each rules
 * file adds its own beside the record it declares (`declare module "../types" { interface SimRecords
 * { volumes: SimVolume } }`, TypeScript's declaration merging). So the world's type is known below
 * the rules that read it, with no import pointing up, and collections.ts, above them, must have an
 * entry for every name (its table's type says which is missing).
 */
// biome-ignore lint/suspicious/noEmptyInterface: the rules files fill it in (declaration merging)
export interface SimRecords {}

/** The name of a collection, its key in SimState: "services", "volumes", ... */
export type SimKind = keyof SimRecords;

/** The record type of a collection. */
export type RecordOf<K extends SimKind> = SimRecords[K];

export interface SimUser {
  token: string;
  userId: string;
  projects: string[];
  readOnly?: boolean;
}

export interface Switches {
  /** false = production: 403 BLOCK_VOLUME_DISABLED on volume create. */
  volumesEnabled: boolean;
  /** Delay before a new volume reads `running`; negative = never. */
  volumeProvisioningMs: number;
  /** Containers and databases read `provisioning` for this long after create, a rollout, a start or a restart. */
  serviceStartMs: number;
  /** Image tags that fail to start: a start or rollout of such an image ends `failed`, not `running`. */
  crashingImageTags: string[];
  /** A new service link also writes its `injected_env` into the consumer's `env`. */
  linkEnvInConsumer: boolean;
  /**
   * Variables every container app needs to start: a start with one missing from its env and from
   * what its links inject ends `failed`, its log naming the variable (apps that need DATABASE_URL).
   */
  appsRequireEnv: string[];
  /** A new service link restarts its consumer (a container that is not stopped), which picks up the variables. */
  linkRestartsConsumer: boolean;
  /**
   * The API stores a container's env (keys and values) and display_name in Unicode NFC, whatever form it was sent in.
   */
  normalizesUnicode: boolean;
  billing: BillingState;
  /** Total volume GB one user can reserve. */
  capacityGb: number;
  errorShape: "code" | "error";
  /** 0 = unlimited. */
  rateLimitPerSecond: number;
  /** A request whose body is larger is answered 413 PAYLOAD_TOO_LARGE (default 1 MiB). */
  maxRequestBodyBytes: number;
}

export type BillingState = "ok" | "insufficient_balance" | "not_initialized" | "suspended";

export type FaultKind =
  | "status"
  | "rate_limit"
  | "reset_before"
  | "reset_after"
  | "latency"
  | "respond_after"
  | "huge_body"
  | "redirect"
  | "omit_record"
  | "duplicate_record"
  | "ignored"
  | "echo_env";

export interface Fault {
  kind: FaultKind;
  method?: string;
  /** Regex source tested against the URL pathname. */
  path?: string;
  /**
   * "status": the error status (before acting); "respond_after": the status sent after acting (default 200);
   * "redirect": 3xx (default 302); "huge_body": default 200.
   */
  status?: number;
  retryAfter?: string | null;
  latencyMs?: number;
  /** "respond_after": the raw body sent after acting, instead of the real answer (`{not json`, `{}`, an error body). */
  body?: string;
  /** "respond_after": headers sent besides x-request-id and content-type (application/json), which they may replace. */
  headers?: Record<string, string>;
  /** "huge_body": how many bytes are sent: `[` then service records, never closed (never built in memory). */
  bytes?: number;
  /** "huge_body": whether the answer says its Content-Length (default true); without it, it is chunked. */
  withLength?: boolean;
  /** "redirect": where it points (default the same path on https://elsewhere.example.com). */
  location?: string;
  /**
   * "omit_record": the id of the record a list answer leaves out (an eventually consistent list); default: its first.
   * "duplicate_record": the id of the record a list answer holds twice; default: its first.
   */
  id?: string;
  /** "duplicate_record": how many copies of the record the answer adds after its records (default 1). */
  copies?: number;
  times?: number;
}

export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  status: number | "reset";
  requestId: string;
  fault?: FaultKind;
  /** The status of the API's own answer, which the fault withheld (respond_after, reset_after). */
  withheldStatus?: number;
}

export interface SimulatorOptions extends Partial<Switches> {
  host?: string;
  port?: number;
  /** Requests whose headers are larger are answered 431 (Node's maxHeaderSize; default 16 KiB). */
  maxHeaderBytes?: number;
  users?: SimUser[];
  stateFile?: string;
  log?: (line: string) => void;
}

export interface SimulatorControl {
  switches(): Switches;
  setSwitches(patch: Partial<Switches>): void;
  setProjectSuspended(projectId: string, suspended: boolean): void;
  setAutoscaling(containerId: string, enabled: boolean): void;
  injectFault(fault: Fault): void;
  /** Addition to CONTRACTS.md: a fault for any request no armed fault matches (chaos.ts), or none. */
  setFaultSource(source: ((method: string, path: string) => Fault | undefined) | undefined): void;
  /** Addition to CONTRACTS.md: the faults still armed, `times` = the uses left. */
  faults(): Fault[];
  clearFaults(): void;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  snapshot(): SimState;
  mutate(kind: SimKind, id: string, patch: Record<string, unknown>): void;
  remove(kind: SimKind, id: string): void;
  setVolumeReady(id: string): void;
  reset(): void;
}

export interface Simulator {
  url: string;
  control: SimulatorControl;
  close(): Promise<void>;
}

export type DatabaseKind = "postgres" | "mysql" | "redis";
export type ServiceType = "container" | DatabaseKind;

export interface WireConnection {
  host: string;
  port: string;
  env_var: string;
  instructions: string;
  requires_auth: string;
}

/** How a start of a service ends: running, failed (a crashing image), or failed for want of these variables. */
export type StartOutcome = "running" | "failed" | { missingEnv: string[] };

/** Everything the simulator knows about the world, one list per collection (collections.ts); what `stateFile` holds. */
export type SimState = { [K in SimKind]: Array<RecordOf<K>> } & {
  /** Log lines per service id, oldest first. */
  logs: Record<string, string[]>;
  suspended_projects: string[];
};
