// Refresh and up tell the truth: reads are never older than the Read, variables injected by
// links belong to the links, and every rollout is awaited.
import { ALICE } from "../../simulator/src";
import {
  DIFF_NONE,
  Engine,
  Plugin,
  initFailure,
  isSecret,
  plain,
  type GrpcFailure,
  type ResourceState,
} from "./engine";
import { CONTAINER, LINK, POSTGRES, PROJECT, useFixture } from "./fixture";
import { pollingAfterWrite, until } from "./until";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const GOOD = "registry.example.com/team/web:1.0.0";
const GOOD_2 = "registry.example.com/team/web:1.1.0";
const BAD = "registry.example.com/team/web:2.0.0-bad";
const LIST = new RegExp(`^/v1/projects/${PROJECT}/containers$`);

afterEach(() =>
  fixture.sim.control.setSwitches({ serviceStartMs: 0, crashingImageTags: [], linkEnvInConsumer: false }),
);

const created = (type: string, name: string, program: Record<string, unknown>) => engine().created(type, name, program);

describe("reads are never older than the Read", () => {
  test("an out-of-band delete, then a Read within milliseconds in the same plugin: an empty id", async () => {
    const app = await created(CONTAINER, "deleted", { name: "deleted", image: GOOD });
    await fixture.plugin.read(CONTAINER, "deleted", app.id, app.outputs, app.inputs); // a list was just read
    fixture.sim.control.remove("services", app.id);
    expect((await fixture.plugin.read(CONTAINER, "deleted", app.id, app.outputs, app.inputs)).id).toBe("");
  });

  test("an out-of-band image change, then an immediate Read: the new image", async () => {
    const app = await created(CONTAINER, "changed", { name: "changed", image: GOOD });
    await fixture.plugin.read(CONTAINER, "changed", app.id, app.outputs, app.inputs);
    fixture.sim.control.mutate("services", app.id, { image: GOOD_2 });
    expect((await fixture.plugin.read(CONTAINER, "changed", app.id, app.outputs, app.inputs)).properties.image).toBe(
      GOOD_2,
    );
  });

  test("200 concurrent Reads (a refresh) cost at most 3 list calls, each answering every Read", async () => {
    const apps = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fixture.plugin.create(CONTAINER, `many-${i}`, {
          name: `many-${i}`,
          image: GOOD,
          httpPort: 8080,
          running: true,
        }),
      ),
    );
    const mark = fixture.mark();
    const reads = await Promise.all(
      apps.map((app, i) => fixture.plugin.read(CONTAINER, `many-${i}`, app.id, app.properties, {})),
    );
    expect(reads.map((r) => r.id)).toEqual(apps.map((a) => a.id));
    expect(
      fixture.requestsSince(mark).filter((r) => r.method === "GET" && LIST.test(r.path)).length,
    ).toBeLessThanOrEqual(3);
    await Promise.all(apps.map((app, i) => fixture.plugin.delete(CONTAINER, `many-${i}`, app.id, app.properties)));
  });
});

