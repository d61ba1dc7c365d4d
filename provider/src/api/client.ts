// HostingClient: the typed client of the Container Hosting Service API (docs/CONTRACTS.md).
//
// Every method takes an optional last argument `{ signal?, timeoutMs? }` and returns wire
// types parsed by zod. Behaviour every resource gets without knowing:
//   - one process-wide keep-alive connection pool (http.ts);
//   - retries where safe, client-wide rate control after a 429 (transport.ts);
//   - creates never sent twice blindly (`create` below, the one helper every create uses);
//   - coalesced, briefly cached list reads that never show data older than a completed
//     write of the same project (coalesce.ts).

import type { Dispatcher } from "undici";
import { version as packageVersion } from "../../../package.json";
import { ClientConfigError, parseBaseUrl } from "./http";
import type { RateControlOptions } from "./rateControl";
import { DEFAULT_RETRY_AFTER_CAP_MS } from "./retry";
import { Transport, type CallOptions, type RequestSpec } from "./transport";
import {
  DATABASE_KINDS,
  WireDatabaseCreateResponseSchema,
  WireRegistryListSchema,
  WireRegistrySchema,
  WireServiceLinkListSchema,
  WireServiceLinkSchema,
  WireServiceListSchema,
  WireServiceSchema,
  WireVolumeAttachmentSchema,
  WireVolumeListSchema,
  WireVolumeSchema,
  type ContainerCreate,
  type ContainerPatch,
  type DatabaseCreate,
  type DatabaseKind,
  type RegistryBody,
  type ServiceLinkCreate,
  type VolumeAttach,
  type VolumeCreate,
  type VolumeDetach,
  type VolumeUpdate,
  type WireDatabaseCreateResponse,
  type WireRegistry,
  type WireService,
  type WireServiceLink,
  type WireVolume,
  type WireVolumeAttachment,
  type WireVolumeListItem,
} from "./wire";

export type { CallOptions } from "./transport";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_CACHE_TTL_MS = 2_000;
export const CLIENT_VERSION: string = packageVersion;
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
  /** TTL of cached list reads. Default 2 s; 0 shares in-flight reads only. */
  cacheTtlMs?: number;
  /** Use another undici dispatcher than the shared process-wide pool (tests). */
  dispatcher?: Dispatcher;
}

const seg = (s: string) => {
  if (typeof s !== "string" || s === "") throw new TypeError(`path parameter must be a non-empty string (got ${JSON.stringify(s)})`);
  return encodeURIComponent(s);
};
const projectPath = (projectId: string) => `/v1/projects/${seg(projectId)}`;

/** The single helper every create goes through: POST, and on an unknown outcome, look up first. */
function create<T>(
  t: Transport,
  spec: Omit<RequestSpec<T>, "method" | "recover"> & { lookup: (opts: CallOptions) => Promise<T | undefined> },
): Promise<T> {
  const { lookup, ...rest } = spec;
  return t.request<T>({
    ...rest,
    method: "POST",
    recover: async (o) => {
      const found = await lookup(o);
      return found === undefined ? undefined : { value: found };
    },
  });
}

export class ContainersApi {
  constructor(private readonly t: Transport) {}

  /** Every service record of the project (containers and managed databases). Coalesced. */
  list(projectId: string, opts: CallOptions = {}): Promise<WireService[]> {
    return this.read(projectId, opts);
  }

  private read(projectId: string, opts: CallOptions & { fresh?: boolean; item?: string }): Promise<WireService[]> {
    return this.t.read(
      projectId,
      { path: `${projectPath(projectId)}/containers`, response: { kind: "json", schema: WireServiceListSchema } },
      opts,
    );
  }

  /**
   * There is no single GET: read the (coalesced) list and find the id. The list need only
   * be fresh for this container (see coalesce.ts).
   */
  async get(projectId: string, id: string, opts: CallOptions = {}): Promise<WireService | undefined> {
    return (await this.read(projectId, { ...opts, item: id })).find((s) => s.id === id);
  }

  /** Look a service up by name with a fresh read (never the cache). */
  async findByName(projectId: string, name: string, opts: CallOptions = {}): Promise<WireService | undefined> {
    return (await this.read(projectId, { ...opts, fresh: true })).find((s) => s.name === name);
  }

