// What the package's functions share.
import type { HostingClient } from "../api/client";
import type { FunctionDeclaration } from "../framework/declare";

/** A function of this package, on the hosting API. */
export type HostingFunction<A, R> = FunctionDeclaration<A, R, HostingClient>;
