// hosting:index:Postgres — a managed PostgreSQL database. Shape and lifecycle: ./database.ts.
import { type ManagedDatabase, managedDatabase } from "./database";

/** A managed PostgreSQL database service. It cannot be resized; `connection.instructions` is secret. */
export interface Postgres extends ManagedDatabase {}

export const postgres = managedDatabase({
  type: "postgres",
  typeName: "Postgres",
  label: "PostgreSQL",
  noun: "Postgres database",
  example: "orders-db",
});