  create(projectId: string, body: ContainerCreate, opts: CallOptions = {}): Promise<WireService> {
    return create(this.t, {
      ...opts,
      path: `${projectPath(projectId)}/containers`,
      body,
      scope: projectId,
      item: (created: WireService) => created.id,
      response: { kind: "json", schema: WireServiceSchema },
      // Ours if the name and image match what we sent (names are unique in a project).
      lookup: async (o) => {
        const s = await this.findByName(projectId, body.name, o);
        return s && (s.image === undefined || s.image === body.image) ? s : undefined;
      },
    });
  }

  update(projectId: string, id: string, patch: ContainerPatch, opts: CallOptions = {}): Promise<WireService> {
    return this.t.request({
      ...opts,
      method: "PATCH",
      path: `${projectPath(projectId)}/containers/${seg(id)}`,
      body: patch,
      scope: projectId,
      item: id,
      response: { kind: "json", schema: WireServiceSchema },
    });
  }

  /** Also deletes a managed database (DESIGN.md section 3). */
  delete(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({
      ...opts,
      method: "DELETE",
      path: `${projectPath(projectId)}/containers/${seg(id)}`,
      scope: projectId,
      item: id,
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
      scope: projectId,
      item: id,
      response: { kind: "empty" },
    });
  }
}

export class DatabasesApi {
  constructor(
    private readonly t: Transport,
    private readonly containers: ContainersApi,
  ) {}

  create(kind: DatabaseKind, projectId: string, body: DatabaseCreate, opts: CallOptions = {}): Promise<WireDatabaseCreateResponse> {
    if (!DATABASE_KINDS.includes(kind)) throw new TypeError(`unknown database kind ${JSON.stringify(kind)}`);
    return create(this.t, {
      ...opts,
      path: `${projectPath(projectId)}/${kind}`,
      body,
      scope: projectId,
      response: { kind: "json", schema: WireDatabaseCreateResponseSchema },
      // Rebuild {service, connection} from the service record's `connection` field.
      lookup: async (o) => {
        const s = await this.containers.findByName(projectId, body.name, o);
        return s?.connection ? { service: s, connection: s.connection } : undefined;
      },
    });
  }
}

export class ServiceLinksApi {
  constructor(private readonly t: Transport) {}

  list(projectId: string, opts: CallOptions & { fresh?: boolean } = {}): Promise<WireServiceLink[]> {
    return this.t
      .read(
        projectId,
        { path: `${projectPath(projectId)}/service-links`, response: { kind: "json", schema: WireServiceLinkListSchema } },
        opts,
      )
      .then((r) => r.links);
  }

  create(projectId: string, body: ServiceLinkCreate, opts: CallOptions = {}): Promise<WireServiceLink> {
    return create(this.t, {
      ...opts,
      path: `${projectPath(projectId)}/service-links`,
      body,
      scope: projectId,
      response: { kind: "json", schema: WireServiceLinkSchema },
      lookup: async (o) =>
        (await this.list(projectId, { ...o, fresh: true })).find(
          (l) =>
            l.consumer_service_id === body.consumer_service_id &&
            l.provider_service_id === body.provider_service_id &&
            l.link_type === body.link_type,
        ),
    });
  }
}

const REGISTRIES_SCOPE = "\u0000registries"; // cannot collide with a project id

export class RegistriesApi {
  constructor(private readonly t: Transport) {}

  list(opts: CallOptions = {}): Promise<WireRegistry[]> {
    return this.t.request({ ...opts, method: "GET", path: "/v1/registries", response: { kind: "json", schema: WireRegistryListSchema } });
  }

  get(id: string, opts: CallOptions = {}): Promise<WireRegistry> {
    return this.t.request({
      ...opts,
      method: "GET",
      path: `/v1/registries/${seg(id)}`,
      response: { kind: "json", schema: WireRegistrySchema },
    });
  }

