// Secrets stay secret under the real CLI (issue 42, item 3): the provider's token, a registry password,
// a database's connection instructions, the variables a link injects into an app and a secret value
// of an app's env are on the platform (the simulator's records say so) and in the stack (`stack output
// --show-secrets` says so), and in plain text nowhere else: not in `pulumi stack export`, nor in what
// the CLI prints for up, preview --diff, preview --json, up --json, refresh (with a secret changed
// outside Pulumi), stack output, nor in the engine's JSON event stream (--event-log, which the
// Automation API reads). The program is YAML, run by the CLI in its folder, as a user runs it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useE2E } from "./harness";

const e2e = useE2E();

const PROGRAM = {
  config: {
    registryPassword: { type: "string", secret: true },
    apiKey: { type: "string", secret: true },
  },
  resources: {
    registry: {
      type: "hosting:Registry",
      properties: { host: "ghcr.io", username: "ci", password: "${registryPassword}" },
    },
    db: { type: "hosting:Postgres" },
    web: {
      type: "hosting:Container",
      properties: {
        image: "registry.example.com/team/web:1.0.0",
        env: { LOG_LEVEL: "info", API_KEY: "${apiKey}" },
        links: ["${db.id}"],
      },
    },
  },
  outputs: {
    url: "${web.publicUrl}",
    instructions: "${db.connection.instructions}",
    injected: "${web.injectedEnv}",
  },
};

const SECRETS = {
  registryPassword: "e2e-registry-pass-7f3k1q",
  apiKey: "e2e-api-key-91xzp0",
  newApiKey: "e2e-api-key-rotated-2m8w",
  drifted: "e2e-api-key-set-by-hand-5tq9",
};

test("no secret appears in plain text in the stack's export or in anything the CLI prints", async () => {
  const dir = await e2e.yamlStack("secrets", PROGRAM, {
    config: {
      registryPassword: { value: SECRETS.registryPassword, secret: true },
      apiKey: { value: SECRETS.apiKey, secret: true },
    },
  });
  const printed: Record<string, string> = {};
  const events = (name: string) => join(dir, `${name}.events.json`);
  /** `pulumi <args>`, which must succeed; what it prints (both streams) is kept under `name`, its events beside. */
  const run = async (name: string, args: string[], { events: withEvents = false } = {}) => {
    const extra = withEvents ? [`--event-log=${events(name)}`] : [];
    const result = await e2e.cli([...args, ...extra], { cwd: dir, env: { PULUMI_DEBUG_COMMANDS: "true" } });
    expect({ name, code: result.code }).toEqual({ name, code: 0 });
    printed[name] = `${result.stdout}${result.stderr}`;
    if (withEvents) printed[`${name} events`] = readFileSync(events(name), "utf8");
    return printed[name];
  };

  await run("up", ["up", "--yes"], { events: true });
  await run("config set", ["config", "set", "--secret", "apiKey", SECRETS.newApiKey]);
  const diff = await run("preview --diff", ["preview", "--diff"], { events: true });
  expect(diff).toMatch(/API_KEY\s*: \[secret\]/);
  await run("preview --json", ["preview", "--json"]);
  await run("up --json", ["up", "--yes", "--json"]);
  const [web] = e2e.records("services").filter((s) => s.type === "container");
  expect(web.env.API_KEY).toBe(SECRETS.newApiKey);

  // A secret changed outside Pulumi: refresh shows the drift, never the value.
  e2e.sim.control.mutate("services", web.id, { env: { ...web.env, API_KEY: SECRETS.drifted } });
  const refresh = await run("refresh", ["refresh", "--yes", "--diff"], { events: true });
  expect(refresh).toMatch(/changed outside Pulumi .*\(env\.API_KEY\)/); // a secret value keeps its path
  await run("up after drift", ["up", "--yes"], { events: true });
  expect(e2e.records("services").find((s) => s.id === web.id).env.API_KEY).toBe(SECRETS.newApiKey);

  await run("stack output", ["stack", "output"]);
  await run("stack output --json", ["stack", "output", "--json"]);
  await run("stack export", ["stack", "export"]);

  // The secrets as the platform has them: each of them is real, and reached the platform.
  const [db] = e2e.records("services").filter((s) => s.type === "postgres");
  const [link] = e2e.records("links");
  const [registry] = e2e.records("registries");
  expect(registry.password).toBe(SECRETS.registryPassword);
  const platform = {
    token: e2e.providerConfig["hosting:token"].value,
    instructions: db.connection.instructions,
    ...Object.fromEntries(Object.entries(link.injected_env).map(([key, value]) => [`injected ${key}`, value])),
  };
  expect(Object.keys(platform)).toContain("injected DATABASE_URL");
  // The stack holds them: they are hidden, not missing.
  const shown = JSON.parse((await e2e.cli(["stack", "output", "--json", "--show-secrets"], { cwd: dir })).stdout);
  expect(shown.instructions).toBe(db.connection.instructions);
  expect(shown.injected).toEqual(link.injected_env);

  const secrets = { ...SECRETS, ...platform };
  const leaks = Object.entries(printed).flatMap(([name, text]) =>
    Object.entries(secrets)
      .filter(([, value]) => text.includes(value as string))
      .map(([secret]) => `${name} shows ${secret}`),
  );
  expect(leaks).toEqual([]);
  // What was searched holds the places where the secrets would be (not empty output).
  expect(printed["stack export"]).toContain('"ciphertext"');
  expect(printed["up events"]).toContain('"resourcePreEvent"');

  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
  expect([e2e.records("services"), e2e.records("registries")]).toEqual([[], []]);
});
