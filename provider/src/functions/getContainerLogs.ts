// hosting:index:getContainerLogs — the log text of an app.
import type { ResourceAddress } from "../framework/resource";
import type { OperationContext } from "../framework/resource";
import type { FlagsOf } from "../framework/spec";
import { uuid } from "../framework/validators";
import { projectId } from "../resources/common";

/** Arguments of getContainerLogs. */
export interface GetContainerLogsArgs {
  /** Id of the app (a Container's `id`). */
  containerId: string;
  /** Project of the app. Defaults to the provider's `projectId`. */
  projectId?: string;
}

/** The result of getContainerLogs. */
export interface GetContainerLogsResult {
  /** The app's log text. */
  logs: string;
}

export const getContainerLogs = {
  token: "hosting:index:getContainerLogs",
  description: "Reads the log text of a container app.",
  argsTypeName: "GetContainerLogsArgs",
  resultTypeName: "GetContainerLogsResult",
  flags: { containerId: { validate: uuid }, projectId: { ...projectId, replaceOnChange: false } } satisfies FlagsOf<GetContainerLogsArgs>,
  async invoke(ctx: OperationContext, args: GetContainerLogsArgs): Promise<GetContainerLogsResult> {
    const address: ResourceAddress = { id: args.containerId, projectId: args.projectId ?? ctx.config.projectId };
    if (!address.projectId) throw new Error("getContainerLogs needs a projectId: pass one, or set hosting:projectId");
    return { logs: await ctx.client.containers.logs(address.projectId, address.id, { signal: ctx.signal }) };
  },
};
