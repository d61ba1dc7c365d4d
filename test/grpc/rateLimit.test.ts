// A stack sharing a tight rate limit: its 429s are paced and bounded by the operation's time
// (customTimeouts), never by hosting:maxRetries, the status reads of a wait included; an
// operation that runs out of time while rate limited says so.
import * as grpc from "@grpc/grpc-js";
import { ALICE } from "../../simulator/src";
import { Engine, Plugin, type GrpcFailure } from "./engine";
import { CONTAINER, PROJECT, useFixture } from "./fixture";
import { until } from "./until";

const fixture = useFixture();
const IMAGE = "registry.example.com/team/web:1.0.0";
const CONTAINERS = /\/containers$/;

/** A plugin that gives up on a 5xx after one retry. */
async function withOneRetry<T>(run: (engine: Engine) => Promise<T>): Promise<T> {
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT, maxRetries: 1 });
    return await run(new Engine(plugin));
  } finally {
    fixture.sim.control.clearFaults();
    await plugin.stop();
  }
}

const statuses = (mark: number, method: string) =>
  fixture
    .requestsSince(mark)
    .filter((r) => r.method === method && CONTAINERS.test(r.path))
    .map((r) => r.status);

test("a create with time left goes through more 429s than hosting:maxRetries allows, and makes one app", async () => {
  const mark = fixture.mark();
  const { state, error } = await withOneRetry((engine) => {
    fixture.sim.control.injectFault({
      kind: "rate_limit",
      retryAfter: "0",
      method: "POST",
      path: "/containers$",
      times: 4,
    });
    return engine.create(CONTAINER, "patient", { name: "patient", image: IMAGE }, { timeouts: { create: 600 } });
  });
  expect(error).toBeUndefined();
  expect(state.outputs).toMatchObject({ name: "patient", status: "running" });
  expect(statuses(mark, "POST")).toEqual([429, 429, 429, 429, 201]);
  expect(fixture.sim.control.snapshot().services.filter((s) => s.name === "patient")).toHaveLength(1);
});

test("the status reads of a wait go through more 429s than hosting:maxRetries allows, and see the app start", async () => {
  fixture.sim.control.setSwitches({ serviceStartMs: 2_000 });
  const mark = fixture.mark();
  try {
    const { state, error } = await withOneRetry(async (engine) => {
      const creating = engine.create(CONTAINER, "waiting", { name: "waiting", image: IMAGE });
      // Armed once the app is made: the 429s fall on the reads of its status while it starts.
      await until(() => statuses(mark, "POST").includes(201), "the create's POST");
      fixture.sim.control.injectFault({
        kind: "rate_limit",
        retryAfter: "0",
        method: "GET",
        path: "/containers$",
        times: 4,
      });
      return creating;
    });
    expect(error).toBeUndefined();
    expect(state.outputs).toMatchObject({ name: "waiting", status: "running" });
    const reads = statuses(mark, "GET");
    expect(reads.slice(reads.indexOf(429))).toEqual(expect.arrayContaining([429, 429, 429, 429, 200]));
  } finally {
    fixture.sim.control.setSwitches({ serviceStartMs: 0 });
  }
});

test("a create whose time runs out while rate limited fails naming the rate limit, and makes nothing", async () => {
  const mark = fixture.mark();
  const err = await withOneRetry(async (engine) => {
    fixture.sim.control.injectFault({
      kind: "rate_limit",
      retryAfter: "1",
      method: "POST",
      path: "/containers$",
      times: 1000,
    });
    return (await engine
      .create(CONTAINER, "hurried", { name: "hurried", image: IMAGE }, { timeouts: { create: 2 } })
      .catch((e) => e)) as GrpcFailure;
  });
  expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
  expect(err.details).toMatch(
    /^did not finish within 2s \(customTimeouts\): the API was rate limiting it \(\d+ answers were 429 RATE_LIMITED/,
  );
  expect(statuses(mark, "POST").every((status) => status === 429)).toBe(true);
  expect(statuses(mark, "POST").length).toBeGreaterThan(2); // more than maxRetries + 1 attempts
  expect(fixture.sim.control.snapshot().services.filter((s) => s.name === "hurried")).toHaveLength(0);
});
