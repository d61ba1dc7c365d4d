// An app's first day (issue 28), as the engine plays it against the simulator: an app that needs
// its database's DATABASE_URL to start (appsRequireEnv), linked by `links`, databases awaited until
// running, links to apps that run, and the restarts that attach and detach cause. Every switch
// that changes the platform's behaviour is played both ways.
import { ALICE } from "../../simulator/src";
import { DIFF_NONE, DIFF_SOME, Engine, UNKNOWN, isSecret, plain, urn, type ResourceState } from "./engine";
import { CONTAINER, LINK, POSTGRES, PROJECT, VOLUME, useFixture } from "./fixture";
import { until } from "./until";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/api:1.0.0";
const ATTACHMENT = "hosting:index:VolumeAttachment";

beforeEach(() =>
  fixture.sim.control.setSwitches({
    appsRequireEnv: ["DATABASE_URL"],
    linkRestartsConsumer: false,
    serviceStartMs: 0,
    crashingImageTags: [],
  }),
);
afterAll(() =>
  fixture.sim.control.setSwitches({
    appsRequireEnv: [],
    linkRestartsConsumer: false,
    serviceStartMs: 0,
    crashingImageTags: [],
  }),
);

/** Requests since `mark` as "METHOD path-tail" (the project prefix dropped). */
const calls = (mark: number) =>
  fixture.requestsSince(mark).map((r) => `${r.method} ${r.path.replace(`/v1/projects/${PROJECT}`, "")}`);
const writes = (mark: number) => calls(mark).filter((c) => !c.startsWith("GET"));
const service = (id: string) => fixture.sim.control.snapshot().services.find((s) => s.id === id)!;
const linksOf = (consumer: string) =>
  fixture.sim.control.snapshot().links.filter((l) => l.consumer_service_id === consumer);

/** The warnings the plugin logged on a Container since `mark`. */
const warningsOn = (name: string, mark: number) =>
  fixture.plugin.engine.messages
    .slice(mark)
    .filter((m) => m.severity === 2 && m.urn === urn(CONTAINER, name)) // pulumirpc.LogSeverity.WARNING
    .map((m) => m.message);

let counter = 0;
const unique = (base: string) => `${base}-${++counter}`;

async function database(name = unique("db")): Promise<ResourceState> {
  return engine().created(POSTGRES, name, { name });
}

/** A link made outside Pulumi, over the API. */
async function linkOutOfBand(consumer: string, provider: string) {
  const res = await fetch(`${fixture.sim.url}/v1/projects/${PROJECT}/service-links`, {
    method: "POST",
    headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
    body: JSON.stringify({ consumer_service_id: consumer, provider_service_id: provider }),
  });
  expect(res.status).toBe(201);
}

