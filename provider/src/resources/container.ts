// hosting:index:Container — an HTTP app running one image in a project.
import { referenceTo } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import {
  all,
  atLeast,
  between,
  boundedMap,
  distinct,
  imageReference,
  items,
  keys,
  matches,
  maxBytes,
  uuid,
  variableName,
} from "../framework/validators";
import type { PropertyMap } from "../framework/values";
import {
  movingOutput,
  projectName,
  orGone,
  output,
  projectId,
  projectOf,
  type Context,
  type Declaration,
} from "./common";
import { linksByConsumer } from "./links";
import { apps, containerFromWire, withLinks } from "./rollout/app";
import { createSteps, updateSteps } from "./rollout/plan";
import { afterCreate, beforeUpdate } from "./rollout/progress";
import { rollOut } from "./rollout/run";
import { deleteService, notServices, serviceNamed, services, unmanagedServices } from "./services";
import { attachmentsIn } from "./volume";

/**
 * A container app: an HTTP service that runs one image in a project, on an automatic
 * subdomain with managed TLS. Every rollout (a create, or an update of the image, `env` or
 * `httpPort`, a start or a restart) is awaited until the app leaves `provisioning`; an app
 * that ends `failed` fails the operation with the last lines of its logs. Variables that
 * service links inject into it belong to the links: they are never reported in `env`.
 * `links` names the services whose variables the app needs: a create links them before the
 * app's first start, so an app that cannot start without `DATABASE_URL` comes up in one run.
 */
export interface Container {
  /** Name of the app, unique within its project: lowercase letters, digits and dashes. */
  name?: string;
  /** Project to create the app in. */
  projectId?: string;
  /** Image reference with an immutable tag, `<registry_host>/<namespace>/<repo>:<tag>`. The tag is never `latest`. */
  image: string;
  /**
   * Port the app serves HTTP on.
   * @TJS-type integer
   */
  httpPort?: number;
  /** Environment variables of the app (those that service links inject are the links', not these). */
  env?: Record<string, string>;
  /**
   * Ids of the services whose connection variables the app needs, such as `[db.id]` for a
   * Postgres database: a create links the app to each before its first start, and awaits that
   * start. Adding an id links it and restarts the app; removing one fails at preview, since the
   * API cannot remove a link.
   */
  links?: string[];
  /**
   * Number of instances. Leave it out when autoscaling controls the app. An app with a
   * (ReadWriteOnce) volume attached runs one: raising it fails at preview.
   * @TJS-type integer
   */
  replicas?: number;
  /**
   * CPU in milli-cores.
   * @TJS-type integer
   */
  cpuMilli?: number;
  /**
   * Memory in megabytes.
   * @TJS-type integer
   */
  memoryMb?: number;
  /**
   * Storage in gigabytes.
   * @TJS-type integer
   */
  storageGb?: number;
  /**
   * Whether the app is reachable on its public URL. Left out, the provider sends none and the
   * platform decides: it makes the app public (as the simulator plays it; the API document does not
   * say), and that reads back as no change. Set `false` for an app that only other apps of the
   * project reach, at its `internalHost`.
   */
  public?: boolean;
  /** Human-readable name shown in the portal. */
  displayName?: string;
  /** Whether the app runs. Setting it to false stops the app; true starts it again. */
  running?: boolean;
  /** Any value; changing it restarts the app (for example a config hash or a timestamp). */
  restartTrigger?: string;
  /**
   * When an update's new release (image, env or port) fails to start, send the last release that
   * ran back and await it; the update still fails, with the new release's logs, and the next
   * preview shows the change again.
   */
  rollbackOnFailure?: boolean;
  /** Status reported by the platform: `provisioning`, `running`, `stopped` or `failed`. */
  status: string;
  /** HTTPS URL on the automatic subdomain. */
  publicUrl: string;
  /** In-cluster address, `<service>.<namespace>.svc.cluster.local:<port>`. */
  internalHost: string;
  /** Runtime reported by the platform. */
  runtime: string;
  /** Service type reported by the platform (`container`). */
  type: string;
  /** When the app was created (ISO 8601, UTC). */
  createdAt: string;
  /** When the app last changed (ISO 8601, UTC). */
  updatedAt: string;
  /** Name of the marketplace app it came from, if any. */
  marketplaceApp?: string;
  /** The variables the app's links inject into it (`DATABASE_URL`, …): the links', never part of `env`. */
  injectedEnv: Record<string, string>;
  /**
   * Ids of services linked to the app whose variables it has not read yet, because the restart that carries them
   * failed: they stay out of `links`, and the next `pulumi up` restarts the app. A refresh keeps them until then,
   * unless the app has been stopped since (its next start reads every link).
   */
  linksAwaitingRestart?: string[];
}

