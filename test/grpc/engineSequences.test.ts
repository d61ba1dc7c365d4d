// The sequences the real engine sends (test/grpc/engine.ts `Engine`, each mirroring an engine
// function), and what the plugin must answer to each: refresh diffs the other way round,
// ignoreChanges is the engine's, forced replacements create before they delete, a retried
// partial failure is an Update, previews never claim what an update may move, and an import
// of an unchanged resource diffs as none.
import { ALICE } from "../../simulator/src";
import { DIFF_NONE, DIFF_SOME, Engine, Plugin, UNKNOWN, isSecret, plain, secret, type GrpcFailure } from "./engine";
import { CONTAINER, LINK, POSTGRES, PROJECT, REGISTRY, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 300 });
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";

afterEach(() =>
  fixture.sim.control.setSwitches({ volumeProvisioningMs: 300, serviceStartMs: 0, crashingImageTags: [] }),
);

const created = (type: string, name: string, program: Record<string, unknown>) => engine().created(type, name, program);

describe(
  "refresh (RefreshStep.Apply: Read, then Diff with olds = what Read returned, " + "news = the stored inputs)",
  () => {
    test(
      "a volume grown in the portal shows as drift, never as an error; " + "the next preview refuses the shrink",
      async () => {
        const volume = await created(VOLUME, "grown", { name: "grown", sizeGb: 10 });
        fixture.sim.control.mutate("volumes", volume.id, { size_gb: 40 });
        const refreshed = await engine().refresh(VOLUME, "grown", volume);
        if (refreshed.gone) throw new Error("gone");
        expect(refreshed.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["sizeGb"], replaces: [] });
        expect(refreshed.state.inputs.sizeGb).toBe(40);
        const preview = await engine().preview(VOLUME, "grown", { name: "grown", sizeGb: 10 }, refreshed.state);
        expect(preview.error).toMatchObject({
          code: 3,
          details: expect.stringMatching(/^sizeGb can only grow: it is 40 now.*Use 40 or more/),
        });
      },
    );

    test("a database resized in the portal shows as drift; the next up says it cannot resize", async () => {
      const db = await created(POSTGRES, "resized", { name: "resized", storageGb: 5 });
      fixture.sim.control.mutate("services", db.id, { storage_gb: 9 });
      const refreshed = await engine().refresh(POSTGRES, "resized", db);
      if (refreshed.gone) throw new Error("gone");
      expect(refreshed.diff).toMatchObject({ changes: DIFF_SOME, diffs: ["storageGb"] });
      const preview = await engine().preview(POSTGRES, "resized", { name: "resized", storageGb: 5 }, refreshed.state);
      expect(preview.error).toMatchObject({
        code: 3,
        details: expect.stringMatching(/^storageGb cannot change from 9 to 5: the API cannot resize/),
      });
    });

    test("an unchanged world refreshes as no change (preview --refresh --expect-no-changes passes)", async () => {
      const app = await created(CONTAINER, "calm", { name: "calm", image: IMAGE, env: { A: "1" } });
      const refreshed = await engine().refresh(CONTAINER, "calm", app);
      expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
    });

    test("ReadRequest.timeout (customTimeouts.read) ends a Read that takes longer", async () => {
      const app = await created(CONTAINER, "slow-read", { name: "slow-read", image: IMAGE });
      // A plugin of its own: the slow list it leaves in flight must not hold up the other tests' reads.
      const plugin = await Plugin.start();
      try {
        await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
        fixture.sim.control.injectFault({ kind: "latency", method: "GET", path: "/containers$", latencyMs: 4_000 });
        // The list takes 4 s to answer: the Read fails, naming its 1 s, only because the timeout ended it.
        const err = (await new Engine(plugin)
          .refresh(CONTAINER, "slow-read", app, { timeouts: { read: 1 } })
          .catch((e) => e)) as GrpcFailure;
        expect(err).toMatchObject({
          code: 4 /* DEADLINE_EXCEEDED */,
          details: expect.stringMatching(/did not finish within 1s/),
        });
      } finally {
        fixture.sim.control.clearFaults();
        await plugin.stop();
      }
    });
  },
);

