// hosting:index:Container — an HTTP app running one image in a project.
import { isApiError, outcomeUnknown } from "../api/errors";
import { InputError, PartialFailure, referenceTo } from "../framework/declare";
import { droppedItems, type FlagsOf } from "../framework/spec";
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
import { deepEqual, type PropertyMap } from "../framework/values";
import {
  defined,
  movingOutput,
  projectName,
  orGone,
  output,
  projectId,
  projectOf,
  type Context,
  type Declaration,
} from "./common";
import { CONTAINER_LINK_TYPE, injectedBy, injectedEnvNames, linksByConsumer, type LinkRecord } from "./links";
import { awaitRollout, failedRollout, linkApp, restartForLinks } from "./rollouts";
import {
  deleteService,
  notServices,
  serviceKind,
  serviceNamed,
  services,
  unmanagedServices,
  type ServiceRecord,
} from "./services";
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
} satisfies FlagsOf<Container>;

const kind = serviceKind("container", "Container");

export function containerFromWire(service: ServiceRecord): Partial<Container> {
  return defined({
    name: service.name,
    projectId: service.projectId,
    image: service.image,
    httpPort: service.port,
    env: service.env,
    replicas: service.replicas,
    cpuMilli: service.cpuMilli,
    memoryMb: service.memoryMb,
    storageGb: service.storageGb,
    public: service.public,
    displayName: service.displayName,
    running: service.status !== "stopped",
    status: service.status,
    publicUrl: service.publicUrl,
    internalHost: service.internalHost,
    runtime: service.runtime,
    type: service.type,
    createdAt: service.createdAt,
    updatedAt: service.updatedAt,
    marketplaceApp: service.marketplaceApp,
  });
}

/**
 * PATCH /containers/{id} (DESIGN decision: any subset of these): each the record's own field but
 * the port, which the request calls http_port. Every field is absolute, never a delta, so a PATCH
 * sent twice leaves what it left once.
 */
export type ContainerSettings = Partial<
  Pick<
    Container,
    "image" | "env" | "replicas" | "cpuMilli" | "memoryMb" | "storageGb" | "public" | "displayName" | "httpPort"
  >
>;

const SETTINGS = [
  "image",
  "env",
  "replicas",
  "cpuMilli",
  "memoryMb",
  "storageGb",
  "public",
  "displayName",
  "httpPort",
] as const;
/**
 * A change to any of these rolls the app out again: together they are a release, which rollbackOnFailure sends back.
 */
const ROLLS_OUT = ["image", "env", "httpPort"] as const satisfies ReadonlyArray<keyof ContainerSettings>;

/** The settings that move `from` to `to`: only what the program set and what differs. */
export function containerSettings(from: Partial<Container>, to: Partial<Container>): ContainerSettings {
  const changed = SETTINGS.filter((key) => to[key] !== undefined && !deepEqual(to[key], from[key]));
  return Object.fromEntries(changed.map((key) => [key, to[key]])) as ContainerSettings;
}

/**
 * The app's own variables: the live env without the ones links inject into it, except those
 * the program sets itself (a key the program sets is the program's, whoever else sets it).
 */
export function ownEnv(
  live: Record<string, string>,
  injected: ReadonlySet<string>,
  program: Record<string, string> = {},
): Record<string, string> {
  return Object.fromEntries(Object.entries(live).filter(([key]) => !injected.has(key) || key in program));
}

/** The ids in `live`, those the program lists first and in its order (so a refresh reads back what it wrote). */
export function inProgramOrder(live: readonly string[], program: readonly string[] = []): string[] {
  return [...program.filter((id) => live.includes(id)), ...live.filter((id) => !program.includes(id))];
}

/**
 * A live service record in a Container's terms, with the links into it: its `links`, `injectedEnv`, and its own `env`.
 * `uncarried`: services linked whose variables no rollout has carried into the app yet; they stay out of `links` and
 * `injectedEnv`, so that the next `pulumi up` sees them missing and makes that rollout.
 */