/** Why `links` only grows, and the ways out. */
const LINKS_STAY =
  "the hosting API has no way to remove a service link, so the app would keep receiving its variables whatever the program says. Put the id back in `links` (or add `links` to the resource's ignoreChanges); to end the link, replace the app (`pulumi up --replace <urn>`) or the service it links to: deleting either service removes its links.";

/** Where data too large for an environment variable belongs. */
const LARGE_DATA = "put large configuration in the image, or in a file on a volume";

/**
 * The longest variable name: the platform runs apps on Kubernetes (their internal hosts are `….svc.cluster.local`),
 * where an app's variables are kept as the keys of a ConfigMap or Secret, 253 characters at most; the simulator
 * refuses a longer one the same way.
 */
const VARIABLE_NAME = { maxBytes: 253, why: "the platform keeps variables as Kubernetes ConfigMap or Secret keys" };

type Env = Record<string, string>;

const flags = {
  name: projectName,
  projectId,
  image: { validate: all(maxBytes(512), imageReference()) },
  httpPort: { default: 8080, validate: between(1, 65535, "the platform's apps serve on 8080") },
  env: {
    validate: all(
      keys(variableName(VARIABLE_NAME)),
      boundedMap({ entries: 1000, valueBytes: 32 * 1024, totalBytes: 256 * 1024, hint: LARGE_DATA }),
    ),
    clearedWhenRemoved: true,
  },
  links: { unordered: true, appendOnly: LINKS_STAY, validate: all(items(uuid()), distinct()) },
  replicas: { validate: atLeast(1) },
  cpuMilli: { validate: atLeast(1) },
  memoryMb: { validate: atLeast(1) },
  storageGb: { validate: atLeast(1) },
  public: {},
  displayName: { validate: maxBytes(256) },
  running: { default: true },
  restartTrigger: { notReturned: true, validate: maxBytes(1024, "use a hash of what changed, not the content itself") },
  rollbackOnFailure: { default: false, notReturned: true },
  status: movingOutput,
  publicUrl: output,
  internalHost: { output: true, movesOnUpdate: ["httpPort"] },
  runtime: output,
  type: { output: true, validate: matches(/^[a-z]+$/, 'a service type such as "container" or "postgres"') },
  createdAt: output,
  updatedAt: movingOutput,
  marketplaceApp: output,
  injectedEnv: { output: true, secret: true, movesOnUpdate: ["links"] },
  linksAwaitingRestart: { output: true, movesOnUpdate: ["links"] },
} satisfies FlagsOf<Container>;

/** RWO_REPLICA_LIMIT at preview: an app that has a ReadWriteOnce volume attached runs one replica. */
async function replicaRefusal(
  ctx: Context,
  id: string,
  news: Container,
  olds: Partial<Container>,
): Promise<string | undefined> {
  if (typeof news.replicas !== "number" || typeof news.projectId !== "string") return undefined; // known at apply time
  if (news.replicas <= Math.max(olds.replicas ?? 1, 1)) return undefined;
  const held = (await attachmentsIn(ctx, news.projectId!)).filter((a) => a.containerId === id);
  if (held.length === 0) return undefined;
  const volumesHeld = held.map((a) => `volume ${a.volume.name} at ${a.mountPath}`).join(", ");
  return `RWO_REPLICA_LIMIT (ReadWriteOnce): app ${news.name} has ${volumesHeld} attached, and an app with a ReadWriteOnce volume runs one replica, so replicas cannot rise from ${olds.replicas ?? 1} to ${news.replicas}. Keep replicas: 1, or detach the volume first (delete its VolumeAttachment).`;
}

/** Every service of the project (apps, and for getContainers the databases too), in a Container's terms. */
async function everyService(ctx: Context, projectId: string | undefined) {
  const project = projectOf(ctx, { projectId });
  const [linksInto, list] = await Promise.all([
    linksByConsumer(ctx, project, { alongside: true }),
    ctx.client.of(services).list(project, { signal: ctx.signal }),
  ]);
  return list.map((s) => ({ ...withLinks(s, linksInto(s.id)), id: s.id }));
}

