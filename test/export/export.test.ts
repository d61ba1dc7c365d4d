// hosting-export end to end: a project built through the API as a user would have built it
// (every kind of resource, several of each, names that need mangling), the bundled command run
// as a user runs it (environment variables, a file), and then every entry of the file driven
// through the engine's import sequence against the built plugin: Read with only the id, Check
// of the inputs Read returned, Diff against Read's properties. No Check failure, DIFF_NONE.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ALICE, BOB } from "../../simulator/src";
import { DIFF_NONE, Engine, Plugin, plain } from "../grpc/engine";
import { PROJECT, useFixture } from "../grpc/fixture";

const CLI = resolve(__dirname, "../../dist/hosting-export.js");
const fixture = useFixture({ volumeProvisioningMs: 0 });
const IMAGE = "registry.example.com/team/app:1.0.0";
const SECRETS = { registryPassword: "registry-pass-9f3k", linkEnv: "" };

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "hosting-export-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Calls the API as a user (not through the provider): how the infrastructure came to be. */
async function api(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${fixture.sim.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const ids: Record<string, string> = {};
const alice = (method: string, path: string, body?: unknown) => api(ALICE.token, method, path, body);
const inProject = (path: string) => `/projects/${PROJECT}${path}`;

async function container(name: string, extra: Record<string, unknown> = {}) {
  ids[name] = (await alice("POST", inProject("/containers"), { name, image: IMAGE, http_port: 8080 })).id;
  if (Object.keys(extra).length > 0) await alice("PATCH", inProject(`/containers/${ids[name]}`), extra);
}
async function database(kind: string, name: string) {
  ids[name] = (
    await alice("POST", inProject(`/${kind}`), { name, resources: { cpu_milli: 250, memory_mb: 256, storage_gb: 1 } })
  ).service.id;
}
async function volume(name: string) {
  ids[`volume:${name}`] = (await alice("POST", inProject("/volumes"), { name, size_gb: 2 })).id;
  fixture.sim.control.setVolumeReady(ids[`volume:${name}`]);
}
async function link(consumer: string, provider: string, linkType = "http") {
  await alice("POST", inProject("/service-links"), {
    consumer_service_id: ids[consumer],
    provider_service_id: ids[provider],
    link_type: linkType,
  });
}

beforeAll(async () => {
  // Apps: "data" and "web" are also a volume's and a registry's names, "new" and "hosting" are
  // words a generated program cannot use as variables, "web-api2" and the database "web-api-2"
  // would be one variable (webApi2), and "jobs--runner" mangles to "jobs-runner".
  await container("web", { env: { LOG_LEVEL: "info", FEATURE_X: "on" }, replicas: 2 });
  await container("web-api", { public: true, display_name: "Web API" });
  await container("web-api2");
  await container("worker", { replicas: 1 });
  await container("data", { replicas: 1 });
  await container("new");
  await container("hosting");
  await container("jobs--runner");
  await alice("POST", inProject(`/containers/${ids.hosting}/stop`));
  await database("postgres", "orders-db");
  await database("postgres", "web-api-2");
  await database("mysql", "legacy");
  await database("mysql", "reporting");
  await database("redis", "cache");
  await database("redis", "sessions");
  await volume("data");
  await volume("uploads");
  await volume("web");
  await volume("scratch");
  await alice("POST", inProject(`/volumes/${ids["volume:data"]}/attach`), {
    container_id: ids.worker,
    mount_path: "/data",
  });
  await alice("POST", inProject(`/volumes/${ids["volume:uploads"]}/attach`), {
    container_id: ids.data,
    mount_path: "/srv/uploads",
    read_only: true,
  });
  // Links also write their variables into the consumer's env here: they must not be imported as the app's.
  fixture.sim.control.setSwitches({ linkEnvInConsumer: true });
  await link("web", "orders-db");
  await link("web", "cache");
  await link("web", "cache", "tcp");
  await link("worker", "cache");
  await link("web-api", "web-api-2");
  for (const [name, host] of [
    ["ghcr", "ghcr.io"],
    ["docker-hub", "registry-1.docker.io"],
    ["web", "registry.example.com"],
  ]) {
    await alice("POST", "/registries", { name, host, username: "ci", password: SECRETS.registryPassword });
  }
  await alice("POST", "/registries", { name: "anonymous", host: "public.example.com" });
  // Another user's world, which alice's export must never show.
  await api(BOB.token, "POST", `/projects/${BOB.projects[0]}/containers`, {
    name: "bobs-app",
    image: IMAGE,
    http_port: 8080,
  });
  await api(BOB.token, "POST", "/registries", { name: "bobs-registry", host: "ghcr.io" });
  const links = (await alice("GET", inProject("/service-links"))).links as Array<{
    injected_env: Record<string, string>;
  }>;
  SECRETS.linkEnv = Object.values(links[0].injected_env)[0];
});

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** The bundled command, run as a user runs it: configured through the environment. */
function runExport(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const base = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOSTING_BASE_URL: fixture.sim.url,
    HOSTING_TOKEN: ALICE.token,
    HOSTING_PROJECT_ID: PROJECT,
  };
  return new Promise((res) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...base, ...env } as NodeJS.ProcessEnv, cwd: work },
      (err, stdout, stderr) =>
        res({ status: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

interface Entry {
  type: string;
  name: string;
  id: string;
  version?: string;
  pluginDownloadURL?: string;
}

/** How many resources alice's project holds, per type, by the simulator's own account. */
/** What the file holds of each type; `asRead`: what hosting-export reads of each (every link, those apps hold too). */
function world({ asRead = false } = {}) {
  const state = fixture.sim.control.snapshot();
  const services = state.services.filter((s) => s.project_id === PROJECT);
  const volumes = state.volumes.filter((v) => v.project_id === PROJECT).map((v) => v.id);
  const count = (type: string) => services.filter((s) => s.type === type).length;
  return {
    "hosting:index:Container": count("container"),
    "hosting:index:Postgres": count("postgres"),
    "hosting:index:Mysql": count("mysql"),
    "hosting:index:Redis": count("redis"),
    "hosting:index:Volume": volumes.length,
    "hosting:index:VolumeAttachment": state.attachments.filter((a) => volumes.includes(a.volume_id)).length,
    // An app's http links are its Container's `links`: the file leaves them out.
    "hosting:index:ServiceLink": state.links.filter(
      (l) =>
        l.project_id === PROJECT &&
        (asRead ||
          !(l.link_type === "http" && services.some((s) => s.id === l.consumer_service_id && s.type === "container"))),
    ).length,
    "hosting:index:Registry": state.registries.filter((r) => r.user_id === ALICE.userId).length,
  };
}

const countsOf = (entries: Entry[]) => {
  const counts: Record<string, number> = {};
  for (const e of entries) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
};

describe("hosting-export against the simulator", () => {
  let run: Run;
  let entries: Entry[];

  beforeAll(async () => {
    run = await runExport(["--out", "hosting-import.json"]);
    entries = JSON.parse(readFileSync(join(work, "hosting-import.json"), "utf8")).resources;
  });

  test("exits 0 and writes one entry per resource of the project and per registry of the user", () => {
    expect(run.status).toBe(0);
    expect(countsOf(entries)).toEqual(world());
    expect(entries).toHaveLength(25);
  });

  test("each entry is a type, a name, an id and the plugin (version, download URL), and nothing else: no property, no secret", () => {
    const text = readFileSync(join(work, "hosting-import.json"), "utf8");
    const pkg = require("../../package.json");
    for (const entry of entries)
      expect(Object.keys(entry).sort()).toEqual(["id", "name", "pluginDownloadURL", "type", "version"]);
    expect(new Set(entries.map((e) => e.version))).toEqual(new Set([pkg.version]));
    expect(new Set(entries.map((e) => e.pluginDownloadURL))).toEqual(new Set([pkg.pulumi.pluginDownloadURL]));
    for (const secret of [ALICE.token, SECRETS.registryPassword, SECRETS.linkEnv]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password|instructions|injected/i);
  });

  test("names come from the API names: readable, unique even as variables, valid in every language", () => {
    const names = entries.map((e) => e.name);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(new Set(names.map((n) => n.replace(/-/g, ""))).size).toBe(names.length);
    const nameOf = (type: string, id: string) =>
      entries.find((e) => e.type === `hosting:index:${type}` && e.id.endsWith(id))?.name;
    expect(nameOf("Container", ids["web-api"])).toBe("web-api");
    expect(nameOf("Container", ids.data)).toBe("data-container");
    expect(nameOf("Volume", ids["volume:data"])).toBe("data-volume");
    expect(nameOf("Container", ids.web)).toBe("web-container");
    expect(nameOf("Volume", ids["volume:web"])).toBe("web-volume");
    expect(nameOf("Container", ids.new)).toBe("new-container");
    expect(nameOf("Container", ids.hosting)).toBe("hosting-container");
    expect(nameOf("Container", ids["jobs--runner"])).toBe("jobs-runner");
    expect([nameOf("Container", ids["web-api2"]), nameOf("Postgres", ids["web-api-2"])].sort()).toEqual([
      "web-api-2-postgres",
      "web-api2-container",
    ]);
    expect(nameOf("VolumeAttachment", `${ids["volume:data"]}:${ids.worker}`)).toBe("data-on-worker");
    expect(nameOf("VolumeAttachment", `${ids["volume:uploads"]}:${ids.data}`)).toBe("uploads-on-data");
    // The apps' http links are their Containers' `links`; only the tcp one is a ServiceLink of its own.
    expect(
      entries
        .filter((e) => e.type === "hosting:index:ServiceLink")
        .map((e) => e.name)
        .sort(),
    ).toEqual(["web-to-cache-tcp"]);
    expect(entries.filter((e) => e.type === "hosting:index:Registry").map((e) => e.name)).toEqual([
      "anonymous",
      "docker-hub",
      "ghcr",
      "web-registry",
    ]);
  });

  test("ids are what the provider's import accepts: <projectId>/<id>, <projectId>/<volumeId>:<containerId>, a registry's bare id", () => {
    for (const entry of entries) {
      if (entry.type === "hosting:index:Registry") expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
      else if (entry.type === "hosting:index:VolumeAttachment")
        expect(entry.id).toMatch(new RegExp(`^${PROJECT}/[0-9a-f-]{36}:[0-9a-f-]{36}$`));
      else expect(entry.id).toMatch(new RegExp(`^${PROJECT}/[0-9a-f-]{36}$`));
    }
  });

  test("another user's resources are not in it", () => {
    expect(JSON.stringify(entries)).not.toMatch(/bobs/);
  });

  test(
    "progress goes to stderr, one line per kind, " + "then a summary that names the registries needing a password",
    () => {
      expect(run.stdout).toBe("");
      for (const [type, count] of Object.entries(world({ asRead: true })))
        expect(run.stderr).toContain(`reading ${type.split(":")[2]}… ${count}\n`);
      expect(run.stderr).toMatch(/wrote hosting-import\.json: 25 resources\n\s+Registry\s+4\n\s+Container\s+8\n/);
      expect(run.stderr).toMatch(
        /never returns a Registry's password, so none is imported for anonymous, docker-hub, ghcr, web-registry/,
      );
      expect(run.stderr).toContain(
        'web-registry: pulumi config set --secret webRegistryPassword   then in the program: password: config.requireSecret("webRegistryPassword")',
      );
      expect(run.stderr).toContain("next: pulumi import --file hosting-import.json --out imported.ts");
      expect(run.stderr).not.toContain(ALICE.token);
    },
  );

  test("a second run writes the same file (names are stable)", async () => {
    const again = await runExport(["--out", "-"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(readFileSync(join(work, "hosting-import.json"), "utf8"));
    expect(again.stderr).toContain("reading Registry… 4");
    expect(again.stderr).not.toContain("next:");
  });

  describe("every entry through the engine's import sequence", () => {
    /**
     * `pulumi import --file` (Read with only the id, Check of Read's inputs, whose failures the CLI warns
     * of), then the generated program's preview: Check(olds = the imported inputs, news = the program,
     * which is Read's inputs), Diff.
     */
    async function importSequence(plugin: Plugin, entry: Entry) {
      const engine = new Engine(plugin);
      const { read, state, warnings } = await engine.importFile(entry.type, entry.name, entry.id);
      const preview = await engine.preview(entry.type, entry.name, read.inputs, state);
      if (!preview.diff) throw new Error(`${entry.name}: the preview's Check failed: ${JSON.stringify(preview)}`);
      return { read, checked: { failures: warnings }, diff: preview.diff };
    }

    test("with the provider's default project: no Check failure, DIFF_NONE, and the bare id in state", async () => {
      const problems: string[] = [];
      for (const entry of entries) {
        const { read, checked, diff } = await importSequence(fixture.plugin, entry);
        const bare = entry.id.split("/").pop();
        if (read.id !== bare) problems.push(`${entry.name}: Read answered id ${JSON.stringify(read.id)}`);
        if (checked.failures.length > 0)
          problems.push(`${entry.name}: Check failed: ${JSON.stringify(checked.failures)}`);
        if (diff.changes !== DIFF_NONE) problems.push(`${entry.name}: Diff ${JSON.stringify(diff.diffs)}`);
        // The generated code needs no projectId: it is the provider's default, which Check fills in.
        if ("projectId" in read.inputs) problems.push(`${entry.name}: Read's inputs name the default project`);
      }
      expect(problems).toEqual([]);
    });

    test(
      "what import reads is the live resource: a registry without its password, " + "an app without link variables",
      async () => {
        const registry = entries.find((e) => e.name === "ghcr")!;
        const read = await fixture.plugin.read(registry.type, registry.name, registry.id);
        expect(plain(read.inputs)).toEqual({ name: "ghcr", host: "ghcr.io", username: "ci" });
        const web = entries.find((e) => e.name === "web-container")!;
        const app = await fixture.plugin.read(web.type, web.name, web.id);
        expect(Object.keys(fixture.sim.control.snapshot().services.find((s) => s.id === ids.web)!.env).sort()).toEqual([
          "DATABASE_URL",
          "FEATURE_X",
          "LOG_LEVEL",
          "REDIS_URL",
        ]);
        expect(plain(app.inputs)).toMatchObject({
          name: "web",
          image: IMAGE,
          env: { LOG_LEVEL: "info", FEATURE_X: "on" },
          replicas: 2,
          running: true,
        });
        expect(Object.keys(plain(app.inputs).env).sort()).toEqual(["FEATURE_X", "LOG_LEVEL"]);
        expect([...plain(app.inputs).links].sort()).toEqual([ids["orders-db"], ids.cache].sort());
        const stopped = entries.find((e) => e.name === "hosting-container")!;
        expect((await fixture.plugin.read(stopped.type, stopped.name, stopped.id)).inputs).toMatchObject({
          running: false,
        });
        const attachment = entries.find((e) => e.name === "uploads-on-data")!;
        expect((await fixture.plugin.read(attachment.type, attachment.name, attachment.id)).inputs).toMatchObject({
          mountPath: "/srv/uploads",
          readOnly: true,
        });
      },
    );

    test("into a stack with no default project, the same file imports as well (ids carry their project)", async () => {
      const plugin = await Plugin.start();
      try {
        await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token });
        const problems: string[] = [];
        for (const entry of entries) {
          const { read, checked, diff } = await importSequence(plugin, entry);
          if (checked.failures.length > 0 || diff.changes !== DIFF_NONE)
            problems.push(`${entry.name}: ${JSON.stringify({ failures: checked.failures, diffs: diff.diffs })}`);
          if (entry.type !== "hosting:index:Registry" && read.inputs.projectId !== PROJECT)
            problems.push(`${entry.name}: no projectId in Read's inputs`);
        }
        expect(problems).toEqual([]);
      } finally {
        await plugin.stop();
      }
    });
  });
});

describe("hosting-export's configuration and failures", () => {
  test("flags come before the environment, as the provider's configuration does", async () => {
    const run = await runExport(["--project", PROJECT, "--base-url", fixture.sim.url, "--out", "-"], {
      HOSTING_PROJECT_ID: BOB.projects[0],
      HOSTING_BASE_URL: "https://api.invalid",
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).resources.length).toBeGreaterThan(0);
  });

  test("--token works, with a warning that the environment variable is better", async () => {
    const run = await runExport(["--token", ALICE.token, "--out", "-"], { HOSTING_TOKEN: "" });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning: --token shows in the process list.*prefer HOSTING_TOKEN/);
  });

  test.each([
    [["--bogus"], {}, /Unknown option '--bogus'/],
    [["stray"], {}, /Unexpected argument 'stray'/],
    [[], { HOSTING_TOKEN: "" }, /missing a token: set HOSTING_TOKEN/],
    [
      [],
      { HOSTING_BASE_URL: undefined, HOSTING_PROJECT_ID: undefined },
      new RegExp(
        /missing the API's base URL: set HOSTING_BASE_URL or pass --base-url; /.source +
          /the project: set HOSTING_PROJECT_ID or pass --project/.source,
      ),
    ],
    [["--project", "web"], {}, /--project "web" is not an id/],
    [["--base-url", "http://api.example.com"], {}, /plain http:\/\/ to a non-loopback host/],
  ] as Array<[string[], Record<string, string | undefined>, RegExp]>)(
    "bad usage %j (environment %j) exits 2 and says what is wrong",
    async (args, env, message) => {
      const run = await runExport(args, env);
      expect(run).toMatchObject({ status: 2, stdout: "" });
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain("hosting-export --help");
    },
  );

  test("--help prints the usage and exits 0", async () => {
    const run = await runExport(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: hosting-export/);
    expect(run.stdout).toContain("pulumi import --file hosting-import.json");
  });

  test("a wrong token exits 1 with the API's message, and never prints the token", async () => {
    const wrong = "sim-token-not-a-user-42";
    const run = await runExport(["--out", "never.json"], { HOSTING_TOKEN: wrong });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("reading Registry… failed\n");
    expect(run.stderr).toMatch(
      /reading the project failed: UNAUTHORIZED: .*\(HTTP 401, request .*\) \(check HOSTING_TOKEN\)/,
    );
    expect(run.stderr).not.toContain(wrong);
    expect(() => readFileSync(join(work, "never.json"))).toThrow();
  });

  test("a project that is not the user's exits 1 and says why it may be", async () => {
    const run = await runExport(["--project", BOB.projects[0], "--out", "-"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `project ${BOB.projects[0]} reads as 404 NOT_FOUND: the token cannot see it (the API answers 404 both for a project that does not exist and for one the token's user may not see). Check --project (or HOSTING_PROJECT_ID) and HOSTING_TOKEN: another account's token?`,
    );
    // The advice is the export's own: it has no stack, so no stack configuration and no state to mend.
    expect(run.stderr).not.toMatch(/hosting:token|hosting:projectId|pulumi state/);
  });

  test("a file that cannot be written exits 1", async () => {
    const run = await runExport(["--out", join(work, "no-such-dir", "x.json")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/could not write .*no-such-dir/);
  });
});