function withLinks(
  service: ServiceRecord,
  links: readonly LinkRecord[],
  program: Partial<Container> = {},
  uncarried: readonly string[] = [],
): Partial<Container> {
  const carried = links.filter(
    (link) => link.linkType === CONTAINER_LINK_TYPE && !uncarried.includes(link.providerServiceId),
  );
  return {
    ...containerFromWire(service),
    env: ownEnv(service.env, new Set(Object.keys(injectedBy(links))), program.env),
    links: inProgramOrder([...new Set(carried.map((link) => link.providerServiceId))], program.links),
    injectedEnv: injectedBy(carried),
  };
}

/** The outputs of a live service record: its env the app's own, its links read back. */
async function outputsOf(
  ctx: Context,
  project: string,
  service: ServiceRecord,
  program: Partial<Container>,
  uncarried: readonly string[] = [],
): Promise<Partial<Container>> {
  return withLinks(service, (await linksByConsumer(ctx, project))(service.id), program, uncarried);
}

/**
 * What the platform last showed of the app: `known` (its links and the rest, from earlier answers) with the record
 * seen since over it, its env the app's own (without what `known`'s links and `newLinks` inject).
 */
function lastSeen(
  known: Partial<Container>,
  service: ServiceRecord | undefined,
  program: Partial<Container>,
  newLinks: readonly LinkRecord[] = [],
) {
  if (!service) return known;
  const injected = new Set(Object.keys({ ...known.injectedEnv, ...injectedBy(newLinks) }));
  return { ...known, ...containerFromWire(service), env: ownEnv(service.env, injected, program.env) };
}

/** `known` with the links an update made (or adopted), and the variables they inject. */
const withAdded = (known: Partial<Container>, links: readonly LinkRecord[]): Partial<Container> => ({
  ...known,
  links: [...new Set([...(known.links ?? []), ...links.map((link) => link.providerServiceId)])],
  injectedEnv: { ...known.injectedEnv, ...injectedBy(links) },
});

/**
 * A step of an operation on an app that exists failed: the PartialFailure that records the app as the platform has it,
 * read after the failure, never as the program asked, so that the next `pulumi up` diffs against the truth and
 * finishes the work (a `running` or `links` that differs). If even that read fails, or the operation was cancelled,
 * `known`: what the platform last showed (its links only those carried), and the message says so. `uncarried`: as
 * for `withLinks` (a stopped app carries every link into its next start).
 */
async function asItIs(
  ctx: Context,
  project: string,
  id: string,
  program: Partial<Container>,
  message: string,
  known: Partial<Container>,
  uncarried: readonly string[] = [],
): Promise<PartialFailure> {
  let outputs: Partial<Container> | undefined;
  let note = "";
  if (ctx.signal.aborted) {
    note = "\nThe operation ended before the app could be read again: state records it as the platform last showed it.";
  } else {
    try {
      const live = await kind.read(ctx, project, id);
      if (live) outputs = await outputsOf(ctx, project, live, program, live.status === "stopped" ? [] : uncarried);
      else
        note = `\nThe app no longer reads in project ${project}: state records it as the platform last showed it, and \`pulumi refresh\` removes it.`;
    } catch (err) {
      note = `\nReading the app after the failure failed too (${(err as Error).message}): state records it as the platform last showed it.`;
    }
  }
  // A link left out (made, not yet carried into the app) is what a Read cannot tell: no refresh first.
  return new PartialFailure(`${message}${note}`, id, (outputs ?? known) as PropertyMap, uncarried.length === 0);
}

/** An update of env must keep what links put there (where the platform shows them in env at all). */
async function withLinkedVariables(
  ctx: Context,
  project: string,
  id: string,
  env: Record<string, string>,
): Promise<Record<string, string>> {
  const [injected, service] = await Promise.all([
    injectedEnvNames(ctx, project, { alongside: true }),
    kind.read(ctx, project, id),
  ]);
  const kept = Object.entries(service?.env ?? {}).filter(([key]) => injected(id).has(key) && !(key in env));
  return { ...Object.fromEntries(kept), ...env };
}

