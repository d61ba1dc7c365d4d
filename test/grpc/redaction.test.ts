// Every secret the provider knows is blanked out of everything it says: the token, secret inputs
// of any resource it was sent in this process, and secret outputs it made (a database's connection
// string, a link's injected variables), in errors, partial-failure reasons and engine log lines.
// The API and the app's logs here quote them, as a careless server or app might.
import { Engine, initFailure, secret, type GrpcFailure } from "./engine";
import { CONTAINER, LINK, POSTGRES, REGISTRY, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const BAD = "registry.example.com/team/web:2.0.0-bad";

afterEach(() => fixture.sim.control.setSwitches({ crashingImageTags: [] }));

test(
  "a crashed app whose logs print its database's connection string: " + "the failure quotes them with it blanked",
  async () => {
    const db = await engine().created(POSTGRES, "orders", { name: "orders" });
    const connection =
      (db.outputs.connection as { value?: { instructions: string } }).value ?? (db.outputs.connection as any);
    const instructions: string = connection.instructions?.value ?? connection.instructions;
    expect(instructions.length).toBeGreaterThan(10);
    const app = await engine().created(CONTAINER, "crashy", { name: "crashy", image: IMAGE });
    await engine().created(LINK, "crashy-orders", { consumerServiceId: app.id, providerServiceId: db.id });
    fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "GET",
      path: "/logs$",
      status: 200,
      headers: { "content-type": "text/plain" },
      body: `booting\nDATABASE_URL=${instructions}\nError: boom`,
    });
    const up = await engine().up(CONTAINER, "crashy", { name: "crashy", image: BAD }, app);
    expect(up.error?.details).toMatch(/failed to start/);
    for (const text of [up.error!.details, ...(initFailure(up.error!)?.reasons ?? [])]) {
      expect(text).toContain("DATABASE_URL=[secret]");
      expect(text).not.toContain(instructions);
    }
  },
);

test("an API error that quotes a registry's password (sent in this process) shows it blanked", async () => {
  const state = await engine().created(REGISTRY, "quoted", {
    name: "quoted",
    host: "ghcr.io",
    password: secret("first-secret-pw"),
  });
  fixture.sim.control.injectFault({
    kind: "respond_after",
    method: "PUT",
    path: "/registries/",
    status: 400,
    body: JSON.stringify({
      code: "BAD_REQUEST",
      message: "password second-secret-pw (was first-secret-pw) is too weak",
    }),
  });
  const failure = (await engine()
    .up(REGISTRY, "quoted", { name: "quoted", host: "ghcr.io", password: secret("second-secret-pw") }, state)
    .catch((e) => e)) as GrpcFailure;
  expect(failure.details).toMatch(
    /^BAD_REQUEST: password \[secret\] \(was \[secret\]\) is too weak \(HTTP 400, request [\w-]+\)$/,
  );
});

test("a secret env value of another resource sent in this process is blanked from an unrelated error", async () => {
  await engine().created(CONTAINER, "holder", {
    name: "holder",
    image: IMAGE,
    env: secret({ API_KEY: "holder-api-key-123" }),
  });
  fixture.sim.control.injectFault({
    kind: "respond_after",
    method: "POST",
    path: "/registries$",
    status: 400,
    body: JSON.stringify({ code: "BAD_REQUEST", message: "host invalid; note holder-api-key-123" }),
  });
  const failure = (await engine()
    .create(REGISTRY, "other", { name: "other", host: "ghcr.io" })
    .catch((e) => e)) as GrpcFailure;
  expect(failure.details).toMatch(/note \[secret\]/);
  expect(failure.details).not.toContain("holder-api-key-123");
});

test("engine log lines say no secret either", async () => {
  const everything = fixture.plugin.engine.messages.map((m) => m.message).join("\n");
  for (const value of ["first-secret-pw", "second-secret-pw", "holder-api-key-123"])
    expect(everything).not.toContain(value);
});
