// hosting:index:Mysql — a managed MySQL database. Shape and lifecycle: ./database.ts.
import { type ManagedDatabase, managedDatabase } from "./database";

/** A managed MySQL database service. It cannot be resized; `connection.instructions` is secret. */
export interface Mysql extends ManagedDatabase {}

export const mysql = managedDatabase({
  type: "mysql",
  typeName: "Mysql",
  label: "MySQL",
  noun: "MySQL database",
  example: "legacy-db",
});