describe("Container.links: an app that needs its database's variables goes up in one run", () => {
  test.each([false, true])(
    "linkRestartsConsumer %s: linked before its one start, awaited, running; injectedEnv secret, env its own",
    async (restarts) => {
      fixture.sim.control.setSwitches({ linkRestartsConsumer: restarts });
      const db = await database();
      const name = unique("api");
      const program = { name, image: IMAGE, env: { LOG_LEVEL: "info" }, links: [db.id] };
      const mark = fixture.mark();
      const { state, error } = await engine().create(CONTAINER, name, program);
      expect(error?.details).toBeUndefined();
      expect(state.outputs).toMatchObject({ status: "running", links: [db.id], env: { LOG_LEVEL: "info" } });
      expect(isSecret(state.outputs.injectedEnv)).toBe(true);
      expect(Object.keys(plain(state.outputs.injectedEnv))).toEqual(["DATABASE_URL"]);
      // One start, after the link: stop, link, start; never a restart of our own.
      const ours = writes(mark);
      expect(ours.filter((c) => c.endsWith("/restart"))).toEqual([]);
      expect(ours.slice(-3)).toEqual([
        `POST /containers/${state.id}/stop`,
        "POST /service-links",
        `POST /containers/${state.id}/start`,
      ]);
      expect(service(state.id).status).toBe("running");
      expect(service(state.id).env).toEqual({ LOG_LEVEL: "info" });
    },
  );

  test("a preview with the database new (its id unknown) passes and sends nothing", async () => {
    const name = unique("api");
    const mark = fixture.mark();
    const checked = await fixture.plugin.check(CONTAINER, name, { name, image: IMAGE, links: [UNKNOWN] });
    expect(checked.failures).toEqual([]);
    const planned = await fixture.plugin.create(CONTAINER, name, checked.inputs, { preview: true });
    expect(planned.properties).toMatchObject({ links: [UNKNOWN], injectedEnv: UNKNOWN });
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test.each([
    [["not-an-id"], /links\[0\] "not-an-id" is not an id/],
    [
      ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000001"],
      /links lists "00000000-0000-4000-8000-000000000001" twice/,
    ],
  ])("bad links fail Check, naming the property, before any call: %j", async (links, reason) => {
    const mark = fixture.mark();
    const checked = await fixture.plugin.check(CONTAINER, "bad", { name: "bad", image: IMAGE, links });
    expect(checked.failures).toEqual([{ property: "links", reason: expect.stringMatching(reason) }]);
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test("a link to a service that does not exist fails the preview and the create, before the app is made", async () => {
    const name = unique("api");
    const program = { name, image: IMAGE, links: ["00000000-0000-4000-8000-00000000dead"] };
    const mark = fixture.mark();
    const { inputs } = await fixture.plugin.check(CONTAINER, name, program);
    const refusal = /^links\[0\] \(00000000-0000-4000-8000-00000000dead\) is not a service of project /;
    await expect(fixture.plugin.create(CONTAINER, name, inputs, { preview: true })).rejects.toMatchObject({
      details: expect.stringMatching(refusal),
    });
    await expect(fixture.plugin.create(CONTAINER, name, inputs)).rejects.toMatchObject({
      details: expect.stringMatching(refusal),
    });
    expect(fixture.requestsSince(mark).filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("changes to links", () => {
  async function linkedApp(restarts = false) {
    fixture.sim.control.setSwitches({ linkRestartsConsumer: restarts });
    const [db, cache] = [await database(), await database()];
    const name = unique("api");
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE, links: [db.id] });
    return { db, cache, name, state };
  }

  test("order does not matter: the same ids in another order are no change", async () => {
    const { db, cache, name } = await linkedApp();
    const state = await engine().created(CONTAINER, unique("two"), {
      name: unique("two"),
      image: IMAGE,
      links: [db.id, cache.id],
    });
    const diff = await fixture.plugin.diff(
      CONTAINER,
      name,
      state.id,
      state.outputs,
      { ...state.inputs, links: [cache.id, db.id] },
      state.inputs,
    );
    expect(diff.changes).toBe(DIFF_NONE);
  });

  test.each([false, true])(
    "linkRestartsConsumer %s: adding an id previews with no write, then links and rolls out once, awaited",
    async (restarts) => {
      const { cache, name, state } = await linkedApp(restarts);
      const program = { ...state.inputs, links: [...(state.inputs.links as string[]), cache.id] };
      const mark = fixture.mark();
      const preview = await engine().preview(CONTAINER, name, program, state);
      expect(preview).toMatchObject({
        diff: { changes: DIFF_SOME, diffs: ["links"] },
        planned: { injectedEnv: UNKNOWN },
      });
      expect(writes(mark)).toEqual([]);
      fixture.sim.control.setSwitches({ serviceStartMs: 200 });
      const up = await engine().up(CONTAINER, name, program, state);
      expect(up.error?.details).toBeUndefined();
      expect(up.state.outputs).toMatchObject({ status: "running", links: program.links });
      const restartsSent = writes(mark).filter((c) => c.endsWith("/restart"));
      expect(restartsSent).toEqual(restarts ? [] : [`POST /containers/${state.id}/restart`]);
      expect(
        linksOf(state.id)
          .map((l) => l.provider_service_id)
          .sort(),
      ).toEqual([...program.links].sort());
    },
  );

  test("removing an id fails at preview, and at the update, saying why and what to do; nothing is sent", async () => {
    const { db, cache, name } = await linkedApp();
    const state = await engine().created(CONTAINER, unique("two"), {
      name: unique("two"),
      image: IMAGE,
      links: [db.id, cache.id],
    });
    const program = { ...state.inputs, links: [cache.id] };
    const mark = fixture.mark();
    const preview = await engine().preview(CONTAINER, name, program, state);
    expect(preview.error?.details).toMatch(
      new RegExp(
        `links cannot drop "${db.id}": the hosting API has no way to remove a service link.*Put the id back in \`links\``,
        "s",
      ),
    );
    await expect(engine().up(CONTAINER, name, program, state)).rejects.toMatchObject({
      details: expect.stringMatching(/links cannot drop/),
    });
    expect(writes(mark)).toEqual([]);
  });
});

describe("refresh and import read the links back", () => {
  test("an unchanged app refreshes as no change; a link made out of band reads back and warns, but is not the program's", async () => {
    const [db, other] = [await database(), await database()];
    const name = unique("api");
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE, links: [db.id] });
    expect((await engine().refresh(CONTAINER, name, state)).diff).toMatchObject({ changes: DIFF_NONE });
    await linkOutOfBand(state.id, other.id);
    const mark = fixture.plugin.engine.messages.length;
    const refreshed = await engine().refresh(CONTAINER, name, state);
    // Read back in the outputs, and warned of as drift; the program could not remove it, so it is no change to make.
    expect(refreshed.state!.outputs.links).toEqual([db.id, other.id]);
    expect(refreshed.state!.inputs.links).toEqual([db.id]);
    expect(warningsOn(name, mark)).toEqual([expect.stringMatching(/^changed outside Pulumi .*\(links\)/)]);
    expect(refreshed.diff).toMatchObject({ changes: DIFF_NONE });
    const preview = await engine().preview(CONTAINER, name, { name, image: IMAGE, links: [db.id] }, refreshed.state!);
    expect(preview.diff?.changes).toBe(DIFF_NONE);
    // The program may adopt it: listing it is no change either, since it is linked already.
    const adopted = await engine().preview(
      CONTAINER,
      name,
      { name, image: IMAGE, links: [db.id, other.id] },
      refreshed.state!,
    );
    expect(adopted.diff?.changes).toBe(DIFF_NONE);
  });

  test("an app whose program sets links, with a ServiceLink to it beside: refresh, preview and update as usual", async () => {
    const [db, cache] = [await database(), await database()];
    const name = unique("api");
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE, links: [db.id] });
    await engine().created(LINK, `${name}-cache`, { consumerServiceId: state.id, providerServiceId: cache.id });
    const refreshed = (await engine().refresh(CONTAINER, name, state)).state!;
    const news = { name, image: "registry.example.com/team/api:1.1.0", links: [db.id] };
    const preview = await engine().preview(CONTAINER, name, news, refreshed);
    expect(preview.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["image"] });
    const updated = await engine().up(CONTAINER, name, news, refreshed);
    expect(updated.error).toBeUndefined();
    expect(service(state.id).image).toBe("registry.example.com/team/api:1.1.0");
    expect(
      linksOf(state.id)
        .map((l) => l.provider_service_id)
        .sort(),
    ).toEqual([db.id, cache.id].sort());
  });

  test("import reads the links into the inputs, and a program that lists them imports with no diff", async () => {
    const db = await database();
    const name = unique("api");
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE, links: [db.id] });
    const imported = await engine().importResource(CONTAINER, name, state.id, { name, image: IMAGE, links: [db.id] });
    expect(imported.read.inputs.links).toEqual([db.id]);
    expect(imported.diff.changes).toBe(DIFF_NONE);
  });

  test(
    "an app without links (as every state before links has) reads as no change with a " + "ServiceLink beside it",
    async () => {
      fixture.sim.control.setSwitches({ appsRequireEnv: [] });
      const db = await database();
      const name = unique("old");
      const state = await engine().created(CONTAINER, name, { name, image: IMAGE });
      await engine().created(LINK, `${name}-db`, { consumerServiceId: state.id, providerServiceId: db.id });
      const refreshed = await engine().refresh(CONTAINER, name, state);
      expect(refreshed.diff).toMatchObject({ changes: DIFF_NONE });
      const preview = await engine().preview(CONTAINER, name, { name, image: IMAGE }, refreshed.state!);
      expect(preview.diff?.changes).toBe(DIFF_NONE);
    },
  );
});

