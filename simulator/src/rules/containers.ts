// Container apps: create, update, delete, logs, and the restart/stop/start lifecycle (document 4.1).
import { randomUUID } from "node:crypto";
import { type Ctx, type Reply, type Route, PROJECT_PATH, created, noContent, ok } from "../context";
import { ApiFailure, conflict, validationFailed } from "../errors";
import { imageProblem } from "../images";
import {
  type Fields,
  has,
  optionalBool,
  optionalInt,
  optionalStringMap,
  requiredInt,
  requiredName,
  requiredString,
} from "../validate";
import { billingGate } from "./gates";
import {
  type SimService,
  addService,
  appendLog,
  assertNameFree,
  hasAttachment,
  internalHost,
  publicUrl,
  requireService,
  envLine,
  servicesIn,
  startService,
  stopService,
  toWireService,
  touch,
} from "./services";

/** The fields a PATCH may carry (DESIGN section 3); a create may carry them too. */
const SETTING_FIELDS = [
  "image",
  "env",
  "replicas",
  "cpu_milli",
  "memory_mb",
  "storage_gb",
  "public",
  "display_name",
  "http_port",
] as const;

type Settings = Partial<{
  image: string;
  env: Record<string, string>;
  replicas: number;
  cpu_milli: number;
  memory_mb: number;
  storage_gb: number;
  public: boolean;
  display_name: string;
  http_port: number;
}>;

/** The settings as an API that stores Unicode in NFC keeps them (the normalizesUnicode switch). */
function normalized(settings: Settings): Settings {
  const nfc = (text: string) => text.normalize("NFC");
  return {
    ...settings,
    env: settings.env && Object.fromEntries(Object.entries(settings.env).map(([key, value]) => [nfc(key), nfc(value)])),
    display_name: settings.display_name === undefined ? undefined : nfc(settings.display_name),
  };
}

function readSettings(fields: Fields, normalizesUnicode = false): Settings {
  const settings = readSettingsAsSent(fields);
  return normalizesUnicode ? normalized(settings) : settings;
}

/**
 * The longest variable name, in bytes: the limit of a Kubernetes ConfigMap or Secret key (253), where a platform of
 * apps on Kubernetes keeps their variables.
 */
export const MAX_VARIABLE_NAME_BYTES = 253;

function envOf(fields: Fields): Record<string, string> | undefined {
  const env = optionalStringMap(fields, "env");
  const tooLong = Object.keys(env ?? {}).find((name) => Buffer.byteLength(name) > MAX_VARIABLE_NAME_BYTES);
  if (tooLong !== undefined)
    throw validationFailed(
      `env: the variable name "${tooLong.slice(0, 40)}…" is ${Buffer.byteLength(tooLong)} bytes; a name may be at most ${MAX_VARIABLE_NAME_BYTES}`,
    );
  return env;
}

function readSettingsAsSent(fields: Fields): Settings {
  return {
    image: has(fields, "image") ? requiredString(fields, "image") : undefined,
    env: envOf(fields),
    replicas: optionalInt(fields, "replicas", 1),
    cpu_milli: optionalInt(fields, "cpu_milli", 1),
    memory_mb: optionalInt(fields, "memory_mb", 1),
    storage_gb: optionalInt(fields, "storage_gb", 1),
    public: optionalBool(fields, "public"),
    display_name: has(fields, "display_name") ? requiredString(fields, "display_name") : undefined,
    http_port: optionalInt(fields, "http_port", 1, 65535),
  };
}

function imageGate(image: string): void {
  const problem = imageProblem(image);
  if (problem) throw new ApiFailure(400, "BAD_IMAGE", problem);
}

export function listServices(ctx: Ctx): Reply {
  return ok(servicesIn(ctx.store, ctx.params.projectId).map(toWireService));
}

