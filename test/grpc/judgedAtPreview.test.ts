// Rules that need the live world are judged at preview, before any write (DESIGN): the ids in a
// Container's `links` and a ServiceLink's ids must be services of the project (not the app itself);
// ids not known yet pass and are judged again before the real write; and a preview rule that
// meets a missing record looks again, as a Read does, before it judges. Refused previews send no
// writes, counted at the simulator.
import { Engine, UNKNOWN } from "./engine";
import { CONTAINER, LINK, POSTGRES, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const MISSING = "00000000-0000-4000-8000-00000000dead";
const writes = (mark: number) => fixture.requestsSince(mark).filter((r) => r.method !== "GET");
const check = async (type: string, name: string, program: Record<string, unknown>) => {
  const checked = await fixture.plugin.check(type, name, program);
  expect(checked.failures).toEqual([]);
  return checked.inputs;
};

afterEach(() => fixture.sim.control.clearFaults());

describe("a Container's links", () => {
  test("an id that is not a service of the project fails the preview, naming it, with nothing sent", async () => {
    const db = await engine().created(POSTGRES, "db", {});
    const mark = fixture.mark();
    const inputs = await check(CONTAINER, "typo", { image: IMAGE, links: [db.id, MISSING] });
    await expect(fixture.plugin.create(CONTAINER, "typo", inputs, { preview: true })).rejects.toMatchObject({
      details: `links[1] (${MISSING}) is not a service of project ${inputs.projectId}: the project has no service with that id (looked for twice), so nothing was sent. Use the id of a Postgres, Mysql, Redis or Container of the same project (for example db.id), from the program or from hosting.getContainers.`,
    });
    expect(writes(mark)).toEqual([]);
  });

  test("the app's own id fails an update's preview", async () => {
    const state = await engine().created(CONTAINER, "selfish", { image: IMAGE });
    const mark = fixture.mark();
    const preview = await engine().preview(CONTAINER, "selfish", { image: IMAGE, links: [state.id] }, state);
    expect(preview.error?.details).toMatch(
      /^links\[0\] is the app selfish-[0-9a-f]{7}'s own id \(.*\): a service cannot be linked to itself/,
    );
    expect(writes(mark)).toEqual([]);
  });

  test("an id not known yet passes the preview, and is judged again before the real write", async () => {
    const mark = fixture.mark();
    const preview = await check(CONTAINER, "later", { image: IMAGE, links: [UNKNOWN] });
    await expect(fixture.plugin.create(CONTAINER, "later", preview, { preview: true })).resolves.toMatchObject({
      id: "",
    });
    // At `up` the id is known, and wrong: refused before the app is made.
    const inputs = await check(CONTAINER, "later", { image: IMAGE, links: [MISSING] });
    await expect(fixture.plugin.create(CONTAINER, "later", inputs)).rejects.toMatchObject({
      details: expect.stringMatching(/^links\[0\] \(.*\) is not a service of project/),
    });
    expect(writes(mark)).toEqual([]);
  });

  test("a list that lags once is looked at again: a service just made is not refused", async () => {
    const db = await engine().created(POSTGRES, "fresh-db", {});
    fixture.sim.control.injectFault({ kind: "omit_record", method: "GET", path: "/containers$", id: db.id });
    const inputs = await check(CONTAINER, "patient", { image: IMAGE, links: [db.id] });
    await expect(fixture.plugin.create(CONTAINER, "patient", inputs, { preview: true })).resolves.toMatchObject({
      id: "",
    });
  });
});

describe("a ServiceLink's ids", () => {
  test("a provider that is not a service of the project fails the preview with nothing sent", async () => {
    const app = await engine().created(CONTAINER, "consumer", { image: IMAGE });
    const mark = fixture.mark();
    const inputs = await check(LINK, "bad-link", { consumerServiceId: app.id, providerServiceId: MISSING });
    await expect(fixture.plugin.create(LINK, "bad-link", inputs, { preview: true })).rejects.toMatchObject({
      details: expect.stringMatching(/^providerServiceId \(.*\) is not a service of project/),
    });
    expect(writes(mark)).toEqual([]);
  });

  test("a service linked to itself fails the preview", async () => {
    const app = await engine().created(CONTAINER, "narcissus", { image: IMAGE });
    const inputs = await check(LINK, "self-link", { consumerServiceId: app.id, providerServiceId: app.id });
    await expect(fixture.plugin.create(LINK, "self-link", inputs, { preview: true })).rejects.toMatchObject({
      details: expect.stringMatching(
        /^providerServiceId is the consumerServiceId \(.*\): a service cannot be linked to itself/,
      ),
    });
  });
});

describe("ReadWriteOnce at preview looks twice", () => {
  test("a volume that answers 404 once is read again, and the rule judges it (it has a consumer)", async () => {
    const [web, api] = [
      await engine().created(CONTAINER, "rwo-web", { image: IMAGE }),
      await engine().created(CONTAINER, "rwo-api", { image: IMAGE }),
    ];
    const volume = await engine().created(VOLUME, "rwo-data", { sizeGb: 1 });
    await engine().created("hosting:index:VolumeAttachment", "held", {
      volumeId: volume.id,
      containerId: web.id,
      mountPath: "/data",
    });
    fixture.sim.control.injectFault({ kind: "status", status: 404, method: "GET", path: `/volumes/${volume.id}$` });
    const mark = fixture.mark();
    const inputs = await check("hosting:index:VolumeAttachment", "second", {
      volumeId: volume.id,
      containerId: api.id,
      mountPath: "/data",
    });
    await expect(
      fixture.plugin.create("hosting:index:VolumeAttachment", "second", inputs, { preview: true }),
    ).rejects.toMatchObject({
      details: expect.stringMatching(/^VOLUME_ALREADY_ATTACHED \(ReadWriteOnce\)/),
    });
    expect(writes(mark)).toEqual([]);
  });

  test("a volume that is not there, looked for twice, fails the preview instead of passing it", async () => {
    const web = await engine().created(CONTAINER, "rwo-lonely", { image: IMAGE });
    const mark = fixture.mark();
    const inputs = await check("hosting:index:VolumeAttachment", "nothing", {
      volumeId: MISSING,
      containerId: web.id,
      mountPath: "/data",
    });
    await expect(
      fixture.plugin.create("hosting:index:VolumeAttachment", "nothing", inputs, { preview: true }),
    ).rejects.toMatchObject({
      details: expect.stringMatching(
        /^volumeId 0{8}-0000-4000-8000-00000000dead is not a volume of project .* \(looked for twice\)/,
      ),
    });
    expect(writes(mark)).toEqual([]);
  });
});
