// The state file (one world across `pulumi up`, a simulator restart and `pulumi refresh`) and the CLI.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { request } from "undici";
import { ALICE, startSimulator, type Simulator, type SimulatorOptions } from "../../simulator/src";
import { FLAGS } from "../../simulator/src/flags";
import { Client, codeOf, createContainer, createVolume, eventually, p } from "./helpers";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sim-state-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A simulator for `body`, as alice, closed afterwards whatever happens. */
async function withSimulator(
  options: SimulatorOptions,
  body: (alice: Client, sim: Simulator) => Promise<void>,
): Promise<void> {
  const sim = await startSimulator(options);
  try {
    await body(new Client(sim.url, ALICE.token), sim);
  } finally {
    await sim.close();
  }
}

describe("persistence with a state file", () => {
  test("the world survives a restart: services, volumes, attachments, registries, links, logs", async () => {
    const stateFile = join(dir, "world.json");
    const first = await startSimulator({ stateFile, volumeProvisioningMs: 0 });
    const alice = new Client(first.url, ALICE.token);
    const web = await createContainer(alice);
    const api = await createContainer(alice, { name: "api" });
    const volume = await createVolume(alice);
    await alice.post(p(`/volumes/${volume.id}/attach`), { container_id: web.id, mount_path: "/data" });
    await alice.post("/v1/registries", { name: "ghcr", host: "ghcr.io", password: "pw" });
    await alice.post(p("/service-links"), { consumer_service_id: web.id, provider_service_id: api.id });
    first.control.setProjectSuspended(ALICE.projects[0], true);
    const before = first.control.snapshot();
    await first.close();

    const second = await startSimulator({ stateFile });
    try {
      expect(second.control.snapshot()).toEqual(before);
      const again = new Client(second.url, ALICE.token);
      expect((await again.get(p(`/volumes/${volume.id}`))).body.attachment).toMatchObject({ container_id: web.id });
      expect((await again.get(p(`/containers/${web.id}/logs`))).text).toContain("attached at /data");
      expect(codeOf(await again.post(p("/volumes"), { name: "more", size_gb: 1 }))).toBe("PROJECT_SUSPENDED");
    } finally {
      await second.close();
    }
  });

  test("a provisioning volume completes after a restart (the ready-at time is stored, not a timer)", async () => {
    const stateFile = join(dir, "provisioning.json");
    const first = await startSimulator({ stateFile, volumeProvisioningMs: 200 });
    const volume = await createVolume(new Client(first.url, ALICE.token));
    await first.close();

    await withSimulator({ stateFile }, async (alice) => {
      const ready = await eventually(
        () => alice.get(p(`/volumes/${volume.id}`)),
        (res) => res.body.status === "running",
      );
      expect(ready.body.status_reason).toBe("");
    });
  });

  test(
    "a pending start that will fail still fails after a restart (the outcome is stored, " + "not re-decided)",
    async () => {
      const stateFile = join(dir, "crashing.json");
      const bad = "registry.sim.hosting.test/acme/web:2.0.0-bad";
      const first = await startSimulator({ stateFile, serviceStartMs: 300, crashingImageTags: ["2.0.0-bad"] });
      const created = await createContainer(new Client(first.url, ALICE.token), { image: bad });
      const good = await createContainer(new Client(first.url, ALICE.token), { name: "api" });
      await first.close();

      // restarted without the switch: the pending starts end as they were decided
      await withSimulator({ stateFile }, async (alice) => {
        const read = async () => (await alice.get(p("/containers"))).body as Array<{ id: string; status: string }>;
        const settled = await eventually(read, (services) => services.every((s) => s.status !== "provisioning"));
        expect(settled.map((s) => [s.id, s.status])).toEqual([
          [created.id, "failed"],
          [good.id, "running"],
        ]);
        const logs = (await alice.get(p(`/containers/${created.id}/logs`))).text;
        expect(logs).toContain(`starting ${bad}`);
        expect(logs).toContain("container failed to start: exit code 1 (CrashLoopBackOff)");
      });
    },
  );

  test("a start settled in memory settles the same way again from the file (same status, same log lines)", async () => {
    const stateFile = join(dir, "settle-twice.json");
    const first = await startSimulator({ stateFile, crashingImageTags: ["2.0.0-bad"] });
    await createContainer(new Client(first.url, ALICE.token), { image: "acme/web:2.0.0-bad" });
    const settledInMemory = first.control.snapshot(); // settles; a read writes no file
    await first.close();
    await withSimulator({ stateFile }, async (_alice, second) => {
      expect(second.control.snapshot()).toEqual(settledInMemory);
    });
  });

  test("a state file from before start outcomes were stored: a pending start ends running", async () => {
    const stateFile = join(dir, "older.json");
    const first = await startSimulator({ stateFile, serviceStartMs: 60_000 });
    const web = await createContainer(new Client(first.url, ALICE.token));
    await first.close();
    const saved = JSON.parse(readFileSync(stateFile, "utf8"));
    saved.state.services[0].ready_at = 0;
    delete saved.state.services[0].start_outcome;
    require("node:fs").writeFileSync(stateFile, JSON.stringify(saved));

    await withSimulator({ stateFile }, async (alice) => {
      expect((await alice.get(p("/containers"))).body[0]).toMatchObject({ id: web.id, status: "running" });
    });
  });

  test("writes are atomic: the file is whole JSON after each change, no temp file is left", async () => {
    const stateFile = join(dir, "atomic.json");
    await withSimulator({ stateFile }, async (alice, sim) => {
      await createContainer(alice);
      const saved = JSON.parse(readFileSync(stateFile, "utf8"));
      expect(saved.version).toBe(1);
      expect(saved.state.services.map((s: { name: string }) => s.name)).toEqual(["web"]);
      sim.control.mutate("services", saved.state.services[0].id, { image: "acme/web:2" });
      expect(JSON.parse(readFileSync(stateFile, "utf8")).state.services[0].image).toBe("acme/web:2");
      expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });
  });

  test("reset empties the state file too", async () => {
    const stateFile = join(dir, "reset.json");
    const sim = await startSimulator({ stateFile });
    await createContainer(new Client(sim.url, ALICE.token));
    sim.control.reset();
    await sim.close();
    expect(JSON.parse(readFileSync(stateFile, "utf8")).state.services).toEqual([]);
  });

  test("a file that is not a state file is refused at start", async () => {
    const stateFile = join(dir, "foreign.json");
    require("node:fs").writeFileSync(stateFile, JSON.stringify({ hello: "world" }));
    await expect(startSimulator({ stateFile })).rejects.toThrow(/not a simulator state file/);
  });
});

