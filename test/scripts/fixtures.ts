// Descriptions as the declarations write them into schema.json once they carry examples: Pulumi's
// example shortcodes, and a resource's `## Import` section.

export const CONTAINER_DESCRIPTION = `A container app: an HTTP service that runs one image.
Every rollout is awaited.

{{% examples %}}
## Example Usage
{{% example %}}
### A public web app

\`\`\`typescript
import * as hosting from "@hosting/pulumi";

const web = new hosting.Container("web", { name: "web", image: "registry.example.com/team/web:1.4.2" });
\`\`\`
{{% /example %}}
{{% example %}}
### Stopped

\`\`\`typescript
new hosting.Container("batch", { name: "batch", image: "registry.example.com/team/batch:2.0.0", running: false });
\`\`\`
{{% /example %}}
{{% /examples %}}

## Import

\`\`\`sh
pulumi import hosting:index:Container web <projectId>/<id>
\`\`\``;

export const FUNCTION_DESCRIPTION = `Reads the log text of a container app.

{{% examples %}}
## Example Usage
{{% example %}}
### The logs of an app

\`\`\`typescript
export const logs = hosting.getContainerLogsOutput({ containerId: web.id }).logs;
\`\`\`
{{% /example %}}
{{% /examples %}}`;

/** schema.json with the examples above in the Container's and getContainerLogs' descriptions. */
export function schemaWithExamples(): any {
  const schema = structuredClone(require("../../schema.json"));
  schema.resources["hosting:index:Container"].description = CONTAINER_DESCRIPTION;
  schema.functions["hosting:index:getContainerLogs"].description = FUNCTION_DESCRIPTION;
  return schema;
}
