// Never lose, never take (issue 30), against a misbehaving API and a misconfigured run, over gRPC:
// a list that omits a record once, a DELETE that leaves it, a volume read mid-growth, a create whose
// answer was lost beside another stack's app of the same name, ids that are not ids, secrets of any
// size, Unicode the API normalizes, and HTTP answers at the edge.
import { ALICE } from "../../simulator/src";
import { DIFF_NONE, Engine, isSecret, secret, type ResourceState } from "./engine";
import { CONTAINER, PROJECT, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/app:1.0.0";
const lists = (mark: number, tail: string) =>
  fixture.requestsSince(mark).filter((r) => r.method === "GET" && r.path === `/v1/projects/${PROJECT}/${tail}`).length;
const live = (id: string) => fixture.sim.control.snapshot().services.find((s) => s.id === id);

afterEach(() => {
  fixture.sim.control.setSwitches({ normalizesUnicode: false });
  fixture.sim.control.clearFaults();
});

let counter = 0;
const unique = (base: string) => `${base}-${++counter}`;
async function app(extra: Record<string, unknown> = {}): Promise<ResourceState> {
  const name = unique("app");
  return engine().created(CONTAINER, name, { name, image: IMAGE, ...extra });
}
const api = (method: string, path: string, body?: unknown) =>
  fetch(`${fixture.sim.url}/v1/projects/${PROJECT}${path}`, {
    method,
    headers: { authorization: `Bearer ${ALICE.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("gone only after a second look", () => {
  test("a list answer that omits the app once: the Read looks again, with a fresh request, and finds it", async () => {
    const a = await app();
    fixture.sim.control.injectFault({ kind: "omit_record", method: "GET", path: "/containers$", id: a.id, times: 1 });
    const mark = fixture.mark();
    const refreshed = await engine().refresh(CONTAINER, String(a.inputs.name), a);
    expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
    expect(lists(mark, "containers")).toBe(2);
  });

  test("an app really deleted reads as gone, after the second look", async () => {
    const a = await app();
    fixture.sim.control.remove("services", a.id);
    const mark = fixture.mark();
    expect(await engine().refresh(CONTAINER, String(a.inputs.name), a)).toEqual({ gone: true });
    expect(lists(mark, "containers")).toBe(2);
  });

  test("a volume whose GET answers 404 once is read again, and found", async () => {
    const name = unique("vol");
    const v = await engine().created(VOLUME, name, { name, sizeGb: 1 });
    fixture.sim.control.injectFault({
      kind: "status",
      status: 404,
      method: "GET",
      path: `/volumes/${v.id}$`,
      times: 1,
    });
    expect(await engine().refresh(VOLUME, name, v)).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
  });
});

describe("a delete is done when the resource is gone", () => {
  test("a DELETE that answers 204 but leaves the app fails plainly within customTimeouts; the app stays in the stack, and a later destroy works", async () => {
    const a = await app();
    fixture.sim.control.injectFault({ kind: "ignored", method: "DELETE", path: `/containers/${a.id}$`, times: 1000 });
    const before = fixture.plugin.engine.messages.length;
    const deleting = fixture.plugin.delete(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs, {
      timeout: 2,
    });
    await expect(deleting).rejects.toMatchObject({
      details: expect.stringMatching(
        /the API accepted the delete of container app-\d+, but it is still there.*so it stays in the stack/,
      ),
    });
    expect(
      fixture.plugin.engine.messages
        .slice(before)
        .map((m) => m.message)
        .join("\n"),
    ).toMatch(/waiting for container app-\d+ to be gone/);
    expect(live(a.id)).toBeDefined();
    fixture.sim.control.clearFaults();
    await fixture.plugin.delete(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs);
    expect(live(a.id)).toBeUndefined();
  });

  test(
    "a 204 that carries a body (which undici cannot read) still deletes: the app is gone, " + "so the delete is done",
    async () => {
      const a = await app();
      fixture.sim.control.injectFault({
        kind: "respond_after",
        method: "DELETE",
        path: `/containers/${a.id}$`,
        status: 204,
        body: "oops",
        times: 5,
      });
      await fixture.plugin.delete(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs);
      expect(live(a.id)).toBeUndefined();
    },
  );
});

test("a volume that ran and reads provisioning during a refresh (while it grows) is reported as it is, not as a failure", async () => {
  const name = unique("vol");
  const v = await engine().created(VOLUME, name, { name, sizeGb: 1 });
  fixture.sim.control.mutate("volumes", v.id, { status: "provisioning", ready_at: null });
  const refreshed = await engine().refresh(VOLUME, name, v);
  expect(refreshed).toMatchObject({ gone: false, state: { outputs: { status: "provisioning" } } });
  expect(refreshed.gone === false && refreshed.state.initErrors).toBeUndefined();
});

describe("nothing is taken that is not ours", () => {
  test("another stack's app of the same name and image, made just before our create whose POST was lost, is never adopted", async () => {
    const name = unique("shared");
    const theirs = (await (
      await api("POST", "/containers", { name, image: IMAGE, http_port: 8080, env: { OWNER: "them" } })
    ).json()) as { id: string };
    fixture.sim.control.injectFault({ kind: "reset_before", method: "POST", path: "/containers$", times: 1 });
    const mark = fixture.mark();
    const created = engine().create(CONTAINER, name, { name, image: IMAGE, env: { OWNER: "us" } });
    await expect(created).rejects.toMatchObject({ details: expect.stringMatching(/NAME_TAKEN/) });
    expect(live(theirs.id)?.env).toEqual({ OWNER: "them" });
    expect(fixture.requestsSince(mark).filter((r) => r.method === "PATCH")).toEqual([]);
    // Its cost: one list before the create, shared by the creates in flight together.
    expect(fixture.requestsSince(mark)[0]).toMatchObject({
      method: "GET",
      path: `/v1/projects/${PROJECT}/containers`,
    });
  });

  test.each(["..", "a/../b", ""])(
    "a create answered with the id %j fails, naming the resource and how to adopt it; no path uses it",
    async (badId) => {
      const name = unique("odd");
      const body = JSON.stringify({
        id: badId,
        project_id: PROJECT,
        name,
        type: "container",
        status: "running",
        env: {},
      });
      fixture.sim.control.injectFault({
        kind: "respond_after",
        method: "POST",
        path: "/containers$",
        status: 201,
        body,
      });
      const mark = fixture.mark();
      await expect(engine().create(CONTAINER, name, { name, image: IMAGE })).rejects.toMatchObject({
        details: expect.stringMatching(
          new RegExp(
            `the API answered the create of containers "${name}" with the id ${JSON.stringify(JSON.stringify(badId)).slice(1, -1)}, which is not an id.*adopt it with \`pulumi import\``,
          ),
        ),
      });
      expect(
        fixture
          .requestsSince(mark)
          .map((r) => r.path)
          .filter((p) => p.includes("/..") || p.endsWith("/containers/")),
      ).toEqual([]);
    },
  );
});