describe.each([false, true])(
  "variables injected by links belong to the links (the consumer's env shows them: %s)",
  (shown) => {
    const tag = shown ? "shown" : "hidden";
    let app: ResourceState;
    let db: ResourceState;
    const consumerEnv = () => fixture.sim.control.snapshot().services.find((s) => s.id === app.id)!.env;

    beforeAll(async () => {
      fixture.sim.control.setSwitches({ linkEnvInConsumer: shown });
      app = await created(CONTAINER, `web-${tag}`, { name: `web-${tag}`, image: GOOD, env: { LOG_LEVEL: "info" } });
      db = await created(POSTGRES, `db-${tag}`, { name: `db-${tag}` });
      await created(LINK, `link-${tag}`, { consumerServiceId: app.id, providerServiceId: db.id });
      fixture.sim.control.setSwitches({ linkEnvInConsumer: shown });
    });

    test("the simulator shows the link's variable in the consumer's env only under the switch", () => {
      expect("DATABASE_URL" in consumerEnv()).toBe(shown);
    });

    test("refresh reads them out of env, and Diff against the program is DIFF_NONE", async () => {
      const refreshed = await engine().refresh(CONTAINER, `web-${tag}`, app);
      if (refreshed.gone) throw new Error("gone");
      expect(plain(refreshed.state.outputs.env)).toEqual({ LOG_LEVEL: "info" });
      expect(refreshed.diff).toMatchObject({ changes: DIFF_NONE });
      const up = await engine().up(
        CONTAINER,
        `web-${tag}`,
        { name: `web-${tag}`, image: GOOD, env: { LOG_LEVEL: "info" } },
        refreshed.state,
      );
      expect(up.diff).toMatchObject({ changes: DIFF_NONE });
      app = refreshed.state;
    });

    test("an update of env keeps the injected variable on the server, and state holds its value only as the secret injectedEnv", async () => {
      const secretUrl = fixture.sim.control.snapshot().services.find((s) => s.id === db.id)!.connection!.instructions;
      const up = await engine().up(
        CONTAINER,
        `web-${tag}`,
        { name: `web-${tag}`, image: GOOD, env: { LOG_LEVEL: "debug" } },
        app,
      );
      expect(up.steps).toEqual(["update"]);
      expect(up.error).toBeUndefined();
      expect(consumerEnv().LOG_LEVEL).toBe("debug");
      expect(consumerEnv().DATABASE_URL).toBe(shown ? secretUrl : undefined);
      const read = await fixture.plugin.read(CONTAINER, `web-${tag}`, up.state.id, up.state.outputs, up.state.inputs);
      const imported = await fixture.plugin.read(CONTAINER, `web-${tag}`, up.state.id);
      for (const { injectedEnv, ...state } of [
        up.state.outputs,
        up.state.inputs,
        read.properties,
        read.inputs,
        imported.properties,
        imported.inputs,
      ]) {
        if (injectedEnv !== undefined)
          expect(isSecret(injectedEnv) && plain(injectedEnv)).toEqual({ DATABASE_URL: secretUrl });
        expect(JSON.stringify(state)).not.toContain(secretUrl);
        expect(JSON.stringify(state)).not.toContain("DATABASE_URL");
      }
      app = up.state;
    });

    test("taking env out of the program clears the app's own variables, not the link's", async () => {
      const up = await engine().up(CONTAINER, `web-${tag}`, { name: `web-${tag}`, image: GOOD }, app);
      expect(up.error).toBeUndefined();
      expect(Object.keys(consumerEnv())).toEqual(shown ? ["DATABASE_URL"] : []);
      expect(plain(up.state.outputs.env)).toEqual({});
    });

    test("a key the program sets itself is the program's, even if a link injects the same name", async () => {
      const up = await engine().up(
        CONTAINER,
        `web-${tag}`,
        { name: `web-${tag}`, image: GOOD, env: { DATABASE_URL: "postgres://mine" } },
        app,
      );
      expect(up.error).toBeUndefined();
      expect(consumerEnv().DATABASE_URL).toBe("postgres://mine");
      const read = await fixture.plugin.read(CONTAINER, `web-${tag}`, up.state.id, up.state.outputs, up.state.inputs);
      expect(plain(read.properties.env)).toEqual({ DATABASE_URL: "postgres://mine" });
      expect(isSecret(read.properties.env)).toBe(false);
    });
  },
);