describe("cli (dist/simulator.js)", () => {
  let cli: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    cli = join(dir, "simulator.js");
    await build({
      entryPoints: [join(__dirname, "../../simulator/src/cli.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile: cli,
      logLevel: "warning",
    });
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  });

  /** Start the CLI and resolve with the URL from its first line. */
  function run(args: string[]): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const lines: string[] = [];
    return new Promise((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        lines.push(line);
        const match = /^hosting simulator listening on (http:\/\/\S+)$/.exec(line);
        if (match) setTimeout(() => resolve({ child, url: match[1], lines }), 50);
      });
      child.once("exit", (code) => reject(new Error(`cli exited with ${code}: ${lines.join("\n")}`)));
    });
  }

  test("flags set the switches; it prints the URL and the default users; SIGTERM stops it", async () => {
    const stateFile = join(dir, "cli.json");
    const { child, url, lines } = await run([
      "--port",
      "0",
      "--state",
      stateFile,
      "--volumes-disabled",
      "--error-shape",
      "error",
      "--quiet",
    ]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.join("\n")).toContain("sim-token-alice");
    expect(lines.join("\n")).toContain(ALICE.projects[0]);

    const alice = new Client(url, ALICE.token);
    const res = await alice.post(p("/volumes"), { name: "data", size_gb: 1 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "BLOCK_VOLUME_DISABLED", request_id: res.headers.get("x-request-id") });
    await createContainer(alice);
    expect(existsSync(stateFile)).toBe(true);

    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  test("--crashing-image-tags and --link-env-in-consumer", async () => {
    const { child, url } = await run([
      "--port",
      "0",
      "--quiet",
      "--crashing-image-tags",
      " 2.0.0-bad, oops ",
      "--link-env-in-consumer",
    ]);
    const switches = (await new Client(url).get("/_sim/switches")).body;
    expect(switches).toMatchObject({ crashingImageTags: ["2.0.0-bad", "oops"], linkEnvInConsumer: true });
    const alice = new Client(url, ALICE.token);
    const web = await createContainer(alice, { image: "acme/web:oops" });
    expect((await alice.get(p("/containers"))).body[0]).toMatchObject({ id: web.id, status: "failed" });
    child.kill("SIGTERM");
  });

  test("without those flags both switches are off", async () => {
    const { child, url } = await run(["--port", "0", "--quiet"]);
    expect((await new Client(url).get("/_sim/switches")).body).toMatchObject({
      crashingImageTags: [],
      linkEnvInConsumer: false,
    });
    child.kill("SIGTERM");
  });

  test("--billing and --capacity-gb", async () => {
    const { child, url } = await run(["--port", "0", "--billing", "suspended", "--quiet"]);
    const res = await new Client(url, ALICE.token).post(p("/redis"), { name: "cache" });
    expect(codeOf(res)).toBe("ACCOUNT_SUSPENDED");
    child.kill("SIGTERM");
  });

  test("--max-body-bytes", async () => {
    const { child, url } = await run(["--port", "0", "--quiet", "--max-body-bytes", "30"]);
    expect((await new Client(url).get("/_sim/switches")).body).toMatchObject({ maxRequestBodyBytes: 30 });
    const alice = new Client(url, ALICE.token);
    expect((await alice.post("/v1/registries", { name: "r", host: "h" })).status).toBe(201);
    expect(codeOf(await alice.post("/v1/registries", { name: "r2", host: "registry.example.com" }))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    child.kill("SIGTERM");
  });

  test("--max-header-bytes", async () => {
    const { child, url } = await run(["--port", "0", "--quiet", "--max-header-bytes", String(128 * 1024)]);
    const big = new Client(url, "t".repeat(64 * 1024));
    expect((await big.get("/v1/registries")).status).toBe(401); // read, and refused as an unknown token
    expect((await new Client(url, "t".repeat(200 * 1024)).get("/v1/registries")).status).toBe(431);
    child.kill("SIGTERM");
  });

  /** The peak resident memory of a process so far, in bytes (Linux's VmHWM). */
  const peakMemory = (pid: number) =>
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
  const onLinux = existsSync("/proc/self/status");

  (onLinux ? test : test.skip)(
    "a 256 MiB huge_body, sized or chunked, raises the CLI's peak memory by less than 32 MiB",
    async () => {
      const MiB = 1024 * 1024;
      const { child, url } = await run(["--port", "0", "--quiet"]);
      await new Client(url, ALICE.token).get("/v1/registries"); // the first answer's own allocations
      const before = peakMemory(child.pid!);
      for (const withLength of [true, false]) {
        await new Client(url).post("/_sim/faults", { kind: "huge_body", bytes: 256 * MiB, withLength });
        const res = await request(`${url}/v1/registries`);
        let size = 0;
        for await (const chunk of res.body) size += chunk.length;
        expect(size).toBe(256 * MiB);
      }
      expect(peakMemory(child.pid!) - before).toBeLessThan(32 * MiB);
      child.kill("SIGTERM");
    },
  );

  test("--help lists every flag", async () => {
    const child = spawn(process.execPath, [cli, "--help"]);
    children.push(child);
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    await new Promise((resolve) => child.once("exit", resolve));
    for (const flag of FLAGS) {
      expect(out).toContain(`  --${flag.name}${flag.arg ? ` ${flag.arg}` : ""}`);
      for (const line of flag.help) expect(out).toContain(line);
    }
  });

  /** Run the CLI to its end: its exit code and what it wrote to stderr. */
  async function refused(args: string[]): Promise<{ code: unknown; err: string }> {
    const child = spawn(process.execPath, [cli, ...args]);
    children.push(child);
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    return { code, err };
  }

  test("a bad flag value exits with status 2 and says why", async () => {
    const { code, err } = await refused(["--billing", "broke"]);
    expect(code).toBe(2);
    expect(err).toContain("billing");
  });

  test("a bad --max-body-bytes exits with status 2 and says what is right", async () => {
    const { code, err } = await refused(["--max-body-bytes", "0"]);
    expect(code).toBe(2);
    expect(err).toContain("switches.maxRequestBodyBytes: must be an integer >= 1 (bytes)");
  });

  test("a bad --max-header-bytes exits with status 2 and says what is right", async () => {
    const { code, err } = await refused(["--max-header-bytes", "0"]);
    expect(code).toBe(2);
    expect(err).toContain("maxHeaderBytes: must be an integer >= 1 (bytes)");
  });

  test("a bad --crashing-image-tags exits with status 2 and names the bad tag", async () => {
    const { code, err } = await refused(["--crashing-image-tags", "acme/web:bad"]);
    expect(code).toBe(2);
    expect(err).toContain("crashingImageTags: must be a list of image tags");
    expect(err).toContain('not a tag: "acme/web:bad"');
  });
});
