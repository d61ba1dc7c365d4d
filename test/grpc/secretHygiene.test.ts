// Secret hygiene across every resource, at the plugin's maximum verbosity and through the
// retry, lookup and error paths (faults injected): the token, registry passwords, connection
// instructions, injected environments and secret env values never appear in anything the plugin
// writes or answers, every output that carries one is wrapped as a secret, and request traces
// never show the Authorization header.
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, isSecret, plain, secret, type GrpcFailure } from "./engine";

const PROJECT = ALICE.projects[0];
const IMAGE = "registry.example.com/acme/web:1.0.0";
const PASSWORD = "registry-password-5ecret";
const NEW_PASSWORD = "registry-password-r0tated";
const ENV_SECRET = "env-value-s3cret";

let sim: Simulator;
let plugin: Plugin;
const errors: string[] = [];
const found: string[] = []; // secret values learnt from outputs
const unwrapped: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, volumeProvisioningMs: 0 });
  plugin = await Plugin.start({ args: ["--logtostderr", "-v=9"] });
  await plugin.configure({
    baseUrl: sim.url,
    token: secret(ALICE.token),
    projectId: PROJECT,
    requestTimeoutSeconds: 1,
  });
});
afterAll(async () => {
  await plugin?.stop();
  await sim?.close();
});

/** Records an error's text (it is scanned too) and returns it. */
function failed(err: GrpcFailure): GrpcFailure {
  errors.push(err.details);
  return err;
}

/** Expects `path` of an output map to be wrapped as a secret; records the value for the scan. */
function expectSecret(where: string, properties: Record<string, any>, path: string[]) {
  let value: any = properties;
  for (const [i, key] of path.entries()) {
    if (isSecret(value)) value = value.value;
    value = value?.[key];
    if (i < path.length - 1 && isSecret(value)) {
      // still fine: wrapped higher up
      unwrapped.push(`${where}: ${path.slice(0, i + 1).join(".")} is wrapped, not only ${path.join(".")}`);
      value = value.value;
    }
  }
  if (!isSecret(value)) unwrapped.push(`${where}: ${path.join(".")} is not wrapped`);
  const raw = plain(value);
  for (const v of typeof raw === "object" && raw ? Object.values(raw) : [raw])
    if (typeof v === "string" && v.length >= 6) found.push(v);
}