describe("an app that fails its first start without links", () => {
  test(
    "fails with its log tail and a pointer to links; " + "the program gaining the link makes the retry succeed",
    async () => {
      const db = await database();
      const name = unique("api");
      const first = await engine().create(CONTAINER, name, { name, image: IMAGE });
      expect(first.error?.details).toMatch(
        new RegExp(
          /failed to start: its status is "failed".*list the database in `links`/.source +
            /.*environment variable DATABASE_URL is not set/.source,
          "s",
        ),
      );
      expect(first.state.initErrors?.length).toBe(1);
      const mark = fixture.mark();
      const retry = await engine().up(CONTAINER, name, { name, image: IMAGE, links: [db.id] }, first.state);
      expect(retry.error?.details).toBeUndefined();
      expect(retry.steps).toEqual(["update"]);
      expect(retry.state.outputs).toMatchObject({ status: "running", links: [db.id] });
      expect(writes(mark)).toEqual(["POST /service-links", `POST /containers/${first.state.id}/restart`]);
    },
  );
});

describe("ServiceLink to an app that already runs", () => {
  async function runningApp() {
    fixture.sim.control.setSwitches({ appsRequireEnv: [] });
    const name = unique("web");
    const app = await engine().created(CONTAINER, name, { name, image: "registry.example.com/team/web:3.0.0" });
    fixture.sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
    return app;
  }

  test.each([false, true])(
    "linkRestartsConsumer %s: the app restarts once with the variables, awaited",
    async (restarts) => {
      fixture.sim.control.setSwitches({ linkRestartsConsumer: restarts });
      const [app, db] = [await runningApp(), await database()];
      fixture.sim.control.setSwitches({ serviceStartMs: 200 });
      const mark = fixture.mark();
      const link = await engine().created(LINK, unique("link"), {
        consumerServiceId: app.id,
        providerServiceId: db.id,
      });
      expect(link.id).not.toBe("");
      expect(service(app.id).status).toBe("running");
      expect(writes(mark).filter((c) => c.endsWith("/restart"))).toEqual(
        restarts ? [] : [`POST /containers/${app.id}/restart`],
      );
    },
  );

  test(
    "an app that fails the restart fails the link's create with its log tail, " + "and the link stays in state",
    async () => {
      const [app, db] = [await runningApp(), await database()];
      fixture.sim.control.setSwitches({ crashingImageTags: ["3.0.0"] });
      const { state, error } = await engine().create(LINK, unique("link"), {
        consumerServiceId: app.id,
        providerServiceId: db.id,
      });
      expect(error?.details).toMatch(
        /failed to restart after the link to .* was made.*The link is made and recorded in state.*Cannot find module/s,
      );
      expect(state.id).toBe(linksOf(app.id)[0].id);
    },
  );

  test("a stopped app is not restarted: it reads the link when it starts", async () => {
    fixture.sim.control.setSwitches({ appsRequireEnv: [] });
    const name = unique("idle");
    const app = await engine().created(CONTAINER, name, { name, image: IMAGE, running: false });
    const db = await database();
    const mark = fixture.mark();
    await engine().created(LINK, unique("link"), { consumerServiceId: app.id, providerServiceId: db.id });
    expect(writes(mark)).toEqual(["POST /service-links"]);
  });
});

