// An app's rollout carried out (resources/rollout/run.ts), each step failing in turn: what state records (failure.ts),
// whether the engine is asked to refresh the app before its next update, and what the next `pulumi up` does (the
// plan from what was recorded, then carried out: the app ends as the program asks, with its link's variables).
// In-process, against the simulator over HTTP, with a client that gives up at the first 503.
import { HostingClient } from "../../../provider/src/api/client";
import { closeSharedDispatcher } from "../../../provider/src/api/http";
import { PartialFailure } from "../../../provider/src/framework/declare";
import { container } from "../../../provider/src/resources/container";
import type { Context } from "../../../provider/src/resources/common";
import { postgres } from "../../../provider/src/resources/postgres";
import type { Program } from "../../../provider/src/resources/rollout/app";
import { type Step, updateSteps } from "../../../provider/src/resources/rollout/plan";
import { ALICE, type Fault, startSimulator, type Simulator } from "../../../simulator/src";
import { contextFor } from "../inProcess";

const PROJECT = ALICE.projects[0];
const IMAGE = "registry.example.com/team/api:1.0.0";
const BAD = "registry.example.com/team/api:2.0.0-bad";

let sim: Simulator;
let ctx: Context;
let db: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, serviceStartMs: 0, volumeProvisioningMs: 0 });
  ctx = contextFor(new HostingClient({ baseUrl: sim.url, token: ALICE.token, maxRetries: 0 }), PROJECT);
  db = (await postgres.lifecycle.create(ctx, { name: "run-db", projectId: PROJECT } as never)).id;
});
afterAll(async () => {
  await closeSharedDispatcher();
  await sim?.close();
});
afterEach(() => {
  sim.control.clearFaults();
  sim.control.setFaultSource(undefined);
  sim.control.setSwitches({ appsRequireEnv: [], serviceStartMs: 0, crashingImageTags: [] });
});

const app = (id: string) => sim.control.snapshot().services.find((s) => s.id === id)!;
const linkedTo = (id: string) =>
  sim.control
    .snapshot()
    .links.filter((l) => l.consumer_service_id === id)
    .map((l) => l.provider_service_id);
let counter = 0;
/** A Container's inputs as Check fills them in. */
const program = (name: string, extra: Partial<Program> = {}) =>
  ({
    name,
    projectId: PROJECT,
    image: IMAGE,
    httpPort: 8080,
    running: true,
    rollbackOnFailure: false,
    ...extra,
  }) as const;
const on = (method: string, path: string): Fault => ({ kind: "status", status: 503, method, path });

const link = (...services: string[]): Step => ({ step: "link", services });
const wait: Step = { step: "await" };
const restartForLinks: Step = { step: "restart", for: "links", unlessAdopted: false };

/** What a failed operation came to: the partial failure's message, outputs and refresh mark. */
async function failure(operation: Promise<unknown>): Promise<PartialFailure> {
  const err = await operation.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof PartialFailure)) throw new Error(`expected a partial failure, got ${String(err)}`);
  return err;
}