test("a lifecycle of every secret-carrying resource, with faults on the way", async () => {
  // Faults exercise the retry, lookup-after-unknown-outcome and error paths, which log the most.
  sim.control.injectFault({ kind: "rate_limit", retryAfter: "0", method: "POST", path: "/registries$" });
  sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/postgres$" });
  sim.control.injectFault({ kind: "status", status: 503, method: "PATCH", path: "/containers/" });
  sim.control.injectFault({ kind: "latency", latencyMs: 1_500, method: "POST", path: "/service-links$" });

  const reg = await plugin.check("hosting:index:Registry", "r", {
    name: "r",
    host: "ghcr.io",
    username: "ci",
    password: secret(PASSWORD),
  });
  const registry = await plugin.create("hosting:index:Registry", "r", reg.inputs);
  expectSecret("registry create", registry.properties, ["password"]);
  const regRead = await plugin.read("hosting:index:Registry", "r", registry.id, registry.properties, reg.inputs);
  expectSecret("registry read", regRead.properties, ["password"]);
  expectSecret("registry read inputs", regRead.inputs, ["password"]);
  const rotated = await plugin.check(
    "hosting:index:Registry",
    "r",
    { name: "r", host: "ghcr.io", username: "ci", password: secret(NEW_PASSWORD) },
    reg.inputs,
  );
  const regUpdated = await plugin.update(
    "hosting:index:Registry",
    "r",
    registry.id,
    regRead.properties,
    rotated.inputs,
    reg.inputs,
  );
  expectSecret("registry update", regUpdated.properties, ["password"]);

  const db = await plugin.check("hosting:index:Postgres", "db", { name: "db" });
  const database = await plugin.create("hosting:index:Postgres", "db", db.inputs);
  expectSecret("postgres create", database.properties, ["connection", "instructions"]);
  const dbRead = await plugin.read("hosting:index:Postgres", "db", database.id, database.properties, db.inputs);
  expectSecret("postgres read", dbRead.properties, ["connection", "instructions"]);

  const app = await plugin.check("hosting:index:Container", "web", {
    name: "web",
    image: IMAGE,
    env: secret({ API_KEY: ENV_SECRET }),
  });
  const container = await plugin.create("hosting:index:Container", "web", app.inputs);
  expectSecret("container create", container.properties, ["env"]);
  const appRead = await plugin.read("hosting:index:Container", "web", container.id, container.properties, app.inputs);
  expectSecret("container read", appRead.properties, ["env"]);

  const link = await plugin.check("hosting:index:ServiceLink", "l", {
    consumerServiceId: container.id,
    providerServiceId: database.id,
  });
  const created = await plugin.create("hosting:index:ServiceLink", "l", link.inputs);
  expectSecret("link create", created.properties, ["injectedEnv"]);
  const linkRead = await plugin.read("hosting:index:ServiceLink", "l", created.id, created.properties, link.inputs);
  expectSecret("link read", linkRead.properties, ["injectedEnv"]);

  // Errors: a name taken (409), a rate limit that outlasts the read's time (429s are retried while it
  // has time: customTimeouts.read of 1 s here), and a bad token (401).
  failed(await plugin.create("hosting:index:Registry", "r", reg.inputs).catch((e) => e));
  sim.control.injectFault({ kind: "rate_limit", retryAfter: "0", method: "GET", times: 100_000 });
  failed(
    await plugin.read("hosting:index:Postgres", "db", database.id, database.properties, db.inputs, 1).catch((e) => e),
  );
  sim.control.clearFaults();
  const wrong = await Plugin.start({ args: ["--logtostderr", "-v=9"] });
  try {
    await wrong.configure({ baseUrl: sim.url, token: secret(`${ALICE.token}-wrong`), projectId: PROJECT });
    failed(await wrong.create("hosting:index:Registry", "x", reg.inputs).catch((e) => e));
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    await wrong.stop();
  }
  errors.push(wrong.stdout, wrong.stderr, ...wrong.engine.messages.map((m) => m.message));
  await new Promise((r) => setTimeout(r, 100)); // engine log messages are one-way: let them land

  expect(errors.filter((e) => /NAME_TAKEN|RATE_LIMITED|UNAUTHORIZED/.test(e))).toHaveLength(3);
  expect(unwrapped.filter((u) => u.includes("not wrapped"))).toEqual([]);
});

test("0 hits: no secret in stdout, stderr, the engine log or any error", () => {
  const everything = [plugin.stdout, plugin.stderr, ...plugin.engine.messages.map((m) => m.message), ...errors].join(
    "\n",
  );
  const secrets = [ALICE.token, `${ALICE.token}-wrong`, PASSWORD, NEW_PASSWORD, ENV_SECRET, ...found];
  expect(found.length).toBeGreaterThanOrEqual(3); // instructions and the injected environment were learnt
  const hits = secrets.filter((s) => everything.includes(s));
  expect(hits).toEqual([]);
  expect(plugin.stderr).toMatch(/POST \/v1\/projects\/.*-> 201/); // verbose request traces really were written
  expect(plugin.stderr).toMatch(/retrying|outcome unknown/);
  // No Authorization header, and no bearer credential of any kind (the 401's "invalid bearer token" is fine).
  expect(everything).not.toMatch(/authorization\s*[:=]|\bBearer\s+[\w.~+/-]{8,}/i);
  expect(plugin.stdout.trim()).toMatch(/^\d+$/);
});
