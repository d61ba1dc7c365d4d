// The program every recorded state was made from: each resource, and its program given the ids
// of those before it. upgrades.test.ts plays it against each state a release recorded.
export interface StackResource {
  type: string;
  name: string;
  program(ids: Record<string, string>): Record<string, unknown>;
}

const t = (name: string) => `hosting:index:${name}`;

export const STACK: StackResource[] = [
  { type: t("Registry"), name: "ghcr", program: () => ({ name: "ghcr", host: "ghcr.io", username: "ci", password: "registry-password" }) },
  { type: t("Postgres"), name: "db", program: () => ({ name: "db", cpuMilli: 500, memoryMb: 1024, storageGb: 10 }) },
  { type: t("Redis"), name: "cache", program: () => ({ name: "cache" }) },
  { type: t("Container"), name: "web", program: () => ({ name: "web", image: "ghcr.io/team/web:1.0.0", env: { LOG_LEVEL: "info" }, replicas: 1 }) },
  { type: t("ServiceLink"), name: "web-db", program: (ids) => ({ consumerServiceId: ids.web, providerServiceId: ids.db }) },
  { type: t("Volume"), name: "data", program: () => ({ name: "data", sizeGb: 10 }) },
  { type: t("VolumeAttachment"), name: "data-on-web", program: (ids) => ({ volumeId: ids.data, containerId: ids.web, mountPath: "/data" }) },
];