describe("ignoreChanges (processIgnoreChanges puts the old inputs back before Check)", () => {
  test('a registry password rotated elsewhere survives `up` with ignoreChanges: ["password"]', async () => {
    const registry = await created(REGISTRY, "rotated", {
      name: "rotated",
      host: "ghcr.io",
      username: "ci",
      password: secret("first"),
    });
    const onServer = () => fixture.sim.control.snapshot().registries.find((r) => r.id === registry.id)!;
    fixture.sim.control.mutate("registries", registry.id, { password: "rotated-elsewhere" });
    const mark = fixture.mark();
    const up = await engine().up(
      REGISTRY,
      "rotated",
      { name: "rotated", host: "ghcr.io", username: "ci", password: secret("stale") },
      registry,
      {
        ignoreChanges: ["password"],
      },
    );
    expect(up.diff).toMatchObject({ changes: DIFF_NONE, diffs: [] });
    expect(up.steps).toEqual([]);
    expect(fixture.requestsSince(mark)).toEqual([]);
    expect(onServer().password).toBe("rotated-elsewhere");
  });

  test('ignoreChanges: ["env"] shows no deletion, run after run', async () => {
    const app = await created(CONTAINER, "ignoring", { name: "ignoring", image: IMAGE, env: { A: "1" } });
    for (const env of [{ A: "2" }, undefined]) {
      const up = await engine().up(
        CONTAINER,
        "ignoring",
        { name: "ignoring", image: IMAGE, ...(env ? { env } : {}) },
        app,
        { ignoreChanges: ["env"] },
      );
      expect(up.diff).toMatchObject({ changes: DIFF_NONE });
      expect(up.steps).toEqual([]);
    }
  });
});

describe("a targeted replacement (isTargetedReplace: --replace, taint): no Diff, create before delete", () => {
  test(
    "a named resource replaced without deleteBeforeReplace meets NAME_TAKEN, " + "and the message says what to set",
    async () => {
      const app = await created(CONTAINER, "replaced", { name: "replaced", image: IMAGE });
      const err = (await engine()
        .forceReplace(CONTAINER, "replaced", { name: "replaced", image: IMAGE }, app)
        .catch((e) => e)) as GrpcFailure;
      expect(err.code).toBe(9 /* FAILED_PRECONDITION */);
      expect(err.details).toMatch(/NAME_TAKEN.*deleteBeforeReplace: true/s);
      expect(
        fixture.sim.control
          .snapshot()
          .services.filter((s) => s.name === "replaced")
          .map((s) => s.id),
      ).toEqual([app.id]);
    },
  );

  test("with deleteBeforeReplace: true it is replaced", async () => {
    const app = await created(CONTAINER, "dbr", { name: "dbr", image: IMAGE });
    const replaced = await engine().forceReplace(CONTAINER, "dbr", { name: "dbr", image: IMAGE }, app, {
      deleteBeforeReplace: true,
    });
    expect(replaced.steps).toEqual(["delete", "create"]);
    expect(replaced.state.id).not.toBe(app.id);
    expect(
      fixture.sim.control
        .snapshot()
        .services.filter((s) => s.name === "dbr")
        .map((s) => s.id),
    ).toEqual([replaced.state.id]);
  });

  test("a ServiceLink's create adopts the identical link that still exists", async () => {
    const web = await created(CONTAINER, "linked-web", { name: "linked-web", image: IMAGE });
    const db = await created(POSTGRES, "linked-db", { name: "linked-db" });
    const link = await created(LINK, "web-db", { consumerServiceId: web.id, providerServiceId: db.id });
    const before = fixture.plugin.engine.messages.length;
    const replaced = await engine().forceReplace(
      LINK,
      "web-db",
      { consumerServiceId: web.id, providerServiceId: db.id },
      link,
    );
    expect(replaced.error).toBeUndefined();
    expect(replaced.state.id).toBe(link.id);
    expect(isSecret(replaced.state.outputs.injectedEnv)).toBe(true);
    const warnings = fixture.plugin.engine.messages.slice(before).map((m) => m.message);
    expect(warnings.join("\n")).toMatch(/an identical service link already exists .*adopted/);
    expect(fixture.sim.control.snapshot().links.filter((l) => l.consumer_service_id === web.id)).toHaveLength(1);
  });
});

