// The simulator's collections, one entry each: the records the world keeps (SimState has one list
// per entry, and the state file one key), the API's routes to them (document section 4), the
// records of other collections that go with one of them, and the transitions a request settles.
// The route table, the empty world, the admin API's kinds (PATCH|DELETE /_sim/{kind}/{id}) and
// what a delete takes with it all derive from this table. A new resource is its rules file under
// rules/ (its record, added to SimRecords, its checks, its routes) and one entry here.
import type { Route } from "./context";
import { CONTAINER_ROUTES } from "./rules/containers";
import { DATABASE_ROUTES } from "./rules/databases";
import { LINK_ROUTES } from "./rules/links";
import { REGISTRY_ROUTES } from "./rules/registries";
import { settleService } from "./rules/services";
import { ATTACHMENT_ROUTES, settleVolume, VOLUME_ROUTES } from "./rules/volumes";
import type { WorldRules } from "./state";
import type { SimKind, SimRecords } from "./types";

/** A collection: the API's routes to it, and what the world does with its records (state.ts). */
export interface Collection<R> extends WorldRules<R> {
  routes: readonly Route[];
}

export const COLLECTIONS: { [K in SimKind]: Collection<SimRecords[K]> } = {
  services: { routes: [...CONTAINER_ROUTES, ...DATABASE_ROUTES], settle: settleService },
  volumes: { routes: VOLUME_ROUTES, settle: settleVolume },
  attachments: { routes: ATTACHMENT_ROUTES, references: { volume_id: "volumes", container_id: "services" } },
  registries: { routes: REGISTRY_ROUTES },
  links: { routes: LINK_ROUTES, references: { consumer_service_id: "services", provider_service_id: "services" } },
};

export const KINDS = Object.keys(COLLECTIONS) as SimKind[];
