// hosting:index:Container — an HTTP app running one image in a project.
import type { ContainerPatch, WireService } from "../api/wire";
import { isApiError } from "../api/errors";
import type { FlagsOf } from "../framework/spec";
import { waitUntil } from "../framework/polling";
import { deepEqual } from "../framework/values";
import { PartialFailure, type OperationContext, type ResourceDeclaration } from "../framework/resource";
import { environment, imageReference, port, positive } from "../framework/validators";
import { defined, ignoringNotFound, movingOutput, name, ofType, orGone, output, projectId, projectOf } from "./common";

/**
 * A container app: an HTTP service that runs one image in a project, on an automatic
 * subdomain with managed TLS. Changing `name` replaces it; everything else updates in place.
 */
export interface Container {
  /** Name of the app, unique within its project: lowercase letters, digits and dashes. Changing it replaces the app. */
  name: string;
  /** Project to create the app in. Defaults to the provider's `projectId`; changing it replaces the app. */
  projectId?: string;
  /** Image reference with an immutable tag, `<registry_host>/<namespace>/<repo>:<tag>`. The tag is never `latest`. */
  image: string;
  /**
   * Port the app serves HTTP on.
   * @TJS-type integer
   */
  httpPort?: number;
  /** Environment variables of the app. */
  env?: Record<string, string>;
  /**
   * Number of instances. Leave it out when autoscaling controls the app.
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
  /** Whether the app is reachable on its public URL. */
  public?: boolean;
  /** Human-readable name shown in the portal. */
  displayName?: string;
  /** Whether the app runs. Setting it to false stops the app; true starts it again. */
  running?: boolean;
  /** Any value; changing it restarts the app (for example a config hash or a timestamp). */
  restartTrigger?: string;
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
}

const flags: FlagsOf<Container> = {
  name,
  projectId,
  image: { validate: imageReference },
  httpPort: { default: 8080, validate: port },
  env: { validate: environment, clearedWhenRemoved: true },
  replicas: { validate: positive },
  cpuMilli: { validate: positive },
  memoryMb: { validate: positive },
  storageGb: { validate: positive },
  public: {},
  displayName: {},
  running: { default: true },
  restartTrigger: { notReturned: true },
  status: movingOutput,
  publicUrl: output,
  internalHost: output,
  runtime: output,
  type: output,
  createdAt: output,
  updatedAt: movingOutput,
  marketplaceApp: output,
};

export function containerFromWire(service: WireService): Partial<Container> {
  return defined({
    name: service.name,
    projectId: service.project_id,
    image: service.image,
    httpPort: service.port,
    env: service.env ?? {},
    replicas: service.replicas,
    cpuMilli: service.cpu_milli,
    memoryMb: service.memory_mb,
    storageGb: service.storage_gb,
    public: service.public,
    displayName: service.display_name,
    running: service.status !== "stopped",
    status: service.status,
    publicUrl: service.public_url,
    internalHost: service.internal_host,
    runtime: service.runtime,
    type: service.type,
    createdAt: service.created_at,
    updatedAt: service.updated_at,
    marketplaceApp: service.marketplace_app ?? undefined,
  });
}

/** The PATCH body that moves `from` to `to`: only what the user set and what differs. */
export function containerPatch(from: Partial<Container>, to: Container): ContainerPatch {
  const wanted: ContainerPatch = defined({
    image: to.image,
    env: to.env,
    replicas: to.replicas,
    cpu_milli: to.cpuMilli,
    memory_mb: to.memoryMb,
    storage_gb: to.storageGb,
    public: to.public,
    display_name: to.displayName,
    http_port: to.httpPort,
  });
  const current: ContainerPatch = {
    image: from.image,
    env: from.env,
    replicas: from.replicas,
    cpu_milli: from.cpuMilli,
    memory_mb: from.memoryMb,
    storage_gb: from.storageGb,
    public: from.public,
    display_name: from.displayName,
    http_port: from.httpPort,
  };
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => !deepEqual(value, current[key as keyof ContainerPatch])),
  ) as ContainerPatch;
}

const withInputsNotReturned = (live: Partial<Container>, inputs: Partial<Container>): Partial<Container> =>
  defined({ ...live, restartTrigger: inputs.restartTrigger });

