// Failure and recovery under the real CLI (issue 42, item 3): what a user meets when an `up` does not
// finish, and what brings the stack back. Each program is YAML, run by the CLI in its folder, since a
// Ctrl-C must reach the CLI's process group as a terminal sends it: a release that never starts, a
// volume still provisioning when its wait gave up (refreshed before the next plain preview, which reads
// the platform and shows what it finds), and a SIGINT during a volume's wait. Each test reads the
// simulator's records beside the CLI's output.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Switches } from "../../simulator/src";
import { until } from "../grpc/until";
import { useE2E } from "./harness";

const e2e = useE2E();

const IMAGE = "registry.example.com/team/web";

/** The one resource of `type` in the stack's state, as `pulumi stack export` shows it. */
async function stateOf(dir: string, type: string) {
  const exported = await e2e.cli(["stack", "export"], { cwd: dir });
  expect(exported.code).toBe(0);
  const deployment = JSON.parse(exported.stdout).deployment;
  const resources = deployment.resources.filter((r: any) => r.type === type);
  expect(resources).toHaveLength(1);
  return { resource: resources[0], pendingOperations: deployment.pending_operations ?? [] };
}

/** The processes running this file's installed plugin (found by the plugin folder in their command line). */
function pluginProcesses(): number[] {
  const folder = join(e2e.work, "pulumi-home", "plugins");
  const running: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(folder)) running.push(Number(pid));
    } catch {
      // It ended while the list was read.
    }
  }
  return running;
}

/** A process's group (the fifth field of /proc/<pid>/stat, the third after the command name). */
const processGroupOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(")").pop()!.trim().split(" ")[2]);

/** The API's requests since the request log was last cleared, as `METHOD path`. */
const requests = () => e2e.sim.control.requests().map((r) => `${r.method} ${r.path}`);

let switches: Switches;
beforeAll(() => (switches = e2e.sim.control.switches()));
afterEach(() => e2e.sim.control.setSwitches(switches));

test("a release that never starts fails `up` with the app's log tail; the next `up`, with a good image, succeeds", async () => {
  e2e.sim.control.setSwitches({ crashingImageTags: ["2.0.0"] });
  const program = (tag: string) => ({
    resources: { web: { type: "hosting:Container", properties: { image: `${IMAGE}:${tag}` } } },
  });
  const dir = await e2e.yamlStack("recovery-crash", program("2.0.0"));

  const failed = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(failed.code).not.toBe(0);
  const [app] = e2e.records("services");
  expect(app).toMatchObject({ type: "container", status: "failed", image: `${IMAGE}:2.0.0` });
  expect(failed.stdout).toContain(`its status is "failed" (image ${IMAGE}:2.0.0)`);
  // The tail of the app's own log, as the platform keeps it, line by line in the CLI's output.
  const tail = e2e.sim.control.snapshot().logs[app.id].slice(-3);
  expect(tail).toEqual([
    expect.stringContaining("Error: Cannot find module"),
    expect.stringContaining("process exited with code 1"),
    expect.stringContaining("CrashLoopBackOff"),
  ]);
  for (const line of tail) expect(failed.stdout).toContain(line);
  // The app is in state under its id (a partial failure, never an orphan), asking to be refreshed first.
  const { resource } = await stateOf(dir, "hosting:index:Container");
  expect(resource).toMatchObject({ id: app.id, refreshBeforeUpdate: true, outputs: { status: "failed" } });
  expect(resource.initErrors).toEqual([expect.stringContaining("failed to start")]);

  e2e.yamlProject("recovery-crash", program("2.0.1"));
  const fixed = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(fixed.code).toBe(0);
  expect(fixed.stdout).toMatch(/~ {2}hosting:index:Container web refresh/);
  expect(fixed.stdout).toMatch(/~ 1 updated/);
  expect(e2e.records("services")).toEqual([
    expect.objectContaining({ id: app.id, status: "running", image: `${IMAGE}:2.0.1` }),
  ]);
  const after = await stateOf(dir, "hosting:index:Container");
  expect(after.resource.initErrors).toBeUndefined();
  expect(after.resource.outputs.status).toBe("running");

  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
  expect(e2e.records("services")).toEqual([]);
});

