// Handshake, the engine's first call since 3.143: what the plugin answers, and that both kinds of
// session work, one that shakes hands (today's engine) and one that does not (an older engine,
// which passes its address on the command line and reads the capabilities from Configure).
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, plain } from "./engine";
import { until } from "./until";

const PROJECT = ALICE.projects[0];
const VOLUME = "hosting:index:Volume";

let sim: Simulator;
beforeAll(async () => {
  // A new volume stays provisioning until the test makes it ready: its wait's progress is sure to be logged.
  sim = await startSimulator({ volumeProvisioningMs: -1 });
});
afterAll(() => sim.close());

async function withPlugin(options: Parameters<typeof Plugin.start>[0], body: (plugin: Plugin) => Promise<void>) {
  const plugin = await Plugin.start(options);
  try {
    await body(plugin);
  } finally {
    await plugin.stop();
  }
}

/** Check and Create a volume, made ready once the engine's log has the wait's progress. */
async function createVolume(plugin: Plugin, name: string) {
  const { inputs, failures } = await plugin.check(VOLUME, name, { name, sizeGb: 1 });
  expect(failures).toEqual([]);
  const created = plugin.create(VOLUME, name, inputs);
  await until(
    () => plugin.engine.messages.some((m) => m.message.startsWith(`waiting for volume ${name} to be running`)),
    "the wait's progress in the engine's log",
  );
  sim.control.setVolumeReady(sim.control.snapshot().volumes.find((v) => v.name === name)!.id);
  return created;
}

describe.each([
  ["with Handshake first (today's engine)", true],
  ["without Handshake (an older engine)", false],
])("a session %s", (_name, handshake) => {
  test("Configure answers the capabilities; Check and Create make a volume, whose wait reaches the engine's log", () =>
    withPlugin({ handshake }, async (plugin) => {
      expect(plugin.handshook === undefined).toBe(!handshake);
      const name = handshake ? "shaken" : "unshaken";
      const configured = await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
      expect(configured).toMatchObject({ acceptsecrets: true, supportspreview: true });
      const { id, properties } = await createVolume(plugin, name);
      expect(plain(properties)).toMatchObject({ name, sizeGb: 1, status: "running" });
      expect(sim.control.snapshot().volumes.find((v) => v.id === id)?.name).toBe(name);
    }));
});

test("a plugin given no engine address on its command line logs to the one Handshake gives", () =>
  withPlugin({ unattached: true, handshake: true }, async (plugin) => {
    expect(plugin.handshook).toMatchObject({ acceptSecrets: true });
    await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
    const { properties } = await createVolume(plugin, "unaddressed");
    expect(plain(properties)).toMatchObject({ name: "unaddressed", status: "running" });
  }));
