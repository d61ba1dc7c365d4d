// A refresh at the engine's parallelism: the engine keeps P Reads in flight and sends the next as
// each is answered (step_executor.go). Every Read is answered by a request that began after it;
// shared list GETs gather all P at once (no quiet to wait for), so N Reads cost about N / P lists.
// The tests allow twice that: here the engine's side runs in this process beside the simulator,
// and on a loaded machine a pause of its own between sending two Reads splits a batch. The exact
// target, ⌈N/P⌉ + 2, is measured by the benchmark (`npm run bench`, rows 11-13) with Go's gRPC as
// the engine. What the tests catch is Reads that stop sharing: one request each is N, not 2N/P.
// Volumes and registries, which the API reads by id too: a lone Read is a GET by id, a batch one
// list. And `readConsistency: snapshot`: one list per kind per run, taken again after any write.
import { ALICE } from "../../simulator/src";
import { Plugin, type ResourceState } from "./engine";
import { CONTAINER, PROJECT, REGISTRY, VOLUME, useFixture, type Fixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const IMAGE = "registry.example.com/team/web:1.0.0";

/** Reads of `stack`, `window` in flight at a time, each next one sent when one is answered, as the engine does. */
async function refresh(plugin: Plugin, type: string, stack: ResourceState[], window: number) {
  let next = 0;
  const found: string[] = [];
  const worker = async () => {
    while (next < stack.length) {
      const r = stack[next++];
      found.push((await plugin.read(type, "r", r.id, r.outputs, r.inputs)).id);
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return found.sort();
}

/** The most requests `count` Reads, `window` at a time, may cost while they share: see the top of this file. */
const sharedBound = (count: number, window: number) => 2 * Math.ceil(count / window) + 2;

const gets = (f: Fixture, mark: number, path: RegExp) =>
  f.requestsSince(mark).filter((r) => r.method === "GET" && path.test(r.path)).length;

async function stackOf(
  type: string,
  count: number,
  inputs: (i: number) => Record<string, unknown>,
): Promise<ResourceState[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { inputs: checked } = await fixture.plugin.check(type, `r${i}`, inputs(i));
      const created = await fixture.plugin.create(type, `r${i}`, checked);
      return { id: created.id, inputs: checked, outputs: created.properties };
    }),
  );
}

let apps: ResourceState[];
beforeAll(async () => {
  apps = await stackOf(CONTAINER, 96, (i) => ({ name: `app-${i}`, image: IMAGE }));
});

test.each([8, 16, 32, 48])("%i Reads in flight: every app found, in about 96 / P list GETs", async (window) => {
  const mark = fixture.mark();
  const found = await refresh(fixture.plugin, CONTAINER, apps, window);
  expect(found).toEqual(apps.map((a) => a.id).sort());
  expect(gets(fixture, mark, /\/containers$/)).toBeLessThanOrEqual(sharedBound(96, window));
});

test("volumes: a lone Read is one GET by id; a window of Reads shares one list per batch", async () => {
  const volumes = await stackOf(VOLUME, 40, (i) => ({ name: `vol-${i}`, sizeGb: 1 }));
  let mark = fixture.mark();
  await refresh(fixture.plugin, VOLUME, volumes.slice(0, 1), 1);
  expect(fixture.requestsSince(mark).map((r) => r.path.replace(/[0-9a-f-]{36}$/, "{id}"))).toEqual([
    `/v1/projects/${PROJECT}/volumes/{id}`,
  ]);
  mark = fixture.mark();
  expect(await refresh(fixture.plugin, VOLUME, volumes, 8)).toEqual(volumes.map((v) => v.id).sort());
  expect(fixture.requestsSince(mark).length).toBeLessThanOrEqual(sharedBound(40, 8));
});

test("registries: the same choice", async () => {
  const registries = await stackOf(REGISTRY, 24, (i) => ({ name: `reg-${i}`, host: "ghcr.io" }));
  const mark = fixture.mark();
  expect(await refresh(fixture.plugin, REGISTRY, registries, 8)).toEqual(registries.map((r) => r.id).sort());
  expect(fixture.requestsSince(mark).length).toBeLessThanOrEqual(sharedBound(24, 8));
});

describe("readConsistency: snapshot", () => {
  let plugin: Plugin;
  beforeAll(async () => {
    plugin = await Plugin.start();
    await plugin.configure({
      baseUrl: fixture.sim.url,
      token: ALICE.token,
      projectId: PROJECT,
      readConsistency: "snapshot",
    });
  });
  afterAll(() => plugin.stop());

  test("a refresh at any parallelism reads each kind's list once per run", async () => {
    const mark = fixture.mark();
    expect(await refresh(plugin, CONTAINER, apps, 4)).toEqual(apps.map((a) => a.id).sort());
    expect(gets(fixture, mark, /\/containers$/)).toBe(1);
  });

  test("a write of this process drops the snapshot: the next Read sees what the write did", async () => {
    const app = apps[0];
    const checked = await plugin.check(
      CONTAINER,
      "r",
      { name: "app-0", image: "registry.example.com/team/web:2.0.0" },
      app.inputs,
    );
    await plugin.update(CONTAINER, "r", app.id, app.outputs, checked.inputs, app.inputs);
    const mark = fixture.mark();
    const read = await plugin.read(CONTAINER, "r", app.id, app.outputs, app.inputs);
    expect(read.properties.image).toBe("registry.example.com/team/web:2.0.0");
    expect(gets(fixture, mark, /\/containers$/)).toBe(1);
  });

  test(
    "the trade-off, said plainly: a change made outside Pulumi after the snapshot is not seen " + "in this run",
    async () => {
      const app = apps[1];
      await plugin.read(CONTAINER, "r", app.id, app.outputs, app.inputs);
      fixture.sim.control.mutate("services", app.id, { image: "registry.example.com/team/web:9.9.9" });
      expect((await plugin.read(CONTAINER, "r", app.id, app.outputs, app.inputs)).properties.image).toBe(IMAGE);
      // The default, fresh, sees it at once.
      expect((await fixture.plugin.read(CONTAINER, "r", app.id, app.outputs, app.inputs)).properties.image).toBe(
        "registry.example.com/team/web:9.9.9",
      );
    },
  );
});