describe("every rollout is awaited", () => {
  test("an update to a good image returns only when the app is running", async () => {
    const app = await created(CONTAINER, "rolling", { name: "rolling", image: GOOD });
    expect(app.outputs.status).toBe("running");
    // The new image starts only once the plugin has said it waits (however slow the machine, a poll found it starting).
    fixture.sim.control.setSwitches({ serviceStartMs: 10 * 60_000 });
    const before = fixture.plugin.engine.messages.length;
    const progress = () => fixture.plugin.engine.messages.slice(before).filter((m) => m.ephemeral);
    const updating = engine().up(CONTAINER, "rolling", { name: "rolling", image: GOOD_2 }, app);
    await until(() => progress().length > 0, "the rollout's progress");
    fixture.sim.control.mutate("services", app.id, { ready_at: Date.now() });
    const up = await updating;
    expect(up.state.outputs).toMatchObject({ status: "running", image: GOOD_2 });
    const waiting = /^waiting for container rolling to start \(\d+s\)$/;
    expect(progress().map((m) => m.message)).toContainEqual(expect.stringMatching(waiting));
  });

  test.each([
    ["restartTrigger", { restartTrigger: "b" }],
    ["httpPort", { httpPort: 9090 }],
    ["env", { env: { A: "2" } }],
  ])("an update of %s is a rollout, awaited too", async (_name, change) => {
    fixture.sim.control.setSwitches({ serviceStartMs: 400 });
    const name = `rollout-${_name.toLowerCase()}`;
    const app = await created(CONTAINER, name, { name, image: GOOD, restartTrigger: "a", env: { A: "1" } });
    const up = await engine().up(
      CONTAINER,
      name,
      { name, image: GOOD, restartTrigger: "a", env: { A: "1" }, ...change },
      app,
    );
    expect(up.state.outputs.status).toBe("running");
  });

  test(
    "an update to an image that fails to start fails with the status and the log lines, " + "and records the new state",
    async () => {
      fixture.sim.control.setSwitches({ serviceStartMs: 200, crashingImageTags: ["2.0.0-bad"] });
      const app = await created(CONTAINER, "crashing", {
        name: "crashing",
        image: GOOD,
        env: { API_KEY: "s3cr3t-value" },
      });
      const up = await engine().up(
        CONTAINER,
        "crashing",
        { name: "crashing", image: BAD, env: { API_KEY: "s3cr3t-value" } },
        app,
      );
      expect(up.error).toBeDefined();
      const message = up.error!.details;
      expect(message).toMatch(
        /failed to start: its status is "failed" \(image registry\.example\.com\/team\/web:2\.0\.0-bad\)/,
      );
      expect(message).toMatch(/Cannot find module/);
      expect(message).toMatch(/CrashLoopBackOff/);
      expect(message.split("\n").length).toBeLessThanOrEqual(1 + 20);
      expect(up.state.outputs).toMatchObject({ status: "failed", image: BAD });
      expect(up.state.initErrors).toEqual([message]);
      // A refresh shows the failed app as it is.
      const refreshed = await engine().refresh(CONTAINER, "crashing", up.state);
      expect(refreshed).toMatchObject({ gone: false, state: { outputs: { status: "failed", image: BAD } } });
    },
  );

  test("a create that fails to start quotes the same log tail", async () => {
    fixture.sim.control.setSwitches({ serviceStartMs: 100, crashingImageTags: ["2.0.0-bad"] });
    const { error, state } = await engine().create(CONTAINER, "born-bad", { name: "born-bad", image: BAD });
    expect(error?.details).toMatch(/failed to start.*\n.*process exited with code 1/s);
    expect(state.outputs.status).toBe("failed");
  });

  test("customTimeouts.update ends a rollout wait in time, recording the app as it is", async () => {
    fixture.sim.control.setSwitches({ serviceStartMs: 60_000 });
    const app = await created(CONTAINER, "slow-roll", { name: "slow-roll", image: GOOD, running: false });
    // The app takes a minute to start: the update answers before then only because its 1 s timeout ended the wait
    // (the message says how long it waited: 1 s, or more when a loaded machine ran the timer late).
    const up = await engine().up(CONTAINER, "slow-roll", { name: "slow-roll", image: GOOD_2, running: true }, app, {
      timeouts: { update: 1 },
    });
    expect(up.error?.details).toMatch(/gave up waiting for container slow-roll to start after \d+s/);
    expect(up.state.outputs).toMatchObject({ status: "provisioning", image: GOOD_2 });
  });

  test("Cancel ends a rollout wait in time, recording the app as it is", async () => {
    const plugin = await Plugin.start();
    try {
      await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
      fixture.sim.control.setSwitches({ serviceStartMs: 0 });
      const { state: app } = await new Engine(plugin).create(CONTAINER, "cancelled", {
        name: "cancelled",
        image: GOOD,
      });
      fixture.sim.control.setSwitches({ serviceStartMs: 60_000 });
      const checked = await plugin.check(CONTAINER, "cancelled", { name: "cancelled", image: GOOD_2 }, app.inputs);
      const mark = fixture.mark();
      const updating = plugin
        .update(CONTAINER, "cancelled", app.id, app.outputs, checked.inputs, app.inputs)
        .catch((e) => e as GrpcFailure);
      await until(() => pollingAfterWrite(fixture.requestsSince(mark), /\/containers\//), "the rollout's wait");
      await plugin.cancel();
      // The app takes a minute to start: the update answers before then only because Cancel ended its wait.
      const err = (await updating) as GrpcFailure;
      // What to do next, which the CLI does not say after a Ctrl-C (test/e2e/recovery.test.ts): nothing by hand.
      expect(err.details).toContain(
        "stopped waiting for container cancelled to start: the operation was cancelled; the next `pulumi up` waits for it again;",
      );
      expect(initFailure(err)?.properties).toMatchObject({ status: "provisioning", image: GOOD_2 });
    } finally {
      await plugin.stop();
    }
  });
});
