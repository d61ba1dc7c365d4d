// hosting:index:Redis — a managed Redis database. Shape and lifecycle: ./database.ts.
import { type ManagedDatabase, managedDatabase } from "./database";

/** A managed Redis database service. It cannot be resized; `connection.instructions` is secret. */
export interface Redis extends ManagedDatabase {}

export const redis = managedDatabase({
  type: "redis",
  typeName: "Redis",
  label: "Redis",
  noun: "Redis database",
  example: "cache",
});
