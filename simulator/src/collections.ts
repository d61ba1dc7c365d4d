// The simulator's collections, one entry each: the records the world keeps (SimState has one list
// per entry, and the state file one key), the API's routes to them (document section 4), the
// records of other collections that go with one of them, and the transitions a request settles.
// The route table, the empty world, the admin API's kinds (PATCH|DELETE /_sim/{kind}/{id}) and
// what a delete takes with it all derive from this table. A new resource is its rules file under
// rules/ (its record, its checks, its routes) and one entry here.
import type { Route } from "./context";
import { CONTAINER_ROUTES } from "./rules/containers";
import { DATABASE_ROUTES } from "./rules/databases";
import { LINK_ROUTES, type SimLink } from "./rules/links";
import { REGISTRY_ROUTES, type SimRegistry } from "./rules/registries";
import { settleService, type SimService } from "./rules/services";
import { ATTACHMENT_ROUTES, settleVolume, VOLUME_ROUTES, type SimAttachment, type SimVolume } from "./rules/volumes";
import type { Store } from "./state";

export interface Collection<R extends { id: string }> {
  routes: readonly Route[];
  /**
   * Fields that hold the id of a record of another collection (by its name in this table): deleting
   * that record, through the API or out of band, deletes this one too.
   */
  references?: Partial<Record<keyof R & string, string>>;
  /** A pending transition that is due by `now` (a ready-at time, so it also completes across a restart). */
  settle?(record: R, store: Store, now: number): void;
}

const collection = <R extends { id: string }>(entry: Collection<R>): Collection<R> => entry;

export const COLLECTIONS = {
  services: collection<SimService>({ routes: [...CONTAINER_ROUTES, ...DATABASE_ROUTES], settle: settleService }),
  volumes: collection<SimVolume>({ routes: VOLUME_ROUTES, settle: settleVolume }),
  attachments: collection<SimAttachment>({
    routes: ATTACHMENT_ROUTES,
    references: { volume_id: "volumes", container_id: "services" },
  }),
  registries: collection<SimRegistry>({ routes: REGISTRY_ROUTES }),
  links: collection<SimLink>({
    routes: LINK_ROUTES,
    references: { consumer_service_id: "services", provider_service_id: "services" },
  }),
};

/** The name of a collection, its key in SimState: "services", "volumes", ... */
export type SimKind = keyof typeof COLLECTIONS;

/** The record type of a collection. */
export type RecordOf<K extends SimKind> = (typeof COLLECTIONS)[K] extends Collection<infer R> ? R : never;

export const KINDS = Object.keys(COLLECTIONS) as SimKind[];

const entries = Object.entries(COLLECTIONS) as Array<[SimKind, Collection<{ id: string }>]>;

for (const [kind, entry] of entries) {
  for (const [field, target] of Object.entries(entry.references ?? {})) {
    if (!KINDS.includes(target as SimKind)) {
      throw new Error(`simulator collection ${kind}.${field}: no collection ${target}`);
    }
  }
}

/** The collections whose records refer to `kind`, with the referring field. */
export function referencesTo(kind: SimKind): Array<{ kind: SimKind; field: string }> {
  return entries.flatMap(([from, entry]) =>
    Object.entries(entry.references ?? {})
      .filter(([, target]) => target === kind)
      .map(([field]) => ({ kind: from, field })),
  );
}

export const settlers = entries.flatMap(([kind, entry]) => (entry.settle ? [{ kind, settle: entry.settle }] : []));
