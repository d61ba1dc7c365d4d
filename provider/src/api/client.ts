// HostingClient: the typed client of the Container Hosting Service API (docs/CONTRACTS.md).
//
// Every method takes an optional last argument `{ signal?, timeoutMs? }` and speaks camelCase
// (wire.ts maps to and from the API's snake_case). Behaviour every caller gets without asking:
//   - one process-wide keep-alive connection pool (http.ts);
//   - retries where safe, client-wide rate control after a 429 (transport.ts);
//   - a write in flight is never aborted, and a create is never sent twice blindly (transport.ts,
//     and `create` below, the one helper every create uses);
//   - list reads that wait at the same time share one GET, which starts after every one of them
//     began (loader.ts): no read is ever answered with older data.
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { version as packageVersion } from "../../../package.json";
import { ClientConfigError, parseBaseUrl } from "./http";
import { FreshLists, byId } from "./loader";
import type { Admission, RateControlOptions } from "./rateControl";
import { DEFAULT_RETRY_AFTER_CAP_MS } from "./retry";
import { AbortedError } from "./errors";
import { Transport, raceSignal, type CallOptions } from "./transport";
import {
  DATABASE_KINDS,
  DatabaseCreatedSchema,
  RegistryRecordListSchema,
  RegistryRecordSchema,
  LinkRecordListSchema,
  LinkRecordSchema,
  ServiceRecordListSchema,
  ServiceRecordSchema,
  AttachmentRecordSchema,
  VolumeRecordListSchema,
  VolumeRecordSchema,
  toWire,
  type ContainerCreate,
  type ContainerSettings,
  type DatabaseCreate,
  type DatabaseCreated,
  type DatabaseKind,
  type RegistryRecord,
  type RegistryBody,
  type ServiceRecord,
  type LinkRecord,
  type ServiceLinkCreate,
  type VolumeRecord,
  type VolumeAttach,
  type AttachmentRecord,
  type VolumeCreate,
  type VolumeListRecord,
} from "./wire";

export type { CallOptions } from "./transport";

/** The client's defaults; the provider's configuration declares these same values as its own. */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_USER_AGENT = `pulumi-hosting/${packageVersion}`;

export interface HostingClientOptions {
  /** `https://…`, or `http://` to a loopback host (localhost, 127.0.0.0/8, ::1). May carry a path prefix. */
  baseUrl: string;
  /** Bearer token. Never logged nor put into an error. */
  token: string;
  /** Per-request (per-attempt) timeout. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 5. */
  maxRetries?: number;
  /** Longest wait taken from a Retry-After header. Default 30 s. */
  retryAfterCapMs?: number;
  /** Backoff base: the first retry waits up to this (full jitter). Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Backoff ceiling. Default 10 s. */
  retryMaxDelayMs?: number;
  /** Default `pulumi-hosting/<version>`. */
  userAgent?: string;
  /** Debug line per attempt: method, path, status, duration, attempt, request id. No headers. */
  logger?: (line: string) => void;
  /** Tuning of the client-wide adaptive rate control. */
  rateControl?: RateControlOptions;
  /** Another client-wide admission control in place of the adaptive one (benchmarks, tests). */
  rateController?: Admission;
  /** Use another undici dispatcher than the shared process-wide pool (tests). */
  dispatcher?: Dispatcher;
}

const seg = (s: string) => {
  if (typeof s !== "string" || s === "") throw new TypeError(`path parameter must be a non-empty string (got ${JSON.stringify(s)})`);
  return encodeURIComponent(s);
};
const projectPath = (projectId: string) => `/v1/projects/${seg(projectId)}`;

/**
 * The single helper every create goes through: POST `body` to `path`; on an unknown outcome,
 * `lookup` finds what an earlier attempt may have created before anything is sent again.
 */
function create<T>(
  t: Transport,
  path: string,
  body: object,
  schema: z.ZodType<T>,
  opts: CallOptions,
  lookup: (opts: CallOptions) => Promise<T | undefined>,
): Promise<T> {
  return t.request<T>({
    ...opts,
    method: "POST",
    path,
    body,
    response: { kind: "json", schema },
    recover: async (o) => {
      const found = await lookup(o);
      return found === undefined ? undefined : { value: found };
    },
  });
}

/**
 * An API group with a list endpoint in every project (`/v1/projects/{id}/<suffix>`), read fresh
 * and shared (loader.ts).
 */
abstract class ListedPerProject<T> {
  private readonly lists: FreshLists<T[]>;

  protected constructor(protected readonly t: Transport, private readonly suffix: string, schema: z.ZodType<T[]>) {
    this.lists = new FreshLists((projectId) => t.shared({ path: this.listPath(projectId), response: { kind: "json", schema } }));
  }

  private listPath(projectId: string) {
    return `${projectPath(projectId)}/${this.suffix}`;
  }

  /** Every record of the project. Awaited with the caller's own signal: giving up does not end the shared GET. */
  list(projectId: string, opts: CallOptions = {}): Promise<T[]> {
    const aborted = () => new AbortedError({ method: "GET", path: this.listPath(projectId), mayHaveReachedServer: true });
    return raceSignal(this.lists.read(projectId), opts.signal, aborted);
  }
}