export function createContainer(ctx: Ctx): Reply {
  const fields = ctx.body();
  const name = requiredName(fields);
  const image = requiredString(fields, "image");
  const port = requiredInt(fields, "http_port", 1, 65535);
  const settings = readSettings(fields, ctx.switches.normalizesUnicode);
  billingGate(ctx.switches.billing);
  const projectId = ctx.params.projectId;
  assertNameFree(ctx.store, projectId, name);
  imageGate(image);

  const id = randomUUID();
  const service = addService(
    ctx,
    {
      project_id: projectId,
      name,
      display_name: settings.display_name ?? name,
      type: "container",
      runtime: "docker",
      image,
      port,
      replicas: settings.replicas ?? 1,
      internal_host: internalHost(name, projectId, port),
      public_url: publicUrl(name, id),
      public: settings.public ?? true,
      cpu_milli: settings.cpu_milli ?? 250,
      memory_mb: settings.memory_mb ?? 256,
      storage_gb: settings.storage_gb ?? 1,
      env: settings.env ?? {},
      connection: null,
    },
    ["created", `image set to ${image}`],
    id,
  );
  return created(toWireService(service));
}

export function updateContainer(ctx: Ctx): Reply {
  const service = requireService(ctx.store, ctx.params.projectId, ctx.params.containerId, "container");
  lifecycleGate(service, "update");
  const settings = readSettings(ctx.body(), ctx.switches.normalizesUnicode);
  if (settings.replicas !== undefined) {
    if (service.autoscaling) {
      throw conflict("AUTOSCALING_OWNS_REPLICAS", "autoscaling controls the instance count of this container");
    }
    if (settings.replicas > 1 && hasAttachment(ctx.store, service.id)) {
      throw conflict("RWO_REPLICA_LIMIT", "a container with a ReadWriteOnce volume attached runs at most one replica");
    }
  }
  if (settings.image !== undefined) imageGate(settings.image);

  const changes = applySettings(service, settings);
  if (changes.length > 0) touch(service, ctx.now);
  for (const change of changes) appendLog(ctx.store, service.id, ctx.now, change.log);
  if (changes.some((change) => change.rollout)) rollOut(ctx, service);
  return ok(toWireService(service));
}

/** One changed setting: its log line, and whether it changes what runs (image, env, port), a rollout. */
interface Change {
  log: string;
  rollout: boolean;
}

/** Apply the settings that differ from the record; returns one change per setting. */
function applySettings(service: SimService, settings: Settings): Change[] {
  const changes: Change[] = [];
  if (settings.image !== undefined && settings.image !== service.image) {
    service.image = settings.image;
    changes.push({ log: `image set to ${settings.image}`, rollout: true });
  }
  if (settings.env !== undefined && !sameEnv(settings.env, service.env)) {
    service.env = settings.env;
    changes.push({ log: envLine("env updated", settings.env), rollout: true });
  }
  if (settings.http_port !== undefined && settings.http_port !== service.port) {
    service.port = settings.http_port;
    service.internal_host = internalHost(service.name, service.project_id, service.port);
    changes.push({ log: `http_port set to ${service.port}`, rollout: true });
  }
  for (const field of ["replicas", "cpu_milli", "memory_mb", "storage_gb", "public", "display_name"] as const) {
    const value = settings[field];
    if (value !== undefined && value !== service[field]) {
      (service as unknown as Record<string, unknown>)[field] = value;
      changes.push({ log: `${field} set to ${JSON.stringify(value)}`, rollout: false });
    }
  }
  return changes;
}

/**
 * A new image, env or port replaces the running instances: the app goes through `provisioning`
 * again. A stopped app stays stopped and runs the new settings when it starts.
 */
function rollOut(ctx: Ctx, service: SimService): void {
  if (service.status === "stopped") {
    appendLog(ctx.store, service.id, ctx.now, `stopped: image ${service.image} rolls out on start`);
    return;
  }
  startService(ctx, service, `rolling out image ${service.image}`);
}

function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

/** Managed databases have no update, restart, stop or start. */
function lifecycleGate(service: SimService, action: string): void {
  if (service.type !== "container") {
    throw conflict("LIFECYCLE_UNSUPPORTED", `${action} does not apply to a ${service.type} service`);
  }
}

/** DELETE serves containers and managed databases alike (DESIGN section 3); their attachments and links go too. */
export function deleteService(ctx: Ctx): Reply {
  const service = requireService(ctx.store, ctx.params.projectId, ctx.params.containerId, "container");
  ctx.store.remove("services", service.id);
  return noContent();
}