export const container: Declaration<Container, typeof flags> = {
  typeName: "Container",
  flags,
  scope: "project",
  unfinished: (live) =>
    live.status === "failed"
      ? `container ${live.name} failed to start: its status is "failed" (image ${live.image}); hosting.getContainerLogs has its logs`
      : live.status === "provisioning"
        ? `container ${live.name} is still provisioning (a rollout is under way); the next \`pulumi up\` waits for it again`
        : live.linksAwaitingRestart?.length
          ? `container ${live.name} has not read the variables of its link to ${live.linksAwaitingRestart.join(", ")} (restarting it after the link was made failed); the next \`pulumi up\` restarts it`
          : undefined,
  list: async (ctx, projectId) => (await everyService(ctx, projectId)).filter((s) => s.type === apps.type),
  lookups: {
    byIdOrName: {
      noun: "container",
      show: "publicUrl",
      findByName: (ctx, name, projectId) => serviceNamed(ctx, name, projectOf(ctx, { projectId })),
    },
    list: {
      name: "getContainers",
      key: "services",
      description:
        "Lists the service records of a project (apps and managed databases), in a Container's terms; `type` keeps one kind.",
      filters: ["type"],
      items: everyService,
    },
  },
  export: { word: "container", strays: (ctx, projectId) => unmanagedServices(ctx, projectOf(ctx, { projectId })) },
  examples: [
    {
      title: "An app",
      name: "web",
      inputs: { image: "registry.example.com/team/web:1.4.2", env: { LOG_LEVEL: "info" } },
      update: { image: "registry.example.com/team/web:1.5.0" },
    },
    {
      title: "An app that needs its database's variables to start",
      name: "api",
      inputs: { image: "registry.example.com/team/api:2.0.1", links: [referenceTo("Postgres")] },
    },
  ],
  lifecycle: {
    judge: async (ctx, { operation, news, olds, id }) => {
      const self = operation === "update" && id ? { id, what: `app ${news.name}` } : undefined;
      const links = Array.isArray(news.links) ? news.links.map((link, i) => ({ path: `links[${i}]`, id: link })) : [];
      return (
        (await notServices(ctx, news.projectId, links, self)) ??
        (operation === "update" && id ? replicaRefusal(ctx, id, news, olds ?? {}) : undefined)
      );
    },
    async create(ctx, inputs) {
      const project = inputs.projectId;
      const created = await ctx.client
        .of(services)
        .create(project, { name: inputs.name, image: inputs.image, httpPort: inputs.httpPort }, ctx.creating);
      // The create request carries only name, image and port; the rest follows (rollout/plan.ts). From here on the app
      // exists: whatever fails, it stays in state as the platform has it.
      ctx.made(created.id, containerFromWire(created) as PropertyMap);
      const steps = createSteps(inputs, containerFromWire(created));
      const target = { operation: "create", project, id: created.id, program: inputs } as const;
      return { id: created.id, outputs: await rollOut(ctx, target, steps, afterCreate(created, inputs, steps)) };
    },

    async read(ctx, address, { outputs, inputs }) {
      const project = projectOf(ctx, address, outputs);
      // Both at once, so that the Reads of a refresh still share each list (DESIGN section 2); the
      // links first, as the batching wants a read made alongside another (loader.ts `load`).
      const [linksInto, service] = await Promise.all([
        orGone(() => linksByConsumer(ctx, project, { alongside: true })),
        apps.read(ctx, project, address.id),
      ]);
      // A restart a link still owes (linksAwaitingRestart) is carried forward until the app stops or an up restarts it.
      const owed = service?.status === "stopped" ? [] : (outputs.linksAwaitingRestart ?? []);
      return service && withLinks(service, linksInto?.(service.id) ?? [], inputs, owed);
    },

    async update(ctx, address, { olds, news, oldInputs, keepIgnored }) {
      const steps = updateSteps(olds, news, oldInputs);
      const target = {
        operation: "update",
        project: projectOf(ctx, address, olds),
        id: address.id,
        program: news,
        keepIgnored: keepIgnored && ((live: Env, sent: Env) => keepIgnored("env", live, sent)),
      } as const;
      return rollOut(ctx, target, steps, beforeUpdate(olds, steps));
    },

    async delete(ctx, address, outputs) {
      await deleteService(ctx, projectOf(ctx, address, outputs), address.id, `container ${outputs.name ?? address.id}`);
    },
  },
};
