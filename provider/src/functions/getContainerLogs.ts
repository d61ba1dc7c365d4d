// hosting:index:getContainerLogs — the log text of an app.
import type { OperationContext } from "../framework/resource";
import type { FlagsOf } from "../framework/spec";
import { uuid } from "../framework/validators";
import { projectId, projectOf } from "../resources/common";

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
    const project = projectOf(ctx, {}, args);
    return { logs: await ctx.client.containers.logs(project, args.containerId, { signal: ctx.signal }) };
  },
};