/** Containers; their list holds the managed databases' service records too. */
export class ContainersApi extends ListedPerProject<ServiceRecord> {
  constructor(t: Transport) {
    super(t, "containers", ServiceRecordListSchema);
  }

  /** There is no single GET: read the list and find the id. */
  async get(projectId: string, id: string, opts: CallOptions = {}): Promise<ServiceRecord | undefined> {
    return byId(await this.list(projectId, opts)).get(id);
  }

  async findByName(projectId: string, name: string, opts: CallOptions = {}): Promise<ServiceRecord | undefined> {
    return (await this.list(projectId, opts)).find((s) => s.name === name);
  }

  create(projectId: string, body: ContainerCreate, opts: CallOptions = {}): Promise<ServiceRecord> {
    // Ours if the name and image match what we sent (names are unique in a project).
    return create(this.t, `${projectPath(projectId)}/containers`, toWire(body), ServiceRecordSchema, opts, async (o) => {
      const s = await this.findByName(projectId, body.name, o);
      return s && (s.image === undefined || s.image === body.image) ? s : undefined;
    });
  }

  update(projectId: string, id: string, settings: ContainerSettings, opts: CallOptions = {}): Promise<ServiceRecord> {
    return this.t.request({
      ...opts,
      method: "PATCH",
      path: `${projectPath(projectId)}/containers/${seg(id)}`,
      body: toWire(settings),
      response: { kind: "json", schema: ServiceRecordSchema },
    });
  }

  /** Also deletes a managed database (DESIGN.md section 3). */
  delete(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({
      ...opts,
      method: "DELETE",
      path: `${projectPath(projectId)}/containers/${seg(id)}`,
      response: { kind: "empty" },
    });
  }

  /** Log text (text/plain). */
  logs(projectId: string, id: string, opts: CallOptions = {}): Promise<string> {
    return this.t.request({
      ...opts,
      method: "GET",
      path: `${projectPath(projectId)}/containers/${seg(id)}/logs`,
      response: { kind: "text" },
    });
  }

  restart(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.action(projectId, id, "restart", opts);
  }

  stop(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.action(projectId, id, "stop", opts);
  }

  start(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.action(projectId, id, "start", opts);
  }

  private action(projectId: string, id: string, verb: "restart" | "stop" | "start", opts: CallOptions): Promise<void> {
    return this.t.request({
      ...opts,
      method: "POST",
      path: `${projectPath(projectId)}/containers/${seg(id)}/${verb}`,
      response: { kind: "empty" },
    });
  }
}

export class DatabasesApi {
  constructor(
    private readonly t: Transport,
    private readonly containers: ContainersApi,
  ) {}

  create(kind: DatabaseKind, projectId: string, body: DatabaseCreate, opts: CallOptions = {}): Promise<DatabaseCreated> {
    if (!DATABASE_KINDS.includes(kind)) throw new TypeError(`unknown database kind ${JSON.stringify(kind)}`);
    const wire = toWire({ name: body.name, resources: body.resources && toWire(body.resources) });
    // Rebuild {service, connection} from the service record's `connection` field.
    return create(this.t, `${projectPath(projectId)}/${kind}`, wire, DatabaseCreatedSchema, opts, async (o) => {
      const s = await this.containers.findByName(projectId, body.name, o);
      return s?.connection ? { service: s, connection: s.connection } : undefined;
    });
  }
}

export class ServiceLinksApi extends ListedPerProject<LinkRecord> {
  constructor(t: Transport) {
    super(t, "service-links", LinkRecordListSchema);
  }

  /** The identical link, if the project has one (a link's identity is consumer, provider and type). */
  async findSame(projectId: string, link: ServiceLinkCreate, opts: CallOptions = {}): Promise<LinkRecord | undefined> {
    return (await this.list(projectId, opts)).find(
      (l) => l.consumerServiceId === link.consumerServiceId && l.providerServiceId === link.providerServiceId && l.linkType === link.linkType,
    );
  }

  create(projectId: string, body: ServiceLinkCreate, opts: CallOptions = {}): Promise<LinkRecord> {
    return create(this.t, `${projectPath(projectId)}/service-links`, toWire(body), LinkRecordSchema, opts, (o) => this.findSame(projectId, body, o));
  }
}

export class RegistriesApi {
  constructor(private readonly t: Transport) {}

  list(opts: CallOptions = {}): Promise<RegistryRecord[]> {
    return this.t.request({ ...opts, method: "GET", path: "/v1/registries", response: { kind: "json", schema: RegistryRecordListSchema } });
  }

  get(id: string, opts: CallOptions = {}): Promise<RegistryRecord> {
    return this.t.request({ ...opts, method: "GET", path: `/v1/registries/${seg(id)}`, response: { kind: "json", schema: RegistryRecordSchema } });
  }

  create(body: RegistryBody, opts: CallOptions = {}): Promise<RegistryRecord> {
    return create(this.t, "/v1/registries", toWire(body), RegistryRecordSchema, opts, async (o) =>
      (await this.list(o)).find((r) => r.name === body.name && r.host === body.host),
    );
  }