test("a volume left provisioning when its wait gave up is refreshed before the next plain preview, which shows the platform as it is", async () => {
  e2e.sim.control.setSwitches({ volumeProvisioningMs: -1 });
  const dir = await e2e.yamlStack("recovery-unfinished", {
    resources: {
      data: { type: "hosting:Volume", properties: { sizeGb: 5 }, options: { customTimeouts: { create: "2s" } } },
    },
  });

  const failed = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(failed.code).not.toBe(0);
  expect(failed.stdout).toMatch(/is not running yet: gave up waiting for volume \S+ to be running after \d+s/);
  const [volume] = e2e.records("volumes");
  expect(volume.status).toBe("provisioning");
  const { resource } = await stateOf(dir, "hosting:index:Volume");
  expect(resource).toMatchObject({ id: volume.id, refreshBeforeUpdate: true, outputs: { status: "provisioning" } });

  // Still provisioning: the preview reads it, and plans the wait again.
  e2e.sim.control.clearRequests();
  const waiting = await e2e.cli(["preview"], { cwd: dir });
  expect(waiting.code).toBe(0);
  expect(requests()).toContain(`GET /v1/projects/${volume.project_id}/volumes/${volume.id}`);
  expect(waiting.stdout).toMatch(/~ {2}hosting:index:Volume data refresh/);
  expect(waiting.stdout).toMatch(/~ 1 to update/);

  // Running now: the preview reads that, and has nothing left to do.
  e2e.sim.control.setVolumeReady(volume.id);
  e2e.sim.control.clearRequests();
  const ready = await e2e.cli(["preview", "--expect-no-changes"], { cwd: dir });
  expect(ready.code).toBe(0);
  expect(requests()).toContain(`GET /v1/projects/${volume.project_id}/volumes/${volume.id}`);
  expect(ready.stdout).toMatch(/~ {2}hosting:index:Volume data refresh/);
  expect(ready.stdout).toMatch(/2 unchanged/);
  expect(requests().filter((r) => !r.startsWith("GET "))).toEqual([]);

  expect((await e2e.cli(["up", "--yes"], { cwd: dir })).code).toBe(0);
  expect(e2e.records("volumes")).toEqual([expect.objectContaining({ id: volume.id, status: "running" })]);
  expect((await stateOf(dir, "hosting:index:Volume")).resource.outputs.status).toBe("running");
  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
  expect(e2e.records("volumes")).toEqual([]);
});

test("after a SIGINT during a volume's wait, the next `up` finishes cleanly, with one volume on the platform", async () => {
  e2e.sim.control.setSwitches({ volumeProvisioningMs: -1 });
  const dir = await e2e.yamlStack("recovery-sigint", {
    resources: { data: { type: "hosting:Volume", properties: { sizeGb: 5 } } },
  });

  const up = e2e.spawnCli(["up", "--yes"], { cwd: dir });
  await up.waitFor(/waiting for volume \S+ to be running/);
  up.interrupt();
  const interrupted = await up.exited;
  expect(interrupted.code).not.toBe(0);
  // What the CLI said, and asked of the user: nothing to clean up by hand (no pending operation, no
  // `pulumi refresh`, no `stack export`/`import`), because the plugin answered the engine's Cancel with
  // the volume it made, which the engine records; the plugin's message says the next `up` waits again.
  const said = interrupted.stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /\^C|terminat|pending|refresh|stack (export|import)|cancelled/i.test(line));
  expect(said).toEqual([
    "^C received; cancelling. If you would like to terminate immediately, press ^C again.",
    "Note that terminating immediately may lead to orphaned resources and other inconsistencies.",
    expect.stringMatching(/^\* volume \S+ is not running yet: stopped waiting for volume \S+ to be running: /),
  ]);
  expect(said[2]).toMatch(
    /the operation was cancelled; the next `pulumi up` waits for it again; it is recorded in state as it is$/,
  );
  const [volume] = e2e.records("volumes");
  expect(volume.status).toBe("provisioning");
  const { resource, pendingOperations } = await stateOf(dir, "hosting:index:Volume");
  expect(pendingOperations).toEqual([]);
  expect(resource).toMatchObject({ id: volume.id, refreshBeforeUpdate: true });

  // The platform finishes the volume meanwhile; the next `up` reads it and is done.
  e2e.sim.control.setVolumeReady(volume.id);
  const next = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(next.code).toBe(0);
  expect(next.stdout).not.toMatch(/pending/i);
  expect(e2e.records("volumes")).toEqual([expect.objectContaining({ id: volume.id, status: "running" })]);
  expect((await e2e.cli(["preview", "--expect-no-changes"], { cwd: dir })).code).toBe(0);
  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
  expect(e2e.records("volumes")).toEqual([]);
});

