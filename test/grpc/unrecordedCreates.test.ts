// A create the engine never heard the end of: a run stopped mid-create (a second Ctrl-C terminates the CLI at once; a
// killed CLI) closes the engine's connection before the plugin answers, and its state keeps a pending create with no
// id; the next run's random seed names the resource afresh, so it used to make a second one beside the first, which no
// stack held. The plugin keeps what such a create made (server/unrecorded.ts, under PULUMI_HOME), and the next run of
// the same stack (the same provider id) and URN names it as it was and takes it back. Each run here is a plugin of its
// own, as each `pulumi up` starts one.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin } from "./engine";
import { pollingAfterWrite, until } from "./until";

const PROJECT = ALICE.projects[0];
const VOLUME = "hosting:index:Volume";
let sim: Simulator;
let home: string;
beforeAll(async () => (sim = await startSimulator({ port: 0, volumeProvisioningMs: -1 })));
afterAll(() => sim.close());
beforeEach(() => (home = mkdtempSync(join(tmpdir(), "hosting-unrecorded-"))));
afterEach(() => {
  sim.control.clearFaults();
  rmSync(home, { recursive: true, force: true });
});

const kept = () => {
  const folder = join(home, "hosting", "unrecorded");
  return existsSync(folder) ? readdirSync(folder) : [];
};

/** One run's plugin: started with this test's PULUMI_HOME, configured as the stack's provider (`providerId`). */
async function run(providerId?: string) {
  const plugin = await Plugin.start({ env: { PULUMI_HOME: home } });
  await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT }, {}, providerId);
  return plugin;
}

const volumesNamed = (name: string) => sim.control.snapshot().volumes.filter((v) => v.name === name);

/** The first run: an autonamed volume whose create the engine gives up at `moment`, then stops the plugin (SIGINT). */
async function stoppedRun(urnName: string, moment: "during its wait" | "while its POST is in flight") {
  const plugin = await run();
  try {
    const { inputs } = await plugin.check(VOLUME, urnName, { sizeGb: 1 });
    const mark = sim.control.requests().length;
    if (moment === "while its POST is in flight")
      // The server acts at once and answers 1.5 s later: the engine is gone before the answer comes.
      sim.control.injectFault({ kind: "latency", latencyMs: 1_500, method: "POST", path: "/volumes$" });
    const made = () => volumesNamed(inputs.name as string).length === 1;
    const givenUp =
      moment === "during its wait"
        ? until(() => pollingAfterWrite(sim.control.requests().slice(mark), /\/volumes$/), "the volume's wait")
        : until(made, "the POST acted on");
    const abandoned = plugin.createAbandoned(VOLUME, urnName, inputs, givenUp);
    await givenUp;
    await abandoned;
    // The engine's last word to a plugin: SIGINT (plugin.go `Kill`). It exits once the create has ended.
    plugin.signal("SIGINT");
    expect(await plugin.exited()).toBe(0);
    return { name: inputs.name as string, id: volumesNamed(inputs.name as string)[0].id };
  } finally {
    await plugin.stop();
  }
}

test.each(["during its wait", "while its POST is in flight"] as const)(
  "a create given up %s: the next run names the volume as it was and takes it back, making nothing",
  async (moment) => {
    const first = await stoppedRun(`data-${moment.split(" ")[0]}`, moment);
    expect(kept()).toHaveLength(1);

    const next = await run();
    try {
      // A new seed, as every run draws: the name is still the first run's.
      const { inputs } = await next.check(VOLUME, `data-${moment.split(" ")[0]}`, { sizeGb: 1 });
      expect(inputs.name).toBe(first.name);
      sim.control.setVolumeReady(first.id);
      const mark = sim.control.requests().length;
      const created = await next.create(VOLUME, `data-${moment.split(" ")[0]}`, inputs);
      expect(created.id).toBe(first.id);
      expect(created.properties).toMatchObject({ name: first.name, status: "running" });
      expect(
        sim.control
          .requests()
          .slice(mark)
          .filter((r) => r.method === "POST"),
      ).toEqual([]);
      expect(volumesNamed(first.name)).toHaveLength(1);
      expect(next.engine.messages.map((m) => m.message)).toContainEqual(
        `${first.name} (${first.id}) was made by an earlier \`pulumi up\` that was stopped before it could record it (a second Ctrl-C, a killed CLI): it is taken back, not made again. That run's pending create stays in the stack until \`pulumi refresh --clear-pending-creates\` clears it.`,
      );
      // The engine has it now: nothing is kept.
      expect(kept()).toEqual([]);
    } finally {
      await next.stop();
    }
  },
);

test("another stack's run (another provider id) of the same URN takes nothing back: it names and makes its own", async () => {
  const first = await stoppedRun("shared-urn", "during its wait");
  const other = await run("0c9a3e5e-5d8e-4f55-9a57-6a3c1c0c2b11");
  try {
    const { inputs } = await other.check(VOLUME, "shared-urn", { sizeGb: 1 });
    expect(inputs.name).not.toBe(first.name);
    const mark = sim.control.requests().length;
    const creating = other.create(VOLUME, "shared-urn", inputs, { timeout: 1 }).catch((e) => e);
    await until(() => pollingAfterWrite(sim.control.requests().slice(mark), /\/volumes$/), "its own volume's wait");
    await creating;
    expect(volumesNamed(first.name)).toHaveLength(1);
    expect(volumesNamed(inputs.name as string)).toHaveLength(1);
    expect(kept()).toHaveLength(1);
  } finally {
    await other.stop();
  }
});

test("a refresh (a Read of its id) shows the engine holds it: nothing is taken back after that", async () => {
  const first = await stoppedRun("refreshed", "during its wait");
  const next = await run();
  try {
    // As `pulumi refresh --import-pending-creates <urn> <id>` does: the engine reads the id it was given.
    await next.read(VOLUME, "refreshed", first.id).catch(() => undefined);
    expect(kept()).toEqual([]);
    const { inputs } = await next.check(VOLUME, "refreshed", { sizeGb: 1 });
    expect(inputs.name).not.toBe(first.name);
  } finally {
    await next.stop();
  }
});

test("what an earlier run made that the program no longer asks for is neither taken back nor made again beside it", async () => {
  const first = await stoppedRun("resized", "during its wait");
  const next = await run();
  try {
    const { inputs } = await next.check(VOLUME, "resized", { sizeGb: 2 });
    expect(inputs.name).toBe(first.name);
    const mark = sim.control.requests().length;
    const err = await next.create(VOLUME, "resized", inputs).catch((e) => e);
    expect(err.details).toContain(
      `volumes "${first.name}" (${first.id}) was made by an earlier \`pulumi up\` of this resource that was stopped before it could record it, but it is not what the program now asks for, so it is not taken back, and no other is made beside it: adopt it with \`pulumi import\` (its id is ${first.id}) or delete it on the platform, then run \`pulumi up\` again.`,
    );
    expect(
      sim.control
        .requests()
        .slice(mark)
        .filter((r) => r.method === "POST"),
    ).toEqual([]);
    expect(volumesNamed(first.name)).toHaveLength(1);
  } finally {
    await next.stop();
  }
});