describe("databases are awaited until running", () => {
  afterEach(() => fixture.sim.control.setSwitches({ serviceStartMs: 0 }));

  test("the create returns running, with progress, and the whole service record", async () => {
    // The database starts only once the plugin has said it waits (however slow the machine, its
    // first poll finds it provisioning), and then at once.
    fixture.sim.control.setSwitches({ serviceStartMs: 10 * 60_000 });
    const name = unique("db");
    const before = fixture.plugin.engine.messages.length;
    const progress = () => fixture.plugin.engine.messages.slice(before).filter((m) => m.urn === urn(POSTGRES, name));
    const creating = database(name);
    await until(() => progress().length > 0, "the database's progress");
    const { id } = fixture.sim.control.snapshot().services.find((s) => s.name === name)!;
    fixture.sim.control.mutate("services", id, { ready_at: Date.now() });
    const state = await creating;
    expect(state.outputs).toMatchObject({
      status: "running",
      runtime: "postgres-16",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(
      progress()
        .map((m) => m.message)
        .join("\n"),
    ).toMatch(/waiting for PostgreSQL database .* to be running/);
  });

  test(
    "a wait past customTimeouts is a partial failure that records the database; " + "the next up waits again",
    async () => {
      fixture.sim.control.setSwitches({ serviceStartMs: 10 * 60_000 });
      const name = unique("db");
      const { state, error } = await engine().create(POSTGRES, name, { name }, { timeouts: { create: 1 } });
      expect(error?.details).toMatch(/is not running yet: .*recorded in state/);
      expect(state).toMatchObject({
        id: expect.any(String),
        outputs: { status: "provisioning" },
        initErrors: [expect.any(String)],
      });
      expect(state.id).not.toBe("");
      // It starts a moment after the next up begins: that up waits for it.
      fixture.sim.control.mutate("services", state.id, { ready_at: Date.now() + 300 });
      const retry = await engine().up(POSTGRES, name, { name }, state);
      expect(retry.error?.details).toBeUndefined();
      expect(retry.state.outputs.status).toBe("running");
    },
  );
});

describe("attach and detach restart the app, awaited", () => {
  async function appAndVolume() {
    fixture.sim.control.setSwitches({ appsRequireEnv: [] });
    const name = unique("store");
    const app = await engine().created(CONTAINER, name, { name, image: "registry.example.com/team/store:4.0.0" });
    const volume = await engine().created(VOLUME, unique("data"), { name: unique("vol"), sizeGb: 1 });
    return { app, volume };
  }

  test("attach and detach each await the app's restart", async () => {
    const { app, volume } = await appAndVolume();
    fixture.sim.control.setSwitches({ serviceStartMs: 200 });
    const attached = await engine().created(ATTACHMENT, unique("att"), {
      volumeId: volume.id,
      containerId: app.id,
      mountPath: "/data",
    });
    expect(service(app.id).status).toBe("running");
    await fixture.plugin.delete(ATTACHMENT, "att", attached.id, attached.outputs, attached.inputs);
    expect(service(app.id).status).toBe("running");
  });

  test("an app that fails the restart fails the attach with its log tail; the attachment stays in state", async () => {
    const { app, volume } = await appAndVolume();
    fixture.sim.control.setSwitches({ crashingImageTags: ["4.0.0"] });
    const { state, error } = await engine().create(ATTACHMENT, unique("att"), {
      volumeId: volume.id,
      containerId: app.id,
      mountPath: "/data",
    });
    expect(error?.details).toMatch(/failed to restart after volume .* was attached at \/data.*Cannot find module/s);
    expect(state.id).toBe(`${volume.id}:${app.id}`);
    const detach = fixture.plugin.delete(ATTACHMENT, "att", state.id, state.outputs, state.inputs);
    await expect(detach).rejects.toMatchObject({
      details: expect.stringMatching(/failed to restart after volume .* was detached/),
    });
  });
});
