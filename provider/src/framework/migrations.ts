// State migrations: when a property changes meaning (a unit, a format, a rename), the stacks an
// earlier release recorded still hold the old meaning. A resource declares once how such a
// recorded state becomes the current one, and the server applies it to every recorded state the
// engine sends back (Read, Diff, Update, Delete) before anything else reads it, as
// pulumi-go-provider's StateMigrations and the Terraform plugin framework's UpgradeState do.
//
// The engine keeps no version beside a resource's state (Terraform keeps a schema_version; a Pulumi
// provider has only its outputs, which users see and which every program's outputs would then
// carry), so a migration recognizes the old shape itself, as pulumi-go-provider's do: `from` says
// whether a recorded map holds it, and must not hold once `migrate` has run. The engine keeps a
// state that did not change as it was, so the same old state can arrive again and again: it must
// migrate the same way every time.
import type { PropertyMap } from "./values";

export interface StateMigration {
  /** What changed, and in which release ("sizeMb became sizeGb in 0.3.0"): for the maintainers. */
  description: string;
  /** Whether a recorded map (the outputs, or the inputs) holds the old shape. */
  from(recorded: PropertyMap): boolean;
  /** The same map in the new shape. Pure: returns a new map, and changes nothing it is given. */
  migrate(recorded: PropertyMap): PropertyMap;
}

/**
 * A recorded map (a resource's outputs, or its inputs, each on its own) in the shape this release
 * declares: every migration whose `from` holds, in the order declared, so that a state several
 * releases old goes through each change since.
 */
export function migrateState(migrations: readonly StateMigration[] | undefined, recorded: PropertyMap): PropertyMap {
  if (!migrations) return recorded;
  return migrations.reduce((state, migration) => {
    if (!migration.from(state)) return state;
    const migrated = migration.migrate(state);
    // It would run again at the next call, on a state it already migrated.
    if (migration.from(migrated)) {
      throw new Error(`the state migration "${migration.description}" leaves the state in the shape it migrates from`);
    }
    return migrated;
  }, recorded);
}
