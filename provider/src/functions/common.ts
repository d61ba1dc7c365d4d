// What the package's functions share.
import type { HostingClient } from "../api/client";
import type { FunctionDeclaration } from "../framework/declare";
import type { FieldFlags } from "../framework/spec";
import { uuid } from "../framework/validators";

export { projectOf } from "../resources/common";

/** A function of this package, on the hosting API. */
export type Lookup<A, R> = FunctionDeclaration<A, R, HostingClient>;

/** A function's project: the provider's unless given. */
export const lookupProject: FieldFlags = { configDefault: "projectId", validate: uuid() };