test("secrets of any size: a 32 KiB secret env value is learned, every message is still redacted, and the plugin keeps serving", async () => {
  // 32,768 characters: one regular expression of all the secrets failed from this size on.
  const big = `s3cret-${"x".repeat(32 * 1024 - 7)}`;
  const a = await app({ env: secret({ BIG: big }) });
  expect(isSecret(a.outputs.env)).toBe(true);
  fixture.sim.control.setAutoscaling(a.id, true);
  await expect(
    engine().up(CONTAINER, String(a.inputs.name), { ...a.inputs, env: secret({ BIG: big }), replicas: 3 }, a),
  ).rejects.toMatchObject({
    details: expect.stringMatching(/autoscaling controls its instance count/),
  });
  expect(fixture.plugin.stderr).not.toContain(big);
  expect(fixture.plugin.engine.messages.map((m) => m.message).join("\n")).not.toContain(big);
  expect((await fixture.plugin.read(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs)).id).toBe(a.id);
});

test("an API that stores Unicode in NFC (NFD sent): refresh shows no drift, and a preview no change", async () => {
  fixture.sim.control.setSwitches({ normalizesUnicode: true });
  const a = await app({ env: { GREETING: "cafe\u0301" }, displayName: "Cafe\u0301 app" });
  expect(live(a.id)).toMatchObject({ env: { GREETING: "caf\u00e9" }, display_name: "Caf\u00e9 app" });
  const refreshed = await engine().refresh(CONTAINER, String(a.inputs.name), a);
  expect(refreshed).toMatchObject({ gone: false, diff: { changes: DIFF_NONE } });
  const preview = await engine().preview(
    CONTAINER,
    String(a.inputs.name),
    a.inputs,
    refreshed.gone ? a : refreshed.state,
  );
  expect(preview.diff?.changes).toBe(DIFF_NONE);
});

describe("HTTP answers at the edge", () => {
  test.each(["-5", "soon", "1e400"])(
    "a 429 whose Retry-After is %j waits the default pause, and the read succeeds",
    async (retryAfter) => {
      const a = await app();
      fixture.sim.control.injectFault({
        kind: "rate_limit",
        method: "GET",
        path: "/containers$",
        retryAfter,
        times: 1,
      });
      expect(await engine().refresh(CONTAINER, String(a.inputs.name), a)).toMatchObject({
        gone: false,
        diff: { changes: DIFF_NONE },
      });
    },
  );

  test("a garbage gzip body fails the read plainly, naming the request, and the plugin keeps serving", async () => {
    const a = await app();
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "GET",
      path: "/containers$",
      status: 200,
      headers: { "content-encoding": "gzip" },
      body: "\u001f\u008bnot gzip at all",
      times: 10,
    });
    await expect(
      fixture.plugin.read(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs),
    ).rejects.toMatchObject({
      details: expect.stringMatching(/GET \/v1\/projects\/.*\/containers.*not valid JSON/),
    });
    fixture.sim.control.clearFaults();
    expect((await fixture.plugin.read(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs)).id).toBe(a.id);
  });

  test("retries that run out against 503s name the last HTTP status", async () => {
    const a = await app();
    fixture.sim.control.injectFault({ kind: "status", status: 503, method: "GET", path: "/containers$", times: 1000 });
    await expect(
      fixture.plugin.read(CONTAINER, String(a.inputs.name), a.id, a.outputs, a.inputs, 3),
    ).rejects.toMatchObject({
      details: expect.stringMatching(/HTTP 503/),
    });
    fixture.sim.control.clearFaults();
  });
});

test("a baseUrl that already ends in /v1 means the same API, not /v1/v1", async () => {
  const plugin = fixture.plugin;
  await plugin.configure({ baseUrl: `${fixture.sim.url}/v1`, token: ALICE.token, projectId: PROJECT });
  try {
    const a = await app();
    expect(fixture.sim.control.requests().some((r) => r.path.startsWith("/v1/v1"))).toBe(false);
    expect(a.outputs.status).toBe("running");
  } finally {
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
  }
});
