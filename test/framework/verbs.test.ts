// What each engine call does, in the framework's terms (framework/verbs.ts), with a fake runner in
// place of the API: the run's plan, the refusals before any write, what state records, and when
// the engine is asked to refresh a resource first.
import { bindPackage } from "../../provider/src/framework/bind";
import { PartialFailure, type OperationContext } from "../../provider/src/framework/declare";
import { ResourceVerbs, Unfinished, type Runner } from "../../provider/src/framework/verbs";
import { hostingPackage } from "../../provider/src/package";

const schema = require("../../schema.json");
const bound = bindPackage(hostingPackage, () => schema);
const CONTAINER = "hosting:index:Container";
const POSTGRES = "hosting:index:Postgres";
const PROJECT = "00000000-0000-4000-8000-0000000a11ce";
const seed = new Uint8Array(32).fill(5);

/** A runner whose lifecycle calls get a context with `made` (as operations.ts gives it); counts the calls. */
function runner(config: Record<string, unknown> = {}) {
  const calls: string[] = [];
  const run: Runner["run"] = async (urn, _timeout, call) => {
    calls.push(urn);
    return call({ made: () => undefined, warn: () => undefined } as unknown as OperationContext<any>);
  };
  return {
    calls,
    runner: { run, read: run, reachable: () => true, config: () => ({ projectId: PROJECT, ...config }) },
  };
}

/** The Container declaration with its create replaced, for one test. */
function withCreate(create: (ctx: OperationContext<any>) => Promise<{ id: string; outputs: object }>) {
  const real = bound.resource(CONTAINER)!;
  return {
    ...real,
    declaration: { ...real.declaration, lifecycle: { ...real.declaration.lifecycle, create, judge: undefined } },
  };
}

const checked = (verbs: ResourceVerbs, urn: string, news: Record<string, unknown>, olds = {}) =>
  verbs.check(bound.resource(CONTAINER)!, {
    urn,
    logicalName: "web",
    news: news as any,
    olds,
    secretPaths: new Set(),
    randomSeed: seed,
  });