/** AUTOSCALING_OWNS_REPLICAS said in terms of the program; other errors pass through. */
function explained(err: unknown, appName: string): unknown {
  if (!isApiError(err, "AUTOSCALING_OWNS_REPLICAS")) return err;
  return new InputError(
    `replicas cannot be set on container "${appName}": autoscaling controls its instance count. Remove \`replicas\` from the program (or add it to the resource's ignoreChanges), or turn autoscaling off. (${(err as Error).message})`,
  );
}

/**
 * What a failed start adds when the app has no links: most apps that fail their first start lack a database's
 * variables.
 */
const linksHint = (program: Partial<Container>) =>
  (program.links ?? []).length > 0
    ? ""
    : "If the app needs a database's variables to start (DATABASE_URL, …), list the database in `links` (`links: [db.id]`), and the next `pulumi up` links it and restarts the app.";

/**
 * Waits while the app is `provisioning` (a rollout under way); a timeout or a Cancel ends in a PartialFailure that
 * records the app as the platform has it (`asItIs`, `known` what it last showed).
 */
async function awaitStart(
  ctx: Context,
  project: string,
  id: string,
  program: Partial<Container>,
  known: Partial<Container>,
  initial?: ServiceRecord,
): Promise<ServiceRecord> {
  try {
    return await awaitRollout(ctx, {
      project,
      app: { id, name: program.name ?? id },
      until: "start",
      recordAs: { id, outputs: (last) => lastSeen(known, last, program) as PropertyMap },
      initial,
    });
  } catch (err) {
    if (!(err instanceof PartialFailure)) throw err;
    throw await asItIs(ctx, project, id, program, err.message, err.outputs as Partial<Container>);
  }
}

/**
 * Waits while the app is `provisioning`, and returns it as it settled. `failed` ends in a
 * PartialFailure that records what is live, after rolling back to `lastThatRan` where given.
 */
async function rolledOut(
  ctx: Context,
  project: string,
  id: string,
  program: Partial<Container>,
  known: Partial<Container>,
  initial?: ServiceRecord,
  lastThatRan?: Partial<Container>,
): Promise<Partial<Container>> {
  const service = await awaitStart(ctx, project, id, program, known, initial);
  if (service.status === "failed" && lastThatRan) return rolledBack(ctx, project, service, program, known, lastThatRan);
  const outputs = await outputsOf(ctx, project, service, program);
  if (service.status === "failed") {
    throw new PartialFailure(
      await failedRollout(ctx, project, service, "failed to start", linksHint(program)),
      id,
      outputs as PropertyMap,
    );
  }
  return outputs;
}

/** The release a container runs (ROLLS_OUT): what rollbackOnFailure sends back. */
const releaseOf = (c: Partial<Container>) =>
  Object.fromEntries(ROLLS_OUT.map((key) => [key, c[key]])) as Partial<Container>;

/**
 * rollbackOnFailure: the new release failed, so the last one that ran goes back (one PATCH, retried as any PATCH,
 * awaited, never again). The update still fails, with the new release's log tail and what the rollback did; state
 * records what the platform then has, so the next preview shows the change again.
 */