export function serviceLogs(ctx: Ctx): Reply {
  const service = requireService(ctx.store, ctx.params.projectId, ctx.params.containerId, "container");
  const lines = ctx.store.state.logs[service.id] ?? [];
  return {
    status: 200,
    text: lines.map((line) => `${line}\n`).join(""),
    headers: { "content-type": "text/plain; charset=utf-8" },
  };
}

type Lifecycle = "restart" | "stop" | "start";

/** Stop is immediate; start and restart go through `provisioning` like a rollout. */
const LIFECYCLE: Record<Lifecycle, (ctx: Ctx, service: SimService) => void> = {
  restart: (ctx, service) => startService(ctx, service, `restarting ${service.image}`),
  stop: (ctx, service) => {
    stopService(service);
    appendLog(ctx.store, service.id, ctx.now, "stopped");
  },
  start: (ctx, service) => startService(ctx, service, `starting ${service.image}`),
};

export function lifecycle(action: Lifecycle): (ctx: Ctx) => Reply {
  return (ctx) => {
    const service = requireService(ctx.store, ctx.params.projectId, ctx.params.containerId, "container");
    lifecycleGate(service, action);
    touch(service, ctx.now);
    LIFECYCLE[action](ctx, service);
    return noContent();
  };
}

const CONTAINER = `${PROJECT_PATH}/containers/:containerId`;

/** Document 4.1; the list and the DELETE serve managed databases too. */
export const CONTAINER_ROUTES: readonly Route[] = [
  {
    method: "GET",
    pattern: `${PROJECT_PATH}/containers`,
    doc: { answers: "200: a list of service records, apps and managed databases" },
    handler: listServices,
  },
  {
    method: "POST",
    pattern: `${PROJECT_PATH}/containers`,
    body: ["name", ...SETTING_FIELDS],
    doc: {
      body: "`name`, `image`, `http_port` (required), `env`, `replicas`, `cpu_milli`, `memory_mb`, `storage_gb`, `public`, `display_name`",
      answers:
        "201: the service record (`provisioning`); 400 `BAD_IMAGE`, 400 `VALIDATION_FAILED` (an `env` variable name over 253 bytes, the limit of a Kubernetes ConfigMap or Secret key), 402/403 billing, 409 `NAME_TAKEN`",
    },
    handler: createContainer,
  },
  {
    method: "PATCH",
    pattern: CONTAINER,
    body: SETTING_FIELDS,
    doc: {
      body: "any of `image`, `env`, `replicas`, `cpu_milli`, `memory_mb`, `storage_gb`, `public`, `display_name`, `http_port`",
      answers:
        "200: the record after the change (a new `image`, `env` or `http_port` rolls out: `provisioning`); 400 `BAD_IMAGE`, 400 `VALIDATION_FAILED` (as for a create), 409 `LIFECYCLE_UNSUPPORTED` (a database), `AUTOSCALING_OWNS_REPLICAS`, `RWO_REPLICA_LIMIT`",
    },
    handler: updateContainer,
  },
  {
    method: "DELETE",
    pattern: CONTAINER,
    doc: { answers: "204; an app or a database, with its attachments (the volumes stay), its links and its logs" },
    handler: deleteService,
  },
  {
    method: "GET",
    pattern: `${CONTAINER}/logs`,
    doc: {
      answers: "200 `text/plain`: one line per change and start, and how each start ended (env values never appear)",
    },
    handler: serviceLogs,
  },
  {
    method: "POST",
    pattern: `${CONTAINER}/restart`,
    doc: { answers: "204; the app goes through `provisioning` again; 409 `LIFECYCLE_UNSUPPORTED` (a database)" },
    handler: lifecycle("restart"),
  },
  {
    method: "POST",
    pattern: `${CONTAINER}/stop`,
    doc: { answers: "204; `stopped` at once; 409 `LIFECYCLE_UNSUPPORTED`" },
    handler: lifecycle("stop"),
  },
  {
    method: "POST",
    pattern: `${CONTAINER}/start`,
    doc: { answers: "204; `provisioning`, then `running` or `failed`; 409 `LIFECYCLE_UNSUPPORTED`" },
    handler: lifecycle("start"),
  },
];