/** AUTOSCALING_OWNS_REPLICAS said in terms of the program; other errors pass through. */
function explained(err: unknown, appName: string): unknown {
  if (!isApiError(err, "AUTOSCALING_OWNS_REPLICAS")) return err;
  return new Error(
    `replicas cannot be set on container "${appName}": autoscaling controls its instance count. ` +
      `Remove \`replicas\` from the program (or add it to the resource's ignoreChanges), or turn autoscaling off. ` +
      `(${(err as Error).message})`,
  );
}

async function readContainer(ctx: OperationContext, project: string, id: string): Promise<Partial<Container> | undefined> {
  const service = ofType(await orGone(() => ctx.client.containers.get(project, id, { signal: ctx.signal })), "container", "hosting:index:Container");
  return service && containerFromWire(service);
}

/** Waits while the app is still `provisioning`, so that state records it as it settles. */
async function started(ctx: OperationContext, project: string, id: string, live: Partial<Container>) {
  const settled = await waitUntil({
    what: `container ${live.name} to start`,
    initial: live,
    poll: () => readContainer(ctx, project, id),
    done: (app) => app === undefined || app.status !== "provisioning",
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    progress: (message) => ctx.progress(message),
  });
  if (!settled) throw new Error(`container ${live.name} disappeared while starting`);
  if (settled.status === "failed") throw new Error(`container ${live.name} failed to start; see its logs (getContainerLogs)`);
  return settled;
}

async function setRunning(ctx: OperationContext, project: string, id: string, running: boolean) {
  const action = running ? ctx.client.containers.start : ctx.client.containers.stop;
  await action.call(ctx.client.containers, project, id, { signal: ctx.signal });
}

export const container: ResourceDeclaration<Container> = {
  token: "hosting:index:Container",
  typeName: "Container",
  flags,
  projectScoped: true,
  lifecycle: {
    async create(ctx, inputs) {
      const project = projectOf(ctx, {}, inputs);
      const created = await ctx.client.containers.create(
        project,
        { name: inputs.name, image: inputs.image, http_port: inputs.httpPort ?? 8080 },
        { signal: ctx.signal },
      );
      // The create request carries only name, image and port; the rest follows as a PATCH.
      // If that fails, the app exists and must stay in state.
      let live = containerFromWire(created);
      try {
        const patch = containerPatch(live, inputs);
        if (Object.keys(patch).length > 0) {
          live = containerFromWire(await ctx.client.containers.update(project, created.id, patch, { signal: ctx.signal }));
        }
        if (inputs.running === false) {
          await setRunning(ctx, project, created.id, false);
          live = (await readContainer(ctx, project, created.id)) ?? live;
        }
        live = await started(ctx, project, created.id, live);
      } catch (err) {
        throw new PartialFailure(
          `container "${inputs.name}" was created, but setting it up failed: ${(explained(err, inputs.name) as Error).message}`,
          created.id,
          withInputsNotReturned(live, inputs) as Record<string, any>,
        );
      }
      return { id: created.id, outputs: withInputsNotReturned(live, inputs) };
    },

    async read(ctx, address, { outputs, inputs }) {
      const live = await readContainer(ctx, projectOf(ctx, address, outputs), address.id);
      return live && withInputsNotReturned(live, inputs);
    },

    async update(ctx, address, olds, news, oldInputs) {
      const project = projectOf(ctx, address, olds);
      let live: Partial<Container> = olds;
      // env taken out of the program: clear the variables it had set.
      const wanted = news.env === undefined && oldInputs.env !== undefined ? { ...news, env: {} } : news;
      const patch = containerPatch(olds, wanted);
      if (Object.keys(patch).length > 0) {
        try {
          live = containerFromWire(await ctx.client.containers.update(project, address.id, patch, { signal: ctx.signal }));
        } catch (err) {
          throw explained(err, news.name);
        }
      }
      const wantRunning = news.running !== false;
      const restart = news.restartTrigger !== undefined && news.restartTrigger !== oldInputs.restartTrigger;
      if (wantRunning !== (olds.running !== false)) {
        await setRunning(ctx, project, address.id, wantRunning);
      } else if (restart && wantRunning) {
        await ctx.client.containers.restart(project, address.id, { signal: ctx.signal });
      }
      live = (await readContainer(ctx, project, address.id)) ?? live;
      return withInputsNotReturned(live, news);
    },

    async delete(ctx, address, outputs) {
      await ignoringNotFound(() => ctx.client.containers.delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }));
    },
  },
};