async function rolledBack(
  ctx: Context,
  project: string,
  failed: ServiceRecord,
  program: Partial<Container>,
  known: Partial<Container>,
  last: Partial<Container>,
): Promise<never> {
  const id = failed.id;
  const failure = await failedRollout(ctx, project, failed, "failed to start", "");
  let seen = lastSeen(known, failed, program);
  let outcome: string;
  try {
    const back = containerSettings(program, releaseOf(last));
    if (back.env) back.env = await withLinkedVariables(ctx, project, id, back.env);
    ctx.progress(`rolling container ${failed.name} back to image ${last.image}`);
    seen = lastSeen(seen, await ctx.client.of(services).update(project, id, back, { signal: ctx.signal }), program);
    const settledBack = await awaitStart(ctx, project, id, { ...program, ...releaseOf(last) }, seen);
    outcome =
      settledBack.status === "failed"
        ? `Rolling it back to image ${last.image} (rollbackOnFailure) failed too: ${await failedRollout(ctx, project, settledBack, "failed to start the release it was rolled back to")}`
        : `It was rolled back to image ${last.image} (rollbackOnFailure), which runs again; state records it, so the next preview shows the change again.`;
  } catch (err) {
    if (err instanceof PartialFailure)
      throw new PartialFailure(
        `${failure}\nRolling it back to image ${last.image} did not finish: ${err.message}`,
        id,
        err.outputs,
      );
    outcome = `Rolling it back to image ${last.image} (rollbackOnFailure) failed: ${(err as Error).message}`;
  }
  throw await asItIs(ctx, project, id, program, `${failure}\n${outcome}`, seen);
}

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

const setRunning = (ctx: Context, project: string, id: string, running: boolean) =>
  ctx.client.of(services).act(project, id, running ? "start" : "stop", {}, { signal: ctx.signal });

/**
 * Links the app to the services an update added to `links`, the app as it stands now telling whether the platform
 * restarted it.
 */
