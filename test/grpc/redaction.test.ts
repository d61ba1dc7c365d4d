// Every secret the provider knows is blanked out of everything it says: the token, secret inputs
// of any resource it was sent in this process, and secret outputs it made (a database's connection
// string, a link's injected variables), in errors, partial-failure reasons and engine log lines.
// The API and the app's logs here quote them, as a careless server or app might: whole, in part
// (a long secret's first 64 characters, 24 from its middle), or in the other Unicode normal form.
// The plugin runs at -v=9, and what it writes to stderr is checked last.
import * as grpc from "@grpc/grpc-js";
import { Engine, initFailure, secret, type GrpcFailure } from "./engine";
import { CONTAINER, LINK, POSTGRES, REGISTRY, useFixture } from "./fixture";

const fixture = useFixture({ pluginArgs: ["--logtostderr", "-v=9"] });
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

/** A variable name that says too much, in a map the program made secret as a whole. */
const SECRET_KEY = "BILLING_LEDGER_SIGNING_KEY_PATH";

test("an API error that echoes the keys of an env secret as a whole shows neither its keys nor its values", async () => {
  // echo_env: a 400 that quotes every variable of the request, name and value, before the API acts.
  fixture.sim.control.injectFault({ kind: "echo_env", method: "PATCH", path: "/containers/" });
  const created = await engine().create(CONTAINER, "keyed", {
    name: "keyed",
    image: IMAGE,
    env: secret({ [SECRET_KEY]: "ledger-v4lue-77", DB_PASS: "pw-0003-s3cret" }),
  });
  expect(fixture.sim.control.requests().some((r) => r.fault === "echo_env")).toBe(true);
  const texts = [created.error!.details, ...(initFailure(created.error!)?.reasons ?? [])];
  expect(texts[0]).toMatch(/refuses the variables "\[secret\]" = "\[secret\]", "\[secret\]" = "\[secret\]"/);
  for (const text of texts)
    for (const value of [SECRET_KEY, "DB_PASS", "ledger-v4lue-77"]) expect(text).not.toContain(value);
});

test("engine log lines say no secret either", async () => {
  const everything = fixture.plugin.engine.messages.map((m) => m.message).join("\n");
  for (const value of ["first-secret-pw", "second-secret-pw", "holder-api-key-123", SECRET_KEY, "DB_PASS"])
    expect(everything).not.toContain(value);
});

const LONG = "Rg7tPq2vXw9zLm4nBc8dFh3jKs6yUe1aTo5iWr0pQx7vZb2nMc4lKj8hGf6dSa3qWe9rTy1uIo5pAs7dFg2hJk4lZx6cVb8n";
const ACCENTED = "Zürich-Kennwort-Ökonomie-2024";
const SECRET_ID = "registry-id-s3cret-0042";
/** Everything secret this file sends, and the pieces of them an API might echo. */
const NEVER_SHOWN = [
  LONG.slice(0, 64),
  LONG.slice(40, 64),
  LONG.slice(70, 86),
  ACCENTED.normalize("NFC"),
  ACCENTED.normalize("NFD"),
  ACCENTED.normalize("NFD").slice(3, 21),
  "hunter2",
  SECRET_ID,
  SECRET_KEY,
];

/** The failure of a registry lookup whose answer is replaced by a 400 that says `message`. */
async function listFailure(message: string): Promise<GrpcFailure> {
  fixture.sim.control.injectFault({
    kind: "respond_after",
    method: "GET",
    path: "/registries$",
    status: 400,
    body: JSON.stringify({ code: "BAD_REQUEST", message }),
  });
  return fixture.plugin.invoke("hosting:index:getRegistries", {}).then(
    () => {
      throw new Error("the lookup did not fail");
    },
    (err: GrpcFailure) => err,
  );
}

test("an API error quoting a long secret's first 64 characters, or 24 from its middle, shows neither", async () => {
  await engine().created(REGISTRY, "long", { name: "long", host: "ghcr.io", password: secret(LONG) });
  const failure = await listFailure(`password '${LONG.slice(0, 64)}…' too long; near "${LONG.slice(40, 64)}"`);
  expect(failure.code).toBe(grpc.status.INVALID_ARGUMENT);
  expect(failure.details).toMatch(
    /^BAD_REQUEST: password '\[secret\]…' too long; near "\[secret\]" \(HTTP 400, request [\w-]+\)$/,
  );
});

test.each([
  ["NFC", "NFD"],
  ["NFD", "NFC"],
] as const)("a password sent in %s and echoed in %s is blanked", async (sent, echoed) => {
  const name = `accented-${sent.toLowerCase()}`;
  await engine().created(REGISTRY, name, { name, host: "ghcr.io", password: secret(ACCENTED.normalize(sent)) });
  const failure = await listFailure(`password ${ACCENTED.normalize(echoed)} is weak`);
  expect(failure.details).toMatch(/^BAD_REQUEST: password \[secret\] is weak/);
});

test("a short secret is blanked where it appears; one that is a plain word is not, so its place does not give it away", async () => {
  await fixture.plugin.check(CONTAINER, "words", {
    name: "words",
    image: IMAGE,
    env: secret({ MODE: "container", TARGET: "projects", PASSWORD: "hunter2" }),
  });
  const failure = await listFailure("the container is busy in projects; password hunter2 refused");
  expect(failure.details).toMatch(/^BAD_REQUEST: the container is busy in projects; password \[secret\] refused/);
});

test("a secret id is blanked from the error and from the request trace", async () => {
  const failure = await fixture.plugin.invoke("hosting:index:getRegistry", { id: secret(SECRET_ID) }).then(
    () => {
      throw new Error("the lookup did not fail");
    },
    (err: GrpcFailure) => err,
  );
  expect(failure.details).toContain("[secret]");
  expect(fixture.plugin.stderr).toMatch(/GET \/v1\/registries\/\[secret\] -> 404/);
});

test("nothing the plugin wrote to stderr at -v=9, nor to the engine, holds a secret or a run of one", () => {
  expect(fixture.plugin.stderr).toMatch(/GET \/v1\/registries -> 400/); // the traces really were written
  const everything = [fixture.plugin.stderr, ...fixture.plugin.engine.messages.map((m) => m.message)].join("\n");
  for (const value of NEVER_SHOWN) expect(everything).not.toContain(value);
});