  replace(id: string, body: RegistryBody, opts: CallOptions = {}): Promise<RegistryRecord> {
    return this.t.request({
      ...opts,
      method: "PUT",
      path: `/v1/registries/${seg(id)}`,
      body: toWire(body),
      response: { kind: "json", schema: RegistryRecordSchema },
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({ ...opts, method: "DELETE", path: `/v1/registries/${seg(id)}`, response: { kind: "empty" } });
  }
}

/** Volumes; the list's records carry `attached`, a single volume's carries `attachment`. */
export class VolumesApi extends ListedPerProject<VolumeListRecord> {
  constructor(t: Transport) {
    super(t, "volumes", VolumeRecordListSchema);
  }

  /** One volume, with `attachment`. */
  get(projectId: string, id: string, opts: CallOptions = {}): Promise<VolumeRecord> {
    return this.t.request({
      ...opts,
      method: "GET",
      path: `${projectPath(projectId)}/volumes/${seg(id)}`,
      response: { kind: "json", schema: VolumeRecordSchema },
    });
  }

  create(projectId: string, body: VolumeCreate, opts: CallOptions = {}): Promise<VolumeRecord> {
    return create(this.t, `${projectPath(projectId)}/volumes`, toWire(body), VolumeRecordSchema, opts, async (o) => {
      const v = (await this.list(projectId, o)).find((x) => x.name === body.name && x.sizeGb === body.sizeGb);
      return v ? this.get(projectId, v.id, o) : undefined;
    });
  }

  resize(projectId: string, id: string, sizeGb: number, opts: CallOptions = {}): Promise<VolumeRecord> {
    return this.t.request({
      ...opts,
      method: "PATCH",
      path: `${projectPath(projectId)}/volumes/${seg(id)}`,
      body: toWire({ sizeGb }),
      response: { kind: "json", schema: VolumeRecordSchema },
    });
  }

  delete(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({ ...opts, method: "DELETE", path: `${projectPath(projectId)}/volumes/${seg(id)}`, response: { kind: "empty" } });
  }

  /**
   * Attach. Not resent after an unknown outcome: the volume GET shows the attachment but
   * not the attachment record (id, created_at) this must return, so the error surfaces.
   */
  attach(projectId: string, volumeId: string, body: VolumeAttach, opts: CallOptions = {}): Promise<AttachmentRecord> {
    return this.t.request({
      ...opts,
      method: "POST",
      path: `${projectPath(projectId)}/volumes/${seg(volumeId)}/attach`,
      body: toWire(body),
      response: { kind: "json", schema: AttachmentRecordSchema },
    });
  }

  /** Detach. After an unknown outcome, a GET that shows the container detached counts as done. */
  detach(projectId: string, volumeId: string, containerId: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request<void>({
      ...opts,
      method: "POST",
      path: `${projectPath(projectId)}/volumes/${seg(volumeId)}/detach`,
      body: toWire({ containerId }),
      response: { kind: "empty" },
      recover: async (o) => {
        const v = await this.get(projectId, volumeId, o);
        return v.attachment?.containerId === containerId ? undefined : { value: undefined };
      },
    });
  }
}

export class HostingClient {
  readonly containers: ContainersApi;
  readonly databases: DatabasesApi;
  readonly serviceLinks: ServiceLinksApi;
  readonly registries: RegistriesApi;
  readonly volumes: VolumesApi;
  /** The request machinery (rate control state) for diagnostics and tests. */
  readonly transport: Transport;
  readonly baseUrl: string;

  constructor(options: HostingClientOptions) {
    if (!options || typeof options !== "object") throw new ClientConfigError("HostingClient options are required");
    const { origin, prefix } = parseBaseUrl(options.baseUrl);
    if (typeof options.token !== "string" || options.token.trim() === "") {
      throw new ClientConfigError("token is required (provider config `hosting:token` or HOSTING_TOKEN)");
    }
    if (/[\r\n]/.test(options.token)) throw new ClientConfigError("token must not contain line breaks");
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(timeoutMs > 0)) throw new ClientConfigError(`timeoutMs must be positive (got ${timeoutMs})`);
    if (!(maxRetries >= 0) || !Number.isInteger(maxRetries)) {
      throw new ClientConfigError(`maxRetries must be a non-negative integer (got ${maxRetries})`);
    }
    this.baseUrl = origin + prefix;
    this.transport = new Transport({
      origin,
      prefix,
      token: options.token,
      timeoutMs,
      maxRetries,
      retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
      retryBaseDelayMs: options.retryBaseDelayMs,
      retryMaxDelayMs: options.retryMaxDelayMs,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      logger: options.logger,
      rateControl: options.rateControl,
      rateController: options.rateController,
      dispatcher: options.dispatcher,
    });
    this.containers = new ContainersApi(this.transport);
    this.databases = new DatabasesApi(this.transport, this.containers);
    this.serviceLinks = new ServiceLinksApi(this.transport);
    this.registries = new RegistriesApi(this.transport);
    this.volumes = new VolumesApi(this.transport);
  }

  /** Never reveal the token, even through util.inspect / console.log of the client. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `HostingClient { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }
}
