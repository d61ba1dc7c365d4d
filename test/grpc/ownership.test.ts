// Ownership: another user's token gets the API's 404 for alice's resources. The provider reads
// them as gone (an empty id), never as its own, whichever way the id is given.
import { ALICE, BOB, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, secret } from "./engine";

const ALICE_PROJECT = ALICE.projects[0];
const BOB_PROJECT = BOB.projects[0];
const IMAGE = "registry.example.com/acme/web:1.0.0";

let sim: Simulator;
let alice: Plugin;
let bob: Plugin;
const mine: Record<string, { type: string; id: string; outputs: Record<string, unknown>; inputs: Record<string, unknown> }> = {};

beforeAll(async () => {
  sim = await startSimulator({ port: 0, volumeProvisioningMs: 0 });
  [alice, bob] = await Promise.all([Plugin.start(), Plugin.start()]);
  await alice.configure({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE_PROJECT });
  await bob.configure({ baseUrl: sim.url, token: BOB.token, projectId: BOB_PROJECT });
  const create = async (key: string, type: string, inputs: Record<string, unknown>) => {
    const checked = await alice.check(type, key, inputs);
    const created = await alice.create(type, key, checked.inputs);
    mine[key] = { type, id: created.id, outputs: created.properties, inputs: checked.inputs };
  };
  await create("web", "hosting:index:Container", { name: "web", image: IMAGE });
  await create("db", "hosting:index:Postgres", { name: "db" });
  await create("data", "hosting:index:Volume", { name: "data", sizeGb: 1 });
  await create("ghcr", "hosting:index:Registry", { name: "ghcr", host: "ghcr.io", password: secret("pw") });
});
afterAll(async () => {
  await Promise.all([alice?.stop(), bob?.stop()]);
  await sim?.close();
});

describe.each(["web", "db", "data", "ghcr"])("alice's %s, seen with bob's token", (key) => {
  test("a refresh with alice's state reads it as gone", async () => {
    const r = mine[key];
    const read = await bob.read(r.type, key, r.id, r.outputs, r.inputs);
    expect(read).toEqual({ id: "", properties: {}, inputs: {} });
  });

  test("an import by id, and by <alice's project>/<id>, finds nothing", async () => {
    const r = mine[key];
    for (const id of [r.id, `${ALICE_PROJECT}/${r.id}`]) {
      expect((await bob.read(r.type, key, id)).id).toBe("");
    }
  });

  test("alice still reads it as hers", async () => {
    const r = mine[key];
    expect((await alice.read(r.type, key, r.id, r.outputs, r.inputs)).id).toBe(r.id);
  });
});

test("bob cannot change alice's container: the update fails with the API's NOT_FOUND, and nothing changed", async () => {
  const r = mine.web;
  const news = { ...r.inputs, image: "registry.example.com/acme/web:2.0.0" };
  await expect(bob.update(r.type, "web", r.id, r.outputs, news, r.inputs)).rejects.toMatchObject({
    details: expect.stringMatching(/NOT_FOUND/),
  });
  expect(sim.control.snapshot().services.find((s) => s.id === r.id)?.image).toBe(IMAGE);
});

test("bob's delete of alice's container deletes nothing (to bob it is already gone)", async () => {
  const r = mine.web;
  await bob.delete(r.type, "web", r.id, r.outputs, r.inputs);
  expect(sim.control.snapshot().services.some((s) => s.id === r.id)).toBe(true);
});