describe("a retried partial failure is an Update (continueStepsFromDiff: init errors make an empty update)", () => {
  test(
    "a volume whose create timed out is waited for again by the next up, " + "which then records it healthy",
    async () => {
      fixture.sim.control.setSwitches({ volumeProvisioningMs: 2_500 });
      const first = await engine().create(VOLUME, "slow", { name: "slow", sizeGb: 5 }, { timeouts: { create: 1 } });
      expect(first.error).toBeDefined();
      expect(first.state).toMatchObject({
        outputs: { status: "provisioning" },
        initErrors: [expect.stringMatching(/gave up waiting/)],
      });
      const retried = await engine().up(VOLUME, "slow", { name: "slow", sizeGb: 5 }, first.state);
      expect(retried.diff).toMatchObject({ changes: DIFF_NONE });
      expect(retried.steps).toEqual(["update"]);
      expect(retried.error).toBeUndefined();
      expect(retried.state.outputs.status).toBe("running");
      expect(retried.state.initErrors).toBeUndefined();
    },
  );

  test("a container that failed to start is reported failed again until its image is fixed", async () => {
    fixture.sim.control.setSwitches({ serviceStartMs: 200, crashingImageTags: ["2.0.0-bad"] });
    const bad = "registry.example.com/team/web:2.0.0-bad";
    const first = await engine().create(CONTAINER, "crashy", { name: "crashy", image: bad });
    expect(first.state).toMatchObject({
      outputs: { status: "failed", image: bad },
      initErrors: [expect.stringMatching(/failed to start/)],
    });
    const again = await engine().up(CONTAINER, "crashy", { name: "crashy", image: bad }, first.state);
    expect(again.steps).toEqual(["update"]);
    expect(again.error?.details).toMatch(/status is "failed"/);
    expect(again.state.initErrors).toHaveLength(1);
    const fixed = await engine().up(CONTAINER, "crashy", { name: "crashy", image: IMAGE }, again.state);
    expect(fixed.error).toBeUndefined();
    expect(fixed.state.outputs).toMatchObject({ status: "running", image: IMAGE });
    expect(fixed.state.initErrors).toBeUndefined();
  });
});

describe("previews never claim what an update may move (Update with preview)", () => {
  test("internalHost is unknown when httpPort changes, and known when it does not", async () => {
    const app = await created(CONTAINER, "ported", { name: "ported", image: IMAGE });
    const preview = async (program: Record<string, unknown>) => {
      const checked = await fixture.plugin.check(CONTAINER, "ported", program, app.inputs);
      return (
        await fixture.plugin.update(CONTAINER, "ported", app.id, app.outputs, checked.inputs, app.inputs, {
          preview: true,
        })
      ).properties;
    };
    expect(await preview({ name: "ported", image: IMAGE, httpPort: 9090 })).toMatchObject({
      internalHost: UNKNOWN,
      httpPort: 9090,
    });
    expect(await preview({ name: "ported", image: IMAGE, replicas: 2 })).toMatchObject({
      internalHost: app.outputs.internalHost,
      publicUrl: app.outputs.publicUrl,
      createdAt: app.outputs.createdAt,
      status: UNKNOWN,
      updatedAt: UNKNOWN,
    });
  });

  test("a volume's growth keeps what a resize cannot move", async () => {
    const volume = await created(VOLUME, "previewed", { name: "previewed", sizeGb: 5 });
    const checked = await fixture.plugin.check(VOLUME, "previewed", { name: "previewed", sizeGb: 6 }, volume.inputs);
    const { properties } = await fixture.plugin.update(
      VOLUME,
      "previewed",
      volume.id,
      volume.outputs,
      checked.inputs,
      volume.inputs,
      { preview: true },
    );
    expect(properties).toMatchObject({
      sizeGb: 6,
      status: UNKNOWN,
      statusReason: UNKNOWN,
      updatedAt: UNKNOWN,
      createdAt: volume.outputs.createdAt,
      storageClass: "block-durable",
    });
  });
});