  create(body: RegistryBody, opts: CallOptions = {}): Promise<WireRegistry> {
    return create(this.t, {
      ...opts,
      path: "/v1/registries",
      body,
      scope: REGISTRIES_SCOPE,
      response: { kind: "json", schema: WireRegistrySchema },
      lookup: async (o) => (await this.list(o)).find((r) => r.name === body.name && r.host === body.host),
    });
  }

  replace(id: string, body: RegistryBody, opts: CallOptions = {}): Promise<WireRegistry> {
    return this.t.request({
      ...opts,
      method: "PUT",
      path: `/v1/registries/${seg(id)}`,
      body,
      scope: REGISTRIES_SCOPE,
      response: { kind: "json", schema: WireRegistrySchema },
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({
      ...opts,
      method: "DELETE",
      path: `/v1/registries/${seg(id)}`,
      scope: REGISTRIES_SCOPE,
      response: { kind: "empty" },
    });
  }
}

export class VolumesApi {
  constructor(private readonly t: Transport) {}

  /** Volumes of the project, each with `attached`. Coalesced. */
  list(projectId: string, opts: CallOptions & { fresh?: boolean } = {}): Promise<WireVolumeListItem[]> {
    return this.t
      .read(
        projectId,
        { path: `${projectPath(projectId)}/volumes`, response: { kind: "json", schema: WireVolumeListSchema } },
        opts,
      )
      .then((r) => r.volumes);
  }

  /** One volume, with `attachment`. Concurrent identical gets share a request; never cached. */
  get(projectId: string, id: string, opts: CallOptions = {}): Promise<WireVolume> {
    return this.t.read(
      projectId,
      { path: `${projectPath(projectId)}/volumes/${seg(id)}`, response: { kind: "json", schema: WireVolumeSchema } },
      { ...opts, ttlMs: 0 },
    );
  }

  create(projectId: string, body: VolumeCreate, opts: CallOptions = {}): Promise<WireVolume> {
    return create(this.t, {
      ...opts,
      path: `${projectPath(projectId)}/volumes`,
      body,
      scope: projectId,
      response: { kind: "json", schema: WireVolumeSchema },
      lookup: async (o) => {
        const v = (await this.list(projectId, { ...o, fresh: true })).find((x) => x.name === body.name && x.size_gb === body.size_gb);
        return v ? this.get(projectId, v.id, o) : undefined;
      },
    });
  }

  update(projectId: string, id: string, body: VolumeUpdate, opts: CallOptions = {}): Promise<WireVolume> {
    return this.t.request({
      ...opts,
      method: "PATCH",
      path: `${projectPath(projectId)}/volumes/${seg(id)}`,
      body,
      scope: projectId,
      response: { kind: "json", schema: WireVolumeSchema },
    });
  }

  delete(projectId: string, id: string, opts: CallOptions = {}): Promise<void> {
    return this.t.request({
      ...opts,
      method: "DELETE",
      path: `${projectPath(projectId)}/volumes/${seg(id)}`,
      scope: projectId,
      response: { kind: "empty" },
    });
  }

  /**
   * Attach. Not resent after an unknown outcome: the volume GET shows the attachment but
   * not the attachment record (id, created_at) this must return, so the error surfaces.
   */
  attach(projectId: string, volumeId: string, body: VolumeAttach, opts: CallOptions = {}): Promise<WireVolumeAttachment> {
    return this.t.request({
      ...opts,
      method: "POST",
      path: `${projectPath(projectId)}/volumes/${seg(volumeId)}/attach`,
      body,
      scope: projectId,
      response: { kind: "json", schema: WireVolumeAttachmentSchema },
    });
  }

  /** Detach. After an unknown outcome, a GET that shows the container detached counts as done. */
  detach(projectId: string, volumeId: string, body: VolumeDetach, opts: CallOptions = {}): Promise<void> {
    return this.t.request<void>({
      ...opts,
      method: "POST",
      path: `${projectPath(projectId)}/volumes/${seg(volumeId)}/detach`,
      body,
      scope: projectId,
      response: { kind: "empty" },
      recover: async (o) => {
        const v = await this.get(projectId, volumeId, o);
        return v.attachment?.container_id === body.container_id ? undefined : { value: undefined };
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
  /** The request machinery (rate control state, cache stats) for diagnostics and tests. */
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
      cacheTtlMs: options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
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