async function linkAdded(ctx: Context, project: string, id: string, added: string[]) {
  if (added.length === 0) return { links: [], made: false, platformRestarted: false };
  const before = await kind.read(ctx, project, id);
  if (!before) throw new Error(`container ${id} is gone: run \`pulumi refresh\`, then \`pulumi up\` creates it again`);
  ctx.progress(`linking the app to ${added.length === 1 ? "a new service" : `${added.length} new services`}`);
  return linkApp(ctx, project, before, added);
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
        : undefined,
  list: async (ctx, projectId) => (await everyService(ctx, projectId)).filter((s) => s.type === kind.type),
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
      const endpoints = ctx.client.of(services);
      const project = inputs.projectId;
      const links = inputs.links ?? [];
      const created = await endpoints.create(
        project,
        { name: inputs.name, image: inputs.image, httpPort: inputs.httpPort },
        { signal: ctx.signal },
      );
      // The create request carries only name, image and port; the rest follows as a PATCH. From here on the app
      // exists: whatever fails, it stays in state as the platform has it (`live` and `linked`: what each step left).
      ctx.made(created.id, containerFromWire(created) as PropertyMap);
      let live = created;
      let linked: readonly LinkRecord[] = [];
      try {
        const settings = containerSettings(containerFromWire(created), inputs);
        if (Object.keys(settings).length > 0)
          live = await endpoints.update(project, created.id, settings, { signal: ctx.signal });
        // The app's first start began without its links' variables: stopped, linked, then started,
        // it starts once, with them (an app that needs DATABASE_URL fails any other start).
        if (links.length > 0 || !inputs.running) {
          await setRunning(ctx, project, created.id, false);
          live = { ...live, status: "stopped" };
        }
        if (links.length > 0) {
          ctx.progress(
            `linking container ${inputs.name} to ${links.length === 1 ? "its service" : `${links.length} services`}`,
          );
          linked = (await linkApp(ctx, project, { id: created.id, status: "stopped" }, links)).links;
          if (inputs.running) {
            await setRunning(ctx, project, created.id, true);
            live = { ...live, status: "provisioning" };
          }
        }
      } catch (err) {
        const why = (explained(err, inputs.name) as Error).message;
        const message = `container "${inputs.name}" was created, but setting it up failed: ${why}`;
        throw await asItIs(ctx, project, created.id, inputs, message, withLinks(live, linked, inputs));
      }
      const settledAlready = inputs.running && links.length === 0;
      const known = withLinks(live, linked, inputs);
      return {
        id: created.id,
        outputs: await rolledOut(ctx, project, created.id, inputs, known, settledAlready ? live : undefined),
      };
    },

    async read(ctx, address, { outputs, inputs }) {
      const project = projectOf(ctx, address, outputs);
      // Both at once, so that the Reads of a refresh still share each list (DESIGN section 2); the
      // links first, as the batching wants a read made alongside another (loader.ts `load`).
      const [linksInto, service] = await Promise.all([
        orGone(() => linksByConsumer(ctx, project, { alongside: true })),
        kind.read(ctx, project, address.id),
      ]);
      return service && withLinks(service, linksInto?.(service.id) ?? [], inputs);
    },

    async update(ctx, address, { olds, news, oldInputs }) {
      const project = projectOf(ctx, address, olds);
      const id = address.id;
      const added = droppedItems(news.links ?? [], olds.links ?? []) as string[];
      // What the platform is known to have, should a step fail after a write and the read after it too: the app as
      // state had it, then what each step left. A link added counts once a rollout carries its variables into the
      // app, or the app is stopped (its next start carries them): `carried`.
      let known: Partial<Container> = olds;
      let linked: Awaited<ReturnType<typeof linkAdded>> = { links: [], made: false, platformRestarted: false };
      let wrote = false;
      let carried = added.length === 0;
      let patched: ServiceRecord | undefined;
      let newRelease = false;
      let rollout = false;
      try {
        // Links first, so that whatever rollout follows (a PATCH's, a start, a restart) carries their variables.
        linked = await linkAdded(ctx, project, id, added);
        wrote = linked.made;
        carried ||= linked.platformRestarted;
        const settings = containerSettings(olds, news);
        if (settings.env) settings.env = await withLinkedVariables(ctx, project, id, settings.env);
        if (Object.keys(settings).length > 0) {
          patched = await ctx.client.of(services).update(project, id, settings, { signal: ctx.signal });
          wrote = true;
          known = lastSeen(known, patched, news, linked.links);
        }
        newRelease = ROLLS_OUT.some((key) => key in settings);
        rollout = newRelease;
        carried ||= newRelease;
        if (news.running !== olds.running) {
          await setRunning(ctx, project, id, news.running);
          known = { ...known, running: news.running, status: news.running ? "provisioning" : "stopped" };
          wrote = carried = true;
          rollout ||= news.running;
          patched = undefined; // the PATCH's answer no longer says how the app stands: a stopped app is read again
        } else if (
          news.running &&
          news.restartTrigger !== oldInputs.restartTrigger &&
          news.restartTrigger !== undefined
        ) {
          await ctx.client.of(services).act(project, id, "restart", {}, { signal: ctx.signal });
          known = { ...known, status: "provisioning" };
          wrote = carried = rollout = true;
        }
        // Adding an id rolls the app out. A link found made already is adopted without a restart only when the state
        // predates `links` (a ServiceLink gave the app its variables, and restarted it); else an earlier attempt may
        // have made it and failed before the restart (its partial failure leaves such a link out of state).
        const linkRollsOut = linked.made || (added.length > 0 && olds.links !== undefined);
        if (linkRollsOut && news.running && !rollout) {
          await restartForLinks(ctx, project, id, linked.platformRestarted);
          known = { ...known, status: "provisioning" };
          wrote = carried = rollout = true;
        }
      } catch (err) {
        if (!wrote && !outcomeUnknown(err)) throw explained(err, news.name);
        const why = (explained(err, news.name) as Error).message;
        const message = `container "${news.name}" was updated only in part: ${why}`;
        throw await asItIs(
          ctx,
          project,
          id,
          news,
          message,
          carried ? withAdded(known, linked.links) : known,
          carried ? [] : added,
        );
      }
      // Without a rollout the PATCH's answer is how the app stands; after one (and when a create
      // left it unfinished, which the engine retries as an update) it is awaited.
      const lastThatRan = news.rollbackOnFailure && newRelease && olds.status === "running" ? olds : undefined;
      const initial = rollout ? undefined : patched;
      return rolledOut(ctx, project, id, news, withAdded(known, linked.links), initial, lastThatRan);
    },

    async delete(ctx, address, outputs) {
      await deleteService(ctx, projectOf(ctx, address, outputs), address.id, `container ${outputs.name ?? address.id}`);
    },
  },
};