describe("import with the import: option (Read with the id, Check against Read's inputs, Diff)", () => {
  test("a container the program describes as it is diffs as none, env or no env", async () => {
    const plainApp = await created(CONTAINER, "imported", { name: "imported", image: IMAGE });
    const imported = await engine().importResource(CONTAINER, "imported", plainApp.id, {
      name: "imported",
      image: IMAGE,
    });
    expect(imported.read.inputs).not.toHaveProperty("env");
    expect(imported.checked.failures).toEqual([]);
    expect(imported.diff).toMatchObject({ changes: DIFF_NONE });
    const envApp = await created(CONTAINER, "imported-env", { name: "imported-env", image: IMAGE, env: { A: "1" } });
    const withEnv = await engine().importResource(CONTAINER, "imported-env", `${PROJECT}/${envApp.id}`, {
      name: "imported-env",
      image: IMAGE,
      env: { A: "1" },
    });
    expect(withEnv.diff).toMatchObject({ changes: DIFF_NONE });
  });
});

describe("status codes the engine reads as clean failures (not 'state may be corrupt')", () => {
  test.each([
    [
      "an id of the wrong form",
      () => fixture.plugin.read("hosting:index:VolumeAttachment", "x", "not-an-attachment-id"),
      3 /* INVALID_ARGUMENT */,
    ],
    [
      "an update of something gone",
      async () => {
        const app = await created(CONTAINER, "gone", { name: "gone", image: IMAGE });
        fixture.sim.control.remove("services", app.id);
        const checked = await fixture.plugin.check(
          CONTAINER,
          "gone",
          { name: "gone", image: "registry.example.com/team/web:2.0.0" },
          app.inputs,
        );
        return fixture.plugin.update(CONTAINER, "gone", app.id, app.outputs, checked.inputs, app.inputs);
      },
      5 /* NOT_FOUND */,
    ],
  ])("%s", async (_name, call, code) => {
    await expect(call()).rejects.toMatchObject({ code });
  });

  test("a token the API refuses is UNAUTHENTICATED", async () => {
    const plugin = await Plugin.start();
    try {
      await plugin.configure({ baseUrl: fixture.sim.url, token: "sim-token-nobody", projectId: PROJECT });
      const { inputs } = await plugin.check(CONTAINER, "nope", { name: "nope", image: IMAGE });
      await expect(plugin.create(CONTAINER, "nope", inputs)).rejects.toMatchObject({ code: 16 /* UNAUTHENTICATED */ });
    } finally {
      await plugin.stop();
    }
  });
});

test("Attach: a plugin started by hand (PULUMI_DEBUG_PROVIDERS) logs to the engine it is attached to", async () => {
  const plugin = await Plugin.start({ unattached: true });
  try {
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
    const request = new (require("@pulumi/pulumi/proto/plugin_pb").PluginAttach)();
    request.setAddress(plugin.engine.address);
    await plugin.call("attach", request);
    fixture.sim.control.setSwitches({ volumeProvisioningMs: 1_000 });
    const { inputs } = await plugin.check(VOLUME, "attached", { name: "attached", sizeGb: 1 });
    await plugin.create(VOLUME, "attached", inputs);
    expect(plugin.engine.messages.some((m) => /waiting for volume attached to be running/.test(m.message))).toBe(true);
  } finally {
    await plugin.stop();
  }
});

test("the engine's stand-in keeps ignoreChanges as the engine does: reset to the old input, or removed", () => {
  const { processIgnoreChanges } = require("./engine");
  expect(processIgnoreChanges({ a: 2, b: 3 }, { a: 1 }, ["a", "b"])).toEqual({ a: 1 });
  expect(plain({ x: secret("y") })).toEqual({ x: "y" });
});
