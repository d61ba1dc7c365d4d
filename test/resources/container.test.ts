// The Container's pure mappers: wire record -> outputs, and the PATCH body of an update.
import { containerFromWire, containerPatch, type Container } from "../../provider/src/resources/container";
import type { WireService } from "../../provider/src/api/wire";

const record: WireService = {
  id: "c1", project_id: "p1", name: "web", display_name: "web", type: "container", runtime: "docker",
  image: "r.io/a/web:1", port: 8080, replicas: 1, status: "stopped", internal_host: "web.p.svc.cluster.local:8080",
  public_url: "https://web.apps.test", public: true, cpu_milli: 250, memory_mb: 256, storage_gb: 1, env: {},
  connection: undefined, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", marketplace_app: undefined,
};

test("a wire record maps to lowerCamel outputs; running is derived from the status", () => {
  expect(containerFromWire(record)).toMatchObject({ projectId: "p1", httpPort: 8080, cpuMilli: 250, publicUrl: "https://web.apps.test", running: false });
  expect(containerFromWire({ ...record, status: "running" }).running).toBe(true);
  expect(containerFromWire(record)).not.toHaveProperty("marketplaceApp");
});

describe("containerPatch sends only what the user set and what differs", () => {
  const live = containerFromWire(record);
  const program = (extra: Partial<Container>) => ({ name: "web", image: "r.io/a/web:1", ...extra }) as Container;

  test.each([
    ["nothing changed", {}, {}],
    ["a new image", { image: "r.io/a/web:2" }, { image: "r.io/a/web:2" }],
    ["env and replicas", { env: { A: "1" }, replicas: 2 }, { env: { A: "1" }, replicas: 2 }],
    ["a value equal to the live one is not sent", { cpuMilli: 250, memoryMb: 512 }, { memory_mb: 512 }],
    ["settings the user left out are never sent", { displayName: undefined }, {}],
  ])("%s", (_name, extra, body) => {
    expect(containerPatch(live, program(extra as Partial<Container>))).toEqual(body);
  });
});

test("an env map equal but for key order is not sent again", () => {
  const live = containerFromWire({ ...record, env: { A: "1", B: "2" } });
  expect(containerPatch(live, { name: "web", image: "r.io/a/web:1", env: { B: "2", A: "1" } } as unknown as Container)).toEqual({});
});
