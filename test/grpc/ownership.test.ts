// Ownership: another user's token gets the API's 404 for alice's resources, and for alice's project.
// The provider never reads them as its own; and since the 404 of a project the token cannot see is
// no proof that anything in it was deleted, a Read there fails (a swapped CI token must not empty
// the stack). Registries are the user's, outside projects: another user's token that cannot see
// the stack's project (hosting:projectId) fails the same way; one configured with a project of
// its own reads them as gone (nothing tells that 404 from a deletion).
import { ALICE, BOB, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, secret } from "./engine";

const ALICE_PROJECT = ALICE.projects[0];
const BOB_PROJECT = BOB.projects[0];
const IMAGE = "registry.example.com/acme/web:1.0.0";

let sim: Simulator;
let alice: Plugin;
let bob: Plugin;
const mine: Record<
  string,
  { type: string; id: string; outputs: Record<string, unknown>; inputs: Record<string, unknown> }
> = {};

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

const NOT_VISIBLE = new RegExp(
  `project ${ALICE_PROJECT} reads as 404 NOT_FOUND: the token cannot see it .*so nothing in it is reported as deleted.*Check hosting:token`,
);

describe.each(["web", "db", "data"])("alice's %s, seen with bob's token", (key) => {
  test(
    "a refresh with alice's state fails, naming the project the token cannot see: " + "nothing leaves the stack",
    async () => {
      const r = mine[key];
      await expect(bob.read(r.type, key, r.id, r.outputs, r.inputs)).rejects.toMatchObject({
        details: expect.stringMatching(NOT_VISIBLE),
      });
    },
  );

  test("an import by id finds nothing in bob's project; by <alice's project>/<id> it fails the same way", async () => {
    const r = mine[key];
    expect((await bob.read(r.type, key, r.id)).id).toBe("");
    await expect(bob.read(r.type, key, `${ALICE_PROJECT}/${r.id}`)).rejects.toMatchObject({
      details: expect.stringMatching(NOT_VISIBLE),
    });
  });

  test("a destroy with bob's token fails the same way, and deletes nothing", async () => {
    const r = mine[key];
    await expect(bob.delete(r.type, key, r.id, r.outputs, r.inputs)).rejects.toMatchObject({
      details: expect.stringMatching(NOT_VISIBLE),
    });
    expect((await alice.read(r.type, key, r.id, r.outputs, r.inputs)).id).toBe(r.id);
  });

  test("alice still reads it as hers", async () => {
    const r = mine[key];
    expect((await alice.read(r.type, key, r.id, r.outputs, r.inputs)).id).toBe(r.id);
  });
});

describe("alice's registry, with bob's token in alice's stack (hosting:projectId is alice's: a CI secret swapped)", () => {
  let swapped: Plugin;
  beforeAll(async () => {
    swapped = await Plugin.start();
    await swapped.configure({ baseUrl: sim.url, token: BOB.token, projectId: ALICE_PROJECT });
  });
  afterAll(() => swapped?.stop());
  const REFUSED = new RegExp(
    `^registry ghcr reads as 404 NOT_FOUND, and so does project ${ALICE_PROJECT} \\(hosting:projectId\\): the token cannot see it either, so it is most likely another account's token .*the registry is not reported as deleted\\. Check hosting:token`,
  );

  test("a refresh fails, naming the project the token cannot see: the registry stays in the stack", async () => {
    const r = mine.ghcr;
    await expect(swapped.read(r.type, "ghcr", r.id, r.outputs, r.inputs)).rejects.toMatchObject({
      details: expect.stringMatching(REFUSED),
    });
  });

  test("a destroy fails the same way, and deletes nothing", async () => {
    const r = mine.ghcr;
    await expect(swapped.delete(r.type, "ghcr", r.id, r.outputs, r.inputs)).rejects.toMatchObject({
      details: expect.stringMatching(REFUSED),
    });
    expect(sim.control.snapshot().registries.some((x) => x.id === r.id)).toBe(true);
  });
});

describe(
  "alice's registry, seen with bob's token and bob's own project (registries are the user's: " +
    "a 404 cannot be told from a deletion)",
  () => {
    test("a refresh reads it as gone, and an import finds nothing", async () => {
      const r = mine.ghcr;
      expect(await bob.read(r.type, "ghcr", r.id, r.outputs, r.inputs)).toMatchObject({
        id: "",
        properties: {},
        inputs: {},
      });
      expect((await bob.read(r.type, "ghcr", r.id)).id).toBe("");
    });

    test("alice still reads it as hers", async () => {
      const r = mine.ghcr;
      expect((await alice.read(r.type, "ghcr", r.id, r.outputs, r.inputs)).id).toBe(r.id);
    });
  },
);

test(
  "bob cannot change alice's container: the update fails with the API's NOT_FOUND, " + "and nothing changed",
  async () => {
    const r = mine.web;
    const news = { ...r.inputs, image: "registry.example.com/acme/web:2.0.0" };
    await expect(bob.update(r.type, "web", r.id, r.outputs, news, r.inputs)).rejects.toMatchObject({
      details: expect.stringMatching(/NOT_FOUND/),
    });
    expect(sim.control.snapshot().services.find((s) => s.id === r.id)?.image).toBe(IMAGE);
  },
);

test(
  "bob's delete of alice's container with bob's own project deletes nothing (to bob it is already " + "gone there)",
  async () => {
    const r = mine.web;
    await bob.delete(r.type, "web", r.id, { ...r.outputs, projectId: BOB_PROJECT }, r.inputs);
    expect(sim.control.snapshot().services.some((s) => s.id === r.id)).toBe(true);
  },
);
