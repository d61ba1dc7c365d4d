// hosting:index:getContainerLogs — the log text of an app.
import { uuid } from "../framework/validators";
import { lookupProject, projectOf, type Lookup } from "./common";

/** Arguments of getContainerLogs. */
export interface GetContainerLogsArgs {
  /** Id of the app (a Container's `id`). */
  containerId: string;
  /** Project of the app. */
  projectId?: string;
}

/** The result of getContainerLogs. */
export interface GetContainerLogsResult {
  /** The app's log text. */
  logs: string;
}

export const getContainerLogs: Lookup<GetContainerLogsArgs, GetContainerLogsResult> = {
  name: "getContainerLogs",
  description: "Reads the log text of a container app.",
  args: { containerId: { validate: uuid() }, projectId: lookupProject },
  result: { flags: { logs: {} } },
  async invoke(ctx, args) {
    return { logs: await ctx.client.containers.logs(projectOf(ctx, {}, args), args.containerId, { signal: ctx.signal }) };
  },
};
