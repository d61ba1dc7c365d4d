// hosting:index:getContainerLogs — the log text of an app.
import { referenceTo } from "../framework/declare";
import { uuid } from "../framework/validators";
import { projectId, projectOf } from "../resources/common";
import { services } from "../resources/services";
import type { HostingFunction } from "./common";

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

export const getContainerLogs: HostingFunction<GetContainerLogsArgs, GetContainerLogsResult> = {
  name: "getContainerLogs",
  description: "Reads the log text of a container app.",
  args: {
    containerId: { validate: uuid() },
    projectId: { configDefault: projectId.configDefault, validate: projectId.validate },
  },
  result: { flags: { logs: {} } },
  examples: [{ title: "An app's logs", args: { containerId: referenceTo("Container") }, show: "logs" }],
  async invoke(ctx, args) {
    return {
      logs: await ctx.client
        .of(services)
        .text(projectOf(ctx, {}, args), args.containerId, "logs", { signal: ctx.signal }),
    };
  },
};