describe("an update's steps, each failing: what state records, and what the next up does", () => {
  type Case = {
    /** The step that fails. */
    step: string;
    /** The app before the update (besides what `from` sets), and what the program changes besides adding the link. */
    from?: Partial<Program>;
    change?: Partial<Program>;
    /** The fault that fails the step, or a switch that does. */
    fault: Fault | "its time runs out" | "the app fails to start" | "the roll back's PATCH";
    /**
     * What state records after the failure (`linked`: the link in `links`), and whether the engine refreshes the app
     * before the next update.
     */
    recorded: { linked: boolean; status: string; refreshFirst: boolean };
    /** The next `pulumi up`'s plan, from what was recorded. */
    next: (settings: { db: string }) => Step[];
    /** How the app ends after the next up: running with the link's variables, or stopped and linked. */
    ends?: "running" | "stopped";
  };
  const cases: Case[] = [
    {
      step: "the link",
      fault: on("POST", "/service-links$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [link(db), restartForLinks, wait],
      ends: "running",
    },
    {
      step: "the PATCH (replicas, which roll nothing out)",
      change: { replicas: 2 },
      fault: on("PATCH", "/containers/[^/]+$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [
        link(db),
        { step: "patch", settings: { replicas: 2 }, keepLinked: true },
        restartForLinks,
        wait,
      ],
      ends: "running",
    },
    {
      step: "the PATCH (env, whose rollout would carry the link)",
      change: { env: { LOG_LEVEL: "debug" } },
      fault: on("PATCH", "/containers/[^/]+$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [
        link(db),
        { step: "patch", settings: { env: { LOG_LEVEL: "debug" } }, keepLinked: true },
        wait,
      ],
      ends: "running",
    },
    {
      step: "the restart the link needs",
      fault: on("POST", "/restart$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [link(db), restartForLinks, wait],
      ends: "running",
    },
    {
      step: "the restart a changed restartTrigger makes (which would carry the link)",
      from: { restartTrigger: "a" },
      change: { restartTrigger: "b" },
      fault: on("POST", "/restart$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [link(db), { step: "restart", for: "restartTrigger" }, wait],
      ends: "running",
    },
    {
      step: "the stop",
      change: { running: false },
      fault: on("POST", "/stop$"),
      recorded: { linked: false, status: "running", refreshFirst: false },
      next: ({ db }) => [link(db), { step: "stop" }, wait],
      ends: "stopped",
    },
    {
      step: "the start (the app read stopped carries the link into its next start)",
      from: { running: false },
      change: { running: true },
      fault: on("POST", "/start$"),
      recorded: { linked: true, status: "stopped", refreshFirst: false },
      next: () => [{ step: "start" }, wait],
      ends: "running",
    },
    {
      step: "the await, its time run out",
      fault: "its time runs out",
      recorded: { linked: true, status: "provisioning", refreshFirst: true },
      next: () => [wait],
      ends: "running",
    },
    {
      step: "the await, the new release failing to start",
      change: { image: BAD },
      fault: "the app fails to start",
      recorded: { linked: true, status: "failed", refreshFirst: true },
      next: () => [wait],
    },
    {
      step: "the roll back (rollbackOnFailure), its PATCH",
      from: { rollbackOnFailure: true },
      change: { image: BAD },
      fault: "the roll back's PATCH",
      recorded: { linked: true, status: "failed", refreshFirst: true },
      next: () => [wait],
    },
  ];

  test.each(cases)("$step", async ({ from = {}, change = {}, fault, recorded, next, ends }) => {
    const name = `run-${++counter}`;
    const before = program(name, from);
    const created = await container.lifecycle.create(ctx, before as never);
    const id = created.id;
    sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
    const news = { ...before, ...change, links: [db] };
    if (fault === "its time runs out") sim.control.setSwitches({ serviceStartMs: 10 * 60_000 });
    else if (fault === "the app fails to start") sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
    else if (fault === "the roll back's PATCH") {
      sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
      let patches = 0;
      sim.control.setFaultSource((method) => (method === "PATCH" && ++patches === 2 ? on("PATCH", "") : undefined));
    } else sim.control.injectFault(fault);
    const short = fault === "its time runs out" ? { ...ctx, operationTimeoutMs: 300 } : ctx;
    const olds = created.outputs;
    const failed = await failure(
      container.lifecycle.update!(short, { id, projectId: PROJECT }, { olds, news, oldInputs: before } as never),
    );
    expect(failed.message).toMatch(
      fault === "the roll back's PATCH"
        ? /failed to start.*Rolling it back to image .*1\.0\.0 \(rollbackOnFailure\) failed: .*HTTP 503/s
        : recorded.refreshFirst
          ? /./
          : new RegExp(`^container "${name}" was updated only in part: .*HTTP 503`),
    );
    expect(failed.outputs).toMatchObject({ links: recorded.linked ? [db] : [], status: recorded.status });
    expect(failed.refreshFirst).toBe(recorded.refreshFirst);
    // The engine keeps the old inputs after an update's partial failure: the next up diffs the program against them.
    const steps = updateSteps(failed.outputs as Program, news as Program, before);
    expect(steps).toEqual(next({ db }));
    if (!ends) return;
    sim.control.setSwitches({ serviceStartMs: 0 });
    sim.control.mutate("services", id, { ready_at: Date.now() });
    const outputs = await container.lifecycle.update!(ctx, { id, projectId: PROJECT }, {
      olds: failed.outputs,
      news,
      oldInputs: before,
    } as never);
    expect(linkedTo(id)).toEqual([db]);
    expect(app(id).status).toBe(ends);
    expect(outputs).toMatchObject({ links: [db], status: ends, running: ends === "running" });
    // Nothing is left to do: a third up plans only the await.
    expect(updateSteps(outputs as Program, news as Program, news)).toEqual([wait]);
  });
});

describe("a create's steps, each failing (it always records the app): what the next up does", () => {
  type Case = [
    step: string,
    fault: Fault,
    recorded: { linked: boolean; running: boolean },
    next: (db: string) => Step[],
  ];
  const cases: Case[] = [
    [
      "the PATCH",
      on("PATCH", "/containers/[^/]+$"),
      { linked: false, running: true },
      (db) => [link(db), { step: "patch", settings: { env: { A: "1" } }, keepLinked: true }, wait],
    ],
    ["the stop", on("POST", "/stop$"), { linked: false, running: true }, (db) => [link(db), restartForLinks, wait]],
    [
      "the link",
      on("POST", "/service-links$"),
      { linked: false, running: false },
      (db) => [link(db), { step: "start" }, wait],
    ],
    ["the start", on("POST", "/start$"), { linked: true, running: false }, () => [{ step: "start" }, wait]],
  ];
  test.each(cases)("%s", async (_step, fault, { linked, running }, next) => {
    sim.control.setSwitches({ appsRequireEnv: ["DATABASE_URL"] });
    const news = program(`run-${++counter}`, { env: { A: "1" }, links: [db] });
    sim.control.injectFault(fault);
    const failed = await failure(container.lifecycle.create(ctx, news as never));
    expect(failed.message).toMatch(new RegExp(`^container "${news.name}" was created, but setting it up failed: `));
    expect(failed.outputs).toMatchObject({ links: linked ? [db] : [], running });
    expect(failed.refreshFirst).toBe(true);
    // A create's partial failure keeps the program's inputs.
    const steps = updateSteps(failed.outputs as Program, news as Program, news);
    expect(steps).toEqual(next(db));
    const outputs = await container.lifecycle.update!(ctx, { id: failed.id, projectId: PROJECT }, {
      olds: failed.outputs,
      news,
      oldInputs: news,
    } as never);
    expect(app(failed.id).status).toBe("running");
    expect(outputs).toMatchObject({ links: [db], status: "running", env: { A: "1" } });
  });
});
