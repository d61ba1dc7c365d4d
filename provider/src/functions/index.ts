// Every function of the package: the lookups each resource declares, and the others.
import { resources } from "../resources";
import { getContainerLogs } from "./getContainerLogs";
import { lookupsOf } from "./lookups";

export const functions = [getContainerLogs, ...lookupsOf(resources)];
