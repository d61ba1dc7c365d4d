// An app as the platform shows it, in a Container's terms (container.ts declares each property): its service record
// and the links into it. The Read, the lookups and every step of a rollout say the app this way.
import { defined, type Context } from "../common";
import { CONTAINER_LINK_TYPE, injectedBy, injectedEnvNames, linksByConsumer, type LinkRecord } from "../links";
import { serviceKind, type ServiceRecord } from "../services";

/** The services a Container manages: `type` container. */
export const apps = serviceKind("container", "Container");

export function containerFromWire(service: ServiceRecord) {
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

/** An app's properties as a record and the links into it show them: a Container's outputs. */
export type App = ReturnType<typeof containerFromWire> & {
  links?: string[];
  injectedEnv?: Record<string, string>;
  linksAwaitingRestart?: string[];
};

/** What a program asks of an app: a Container's inputs (those no record shows as well). */
export type Program = App & { restartTrigger?: string; rollbackOnFailure?: boolean };

/**
 * The app's own variables: the live env without the ones links inject into it, except those
 * the program sets itself (a key the program sets is the program's, whoever else sets it).
 */
export function ownEnv(
  live: Record<string, string>,
  injected: ReadonlySet<string>,
  program: Record<string, string> = {},
): Record<string, string> {
  return Object.fromEntries(Object.entries(live).filter(([key]) => !injected.has(key) || Object.hasOwn(program, key)));
}

/** The ids in `live`, those the program lists first and in its order (so a refresh reads back what it wrote). */
export function inProgramOrder(live: readonly string[], program: readonly string[] = []): string[] {
  return [...program.filter((id) => live.includes(id)), ...live.filter((id) => !program.includes(id))];
}

/**
 * A live service record in a Container's terms, with the links into it: its `links`, `injectedEnv`, and its own `env`.
 * `uncarried`: services linked whose variables no rollout has carried into the app yet; they stay out of `links` and
 * `injectedEnv`, so that the next `pulumi up` sees them missing and makes that rollout, and those linked are
 * `linksAwaitingRestart`, which a Read carries forward.
 */
export function withLinks(
  service: ServiceRecord,
  links: readonly LinkRecord[],
  program: App = {},
  uncarried: readonly string[] = [],
): App {
  const own = links.filter((link) => link.linkType === CONTAINER_LINK_TYPE);
  const carried = own.filter((link) => !uncarried.includes(link.providerServiceId));
  const awaiting = uncarried.filter((id) => own.some((link) => link.providerServiceId === id));
  return {
    ...containerFromWire(service),
    env: ownEnv(service.env, new Set(Object.keys(injectedBy(links))), program.env),
    links: inProgramOrder([...new Set(carried.map((link) => link.providerServiceId))], program.links),
    injectedEnv: injectedBy(carried),
    ...(awaiting.length > 0 ? { linksAwaitingRestart: awaiting } : {}),
  };
}

/** The outputs of a live service record: its env the app's own, its links read back. */
export async function outputsOf(
  ctx: Context,
  project: string,
  service: ServiceRecord,
  program: App,
  uncarried: readonly string[] = [],
): Promise<App> {
  return withLinks(service, (await linksByConsumer(ctx, project))(service.id), program, uncarried);
}

/**
 * What the platform last showed of the app: `known` (its links and the rest, from earlier answers) with the record
 * seen since over it, its env the app's own (without what `known`'s links and `newLinks` inject).
 */
export function lastSeen(
  known: App,
  service: ServiceRecord | undefined,
  program: App,
  newLinks: readonly LinkRecord[] = [],
): App {
  if (!service) return known;
  const injected = new Set(Object.keys({ ...known.injectedEnv, ...injectedBy(newLinks) }));
  return { ...known, ...containerFromWire(service), env: ownEnv(service.env, injected, program.env) };
}

/** `known` with the links an update made (or adopted), and the variables they inject: none awaits a restart. */
export const withAdded = ({ linksAwaitingRestart: _, ...known }: App, links: readonly LinkRecord[]): App => ({
  ...known,
  links: [...new Set([...(known.links ?? []), ...links.map((link) => link.providerServiceId)])],
  injectedEnv: { ...known.injectedEnv, ...injectedBy(links) },
});

/**
 * An update of env must keep what links put there (where the platform shows them in env at all), and
 * `keepIgnored` the app's own variables as they are now where the program's env is ignored.
 */
export async function withLinkedVariables(
  ctx: Context,
  project: string,
  id: string,
  program: Record<string, string>,
  keepIgnored: KeepIgnored = (_live, sent) => sent,
): Promise<Record<string, string>> {
  const [injected, service] = await Promise.all([
    injectedEnvNames(ctx, project, { alongside: true }),
    apps.read(ctx, project, id),
  ]);
  const live = service?.env ?? {};
  const env = keepIgnored(ownEnv(live, injected(id)), program);
  const kept = Object.entries(live).filter(([key]) => injected(id).has(key) && !Object.hasOwn(env, key));
  return { ...Object.fromEntries(kept), ...env };
}

/** The env an update sends, with the keys `ignoreChanges` names taken from the app's own live variables. */
export type KeepIgnored = (live: Record<string, string>, sent: Record<string, string>) => Record<string, string>;
