// Every function of the package.
import { getContainerLogs } from "./getContainerLogs";
import { lookups } from "./lookups";

export const functions = [getContainerLogs, ...lookups];