describe("create", () => {
  test("an error after the resource was made is a partial failure of it, never an orphan", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { inputs } = checked(verbs, "urn:web", { image: "registry.example.com/team/web:1.0.0" });
    const resource = withCreate(async (ctx) => {
      ctx.made("app-1", { name: "web-x", status: "provisioning" });
      throw new Error("reading its links failed");
    });
    const failure = await verbs
      .create(resource, { urn: "urn:web", timeoutMs: 1, inputs, secretPaths: new Set(), preview: false })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(Unfinished);
    expect(failure.message).toMatch(
      /^reading its links failed \(it was created, and is recorded in state as it was last seen/,
    );
    expect(failure.recorded).toMatchObject({
      id: "app-1",
      outputs: { name: "web-x", status: "provisioning" },
      refreshBeforeUpdate: true,
    });
  });

  test("made with refreshFirst false: the partial failure asks for no refresh first, even with hosting:refreshBeforeUpdate", async () => {
    const { runner: r } = runner({ refreshBeforeUpdate: true });
    const verbs = new ResourceVerbs("hosting", r);
    const { inputs } = checked(verbs, "urn:link", { image: "registry.example.com/team/web:1.0.0" });
    const resource = withCreate(async (ctx) => {
      ctx.made("link-1", {}, false);
      throw new Error("the restart failed");
    });
    const failure = await verbs
      .create(resource, { urn: "urn:link", timeoutMs: 1, inputs, secretPaths: new Set(), preview: false })
      .catch((e) => e);
    expect(failure.recorded).toMatchObject({ id: "link-1", refreshBeforeUpdate: false });
  });

  test("an error before anything was made stays the error it is", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { inputs } = checked(verbs, "urn:none", { image: "registry.example.com/team/web:1.0.0" });
    const resource = withCreate(async () => {
      throw new Error("409 NAME_TAKEN");
    });
    await expect(
      verbs.create(resource, { urn: "urn:none", timeoutMs: 1, inputs, secretPaths: new Set(), preview: false }),
    ).rejects.toThrow(/^409 NAME_TAKEN$/);
  });

  test("a lifecycle's own partial failure keeps its outputs and its refreshFirst", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { inputs } = checked(verbs, "urn:own", { image: "registry.example.com/team/web:1.0.0" });
    const resource = withCreate(async () => {
      throw new PartialFailure("failed to start", "app-2", { status: "failed" }, false);
    });
    const failure = await verbs
      .create(resource, { urn: "urn:own", timeoutMs: 1, inputs, secretPaths: new Set(), preview: false })
      .catch((e) => e);
    expect(failure.recorded).toMatchObject({ id: "app-2", outputs: { status: "failed" }, refreshBeforeUpdate: false });
  });

  test("a preview runs nothing and marks nothing; a success carries hosting:refreshBeforeUpdate", async () => {
    const { runner: r, calls } = runner({ refreshBeforeUpdate: true });
    const verbs = new ResourceVerbs("hosting", r);
    const { inputs } = checked(verbs, "urn:p", { image: "registry.example.com/team/web:1.0.0" });
    const resource = withCreate(async () => ({ id: "app-3", outputs: { status: "running" } }));
    const preview = await verbs.create(resource, {
      urn: "urn:p",
      timeoutMs: 1,
      inputs,
      secretPaths: new Set(),
      preview: true,
    });
    expect(calls).toEqual([]);
    expect(preview.id).toBe("");
    const made = await verbs.create(resource, {
      urn: "urn:p",
      timeoutMs: 1,
      inputs,
      secretPaths: new Set(),
      preview: false,
    });
    expect(made).toMatchObject({ id: "app-3", refreshBeforeUpdate: true });
  });
});

describe("the run's plan", () => {
  test("a replacement a Diff planned of a database is refused before its create runs, naming the data", async () => {
    const { runner: r, calls } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const db = bound.resource(POSTGRES)!;
    const olds = { name: "orders", projectId: PROJECT };
    verbs.check(db, {
      urn: "urn:db",
      logicalName: "db",
      news: { name: "orders-2" },
      olds,
      secretPaths: new Set(),
      randomSeed: seed,
    });
    const diff = verbs.diff(db, {
      urn: "urn:db",
      olds,
      news: { name: "orders-2", projectId: PROJECT },
      ignoreChanges: [],
      secretPaths: new Set(),
    });
    expect(diff.replaces).toEqual(["name"]);
    const refused = verbs.create(db, {
      urn: "urn:db",
      timeoutMs: 1,
      inputs: { name: "orders-2", projectId: PROJECT },
      secretPaths: new Set(),
      preview: true,
    });
    await expect(refused).rejects.toThrow(
      /^changing name from "orders" to "orders-2" replaces PostgreSQL database orders and all its data/,
    );
    expect(calls).toEqual([]);
  });

  test("a Diff with no Check before it (a refresh's) plans nothing", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const db = bound.resource(POSTGRES)!;
    const olds = { name: "orders", projectId: PROJECT };
    verbs.diff(db, {
      urn: "urn:r",
      olds,
      news: { name: "other", projectId: PROJECT },
      ignoreChanges: [],
      secretPaths: new Set(),
    });
    const created = await verbs.create(withCreateOf(db), {
      urn: "urn:r",
      timeoutMs: 1,
      inputs: { name: "other", projectId: PROJECT },
      secretPaths: new Set(),
      preview: true,
    });
    expect(created.id).toBe("");
  });
});

function withCreateOf(resource: ReturnType<typeof bound.resource> & object) {
  return {
    ...resource,
    declaration: { ...resource.declaration, lifecycle: { ...resource.declaration.lifecycle, judge: undefined } },
  };
}
