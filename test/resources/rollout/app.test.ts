// The Container's pure pieces: record -> outputs, the settings an update sends, and the env that
// is the app's own (not what links inject).
import type { Container } from "../../../provider/src/resources/container";
import { containerFromWire, ownEnv } from "../../../provider/src/resources/rollout/app";
import { containerSettings } from "../../../provider/src/resources/rollout/plan";
import type { ServiceRecord } from "../../../provider/src/resources/services";

const record: ServiceRecord = {
  id: "c1",
  projectId: "p1",
  name: "web",
  displayName: "web",
  type: "container",
  runtime: "docker",
  image: "r.io/a/web:1",
  port: 8080,
  replicas: 1,
  status: "stopped",
  internalHost: "web.p.svc.cluster.local:8080",
  publicUrl: "https://web.apps.test",
  public: true,
  cpuMilli: 250,
  memoryMb: 256,
  storageGb: 1,
  env: {},
  connection: undefined,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  marketplaceApp: undefined,
};

test("a record maps to the resource's outputs; running is derived from the status", () => {
  expect(containerFromWire(record)).toMatchObject({
    projectId: "p1",
    httpPort: 8080,
    cpuMilli: 250,
    publicUrl: "https://web.apps.test",
    running: false,
  });
  expect(containerFromWire({ ...record, status: "running" }).running).toBe(true);
  expect(containerFromWire({ ...record, status: "failed" }).running).toBe(true);
  expect(containerFromWire(record)).not.toHaveProperty("marketplaceApp");
});

describe("containerSettings sends only what the program set and what differs", () => {
  const live = containerFromWire(record);
  const program = (extra: Partial<Container>) => ({ name: "web", image: "r.io/a/web:1", ...extra }) as Container;

  test.each([
    ["nothing changed", {}, {}],
    ["a new image", { image: "r.io/a/web:2" }, { image: "r.io/a/web:2" }],
    ["env and replicas", { env: { A: "1" }, replicas: 2 }, { env: { A: "1" }, replicas: 2 }],
    ["a value equal to the live one is not sent", { cpuMilli: 250, memoryMb: 512 }, { memoryMb: 512 }],
    ["settings the program left out are never sent", { displayName: undefined }, {}],
    ["a new port", { httpPort: 9090 }, { httpPort: 9090 }],
  ])("%s", (_name, extra, body) => {
    expect(containerSettings(live, program(extra as Partial<Container>))).toEqual(body);
  });
});

test("an env map equal but for key order is not sent again", () => {
  const live = containerFromWire({ ...record, env: { A: "1", B: "2" } });
  expect(
    containerSettings(live, { name: "web", image: "r.io/a/web:1", env: { B: "2", A: "1" } } as unknown as Container),
  ).toEqual({});
});

describe("ownEnv: variables links inject belong to the links", () => {
  const live = { LOG_LEVEL: "info", DATABASE_URL: "postgres://u:pw@db/app", CACHE_URL: "redis://c" };
  const injected = new Set(["DATABASE_URL", "CACHE_URL"]);
  test.each([
    ["injected keys are left out", undefined, { LOG_LEVEL: "info" }],
    [
      "a key the program sets itself stays, even if a link injects it",
      { DATABASE_URL: "mine" },
      { LOG_LEVEL: "info", DATABASE_URL: "postgres://u:pw@db/app" },
    ],
    ["keys no link injects stay, set by the program or not (drift)", { LOG_LEVEL: "debug" }, { LOG_LEVEL: "info" }],
  ])("%s", (_name, program, expected) => expect(ownEnv(live, injected, program as any)).toEqual(expected));
});