test("`pulumi up` killed (SIGKILL) during a volume's wait: its plugin sees the engine gone, stops polling and exits; the next `up` takes the volume back", async () => {
  e2e.sim.control.setSwitches({ volumeProvisioningMs: -1 });
  const dir = await e2e.yamlStack("recovery-killed", {
    resources: { data: { type: "hosting:Volume", properties: { sizeGb: 5 } } },
  });
  // The engine is checked every second here (5 s by default).
  const up = e2e.spawnCli(["up", "--yes"], { cwd: dir, env: { HOSTING_ENGINE_CHECK_SECONDS: "1" } });
  await up.waitFor(/waiting for volume \S+ to be running/);
  const [plugin, ...others] = pluginProcesses();
  expect(others).toEqual([]);
  // The CLI and its language host: the engine starts each plugin in a process group of its own, which this spares.
  expect(processGroupOf(plugin)).not.toBe(up.child.pid);
  process.kill(-up.child.pid!, "SIGKILL");
  expect((await up.exited).code).toBe(128 + 9);
  // The volume never provisions, and the wait's timeout is 10 minutes: only the plugin's own check ends it.
  await until(() => !pluginProcesses().includes(plugin), "the plugin's exit");
  const [volume] = e2e.records("volumes");
  expect(volume.status).toBe("provisioning");
  // The killed run never recorded it; the next `up` (after `pulumi cancel` lifts the lock the killed CLI left) takes
  // it back rather than making a second one.
  e2e.sim.control.setVolumeReady(volume.id);
  expect((await e2e.cli(["cancel", "--yes"], { cwd: dir })).code).toBe(0);
  expect((await e2e.cli(["up", "--yes"], { cwd: dir })).code).toBe(0);
  expect(e2e.records("volumes")).toEqual([expect.objectContaining({ id: volume.id, status: "running" })]);
  expect((await stateOf(dir, "hosting:index:Volume")).resource.id).toBe(volume.id);
  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
});

test("a second Ctrl-C while a volume's create is in flight leaves a pending create; the next `up` takes that volume back: one volume, in the stack", async () => {
  const dir = await e2e.yamlStack("recovery-double-sigint", {
    resources: { scratch: { type: "hosting:Volume", properties: { sizeGb: 5 } } },
  });
  // The server makes the volume at once and answers 3 s later: both Ctrl-Cs land before the answer, as a user's do
  // when the API is slow (only the CLI's printing of the first comes between them), and the answer comes within the
  // 5 s the engine leaves a plugin between its SIGINT and its SIGKILL (plugin.go `Kill`).
  e2e.sim.control.injectFault({ kind: "latency", latencyMs: 3_000, method: "POST", path: "/volumes$" });
  const up = e2e.spawnCli(["up", "--yes"], { cwd: dir });
  const ours = () => e2e.records("volumes").filter((v) => v.name.startsWith("scratch-"));
  await until(() => ours().length === 1, "the volume's POST acted on");
  const [volume] = ours();
  up.interrupt();
  await up.waitFor(/\^C received; cancelling/);
  up.interrupt();
  const stopped = await up.exited;
  expect(stopped.code).not.toBe(0);
  expect(stopped.stdout).toContain("^C received; terminating");
  // The engine never heard the create's answer: its state keeps a pending create, and no volume.
  const exported = JSON.parse((await e2e.cli(["stack", "export"], { cwd: dir })).stdout).deployment;
  expect(exported.pending_operations).toEqual([
    expect.objectContaining({ type: "creating", resource: expect.objectContaining({ type: "hosting:index:Volume" }) }),
  ]);
  expect(exported.resources.filter((r: any) => r.type === "hosting:index:Volume")).toEqual([]);
  // The plugin outlives the engine until its POST answers, keeps what it made, and exits.
  await until(() => pluginProcesses().length === 0, "the stopped run's plugin exit");
  e2e.sim.control.clearFaults();

  // The next `up` names the volume as the stopped run did and takes it back: nothing is made beside it.
  const next = await e2e.cli(["up", "--yes"], { cwd: dir });
  expect(next.code).toBe(0);
  expect(next.stdout).toContain(`${volume.name} (${volume.id}) was made by an earlier \`pulumi up\` that was stopped`);
  expect(ours()).toEqual([expect.objectContaining({ id: volume.id, status: "running" })]);
  const { resource, pendingOperations } = await stateOf(dir, "hosting:index:Volume");
  expect(resource).toMatchObject({ id: volume.id, inputs: { name: volume.name } });
  // What the warning says to do with the pending create the engine still carries; then nothing is left to do.
  expect(pendingOperations).toHaveLength(1);
  expect((await e2e.cli(["refresh", "--clear-pending-creates", "--yes"], { cwd: dir })).code).toBe(0);
  expect((await stateOf(dir, "hosting:index:Volume")).pendingOperations).toEqual([]);
  expect((await e2e.cli(["preview", "--expect-no-changes"], { cwd: dir })).code).toBe(0);
  expect((await e2e.cli(["destroy", "--yes"], { cwd: dir })).code).toBe(0);
  expect(ours()).toEqual([]);
});
