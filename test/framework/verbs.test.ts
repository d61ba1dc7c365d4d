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
    runner: {
      run,
      read: run,
      reachable: () => true,
      config: () => ({ projectId: PROJECT, ...config }),
      unrecorded: () => undefined,
      recorded: () => undefined,
    },
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
      id: "db-1",
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
      id: "db-1",
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

describe("replacements the engine makes without a Diff, and the delete of the old one", () => {
  /** The Container declaration whose create and delete record what they are given. */
  function recording() {
    const seen: { replacing: unknown[]; judged: unknown[]; successors: unknown[] } = {
      replacing: [],
      judged: [],
      successors: [],
    };
    const real = bound.resource(CONTAINER)!;
    const lifecycle = {
      ...real.declaration.lifecycle,
      judge: async (_ctx: unknown, proposal: { operation: string; olds?: unknown }) => {
        seen.judged.push({ operation: proposal.operation, olds: proposal.olds });
        return undefined;
      },
      create: async (_ctx: unknown, inputs: Record<string, unknown>, options?: { replacing?: unknown }) => {
        seen.replacing.push(options?.replacing);
        return { id: `app-${seen.replacing.length}`, outputs: { ...inputs, status: "running" } };
      },
      delete: async (_ctx: unknown, _address: unknown, _outputs: unknown, options?: { successor?: unknown }) => {
        seen.successors.push(options?.successor);
      },
    };
    return { seen, resource: { ...real, declaration: { ...real.declaration, lifecycle } } };
  }
  const program = { image: "registry.example.com/team/web:1.0.0", name: "web" };
  const old = { ...program, projectId: PROJECT, httpPort: 8080, running: true, rollbackOnFailure: false };
  const call = { timeoutMs: 1, secretPaths: new Set<string>(), preview: false };

  test("replacementTrigger, replaceWith, deletedWith: a Check with the old inputs, none after it, and the Create is told what it replaces", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { seen, resource } = recording();
    checked(verbs, "urn:forced", program, old);
    const { inputs } = checked(verbs, "urn:forced", program); // the replacement's second Check, without olds
    await verbs.create(resource as any, { ...call, urn: "urn:forced", inputs });
    expect(seen.replacing).toEqual([old]);
    expect(seen.judged).toEqual([{ operation: "replacement", olds: old }]);
  });

  test("`pulumi up --replace` and a taint send one Check without olds: the Create looks like a new resource's", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { seen, resource } = recording();
    const { inputs } = checked(verbs, "urn:targeted", program);
    await verbs.create(resource as any, { ...call, urn: "urn:targeted", inputs });
    expect(seen.replacing).toEqual([undefined]);
    expect(seen.judged).toEqual([{ operation: "create", olds: undefined }]);
  });

  test("a Diff between the Check and the Create plans for itself: an update's Check leaves no replacement behind", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { seen, resource } = recording();
    const { inputs } = checked(verbs, "urn:diffed", program, old);
    verbs.diff(resource as any, {
      urn: "urn:diffed",
      id: "app-0",
      olds: old,
      news: inputs,
      ignoreChanges: [],
      secretPaths: new Set(),
    });
    await verbs.create(resource as any, { ...call, urn: "urn:diffed", inputs });
    expect(seen.replacing).toEqual([undefined]);
  });

  test("the Delete after a Create of the same URN is told its successor; a Delete of the one created is not", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { seen, resource } = recording();
    const { inputs } = checked(verbs, "urn:cbd", program);
    const made = await verbs.create(resource as any, { ...call, urn: "urn:cbd", inputs });
    const address = { id: "app-0" };
    await verbs.delete(resource as any, { urn: "urn:cbd", timeoutMs: 1, address, outputs: { ...old, status: "x" } });
    await verbs.delete(resource as any, { urn: "urn:cbd", timeoutMs: 1, address, outputs: made.outputs });
    expect(seen.successors).toEqual([{ id: made.id, outputs: made.outputs }, undefined]);
  });

  test("a pending delete beside the resource a planning Diff was given is told its successor; a refresh's Diff tells nothing", async () => {
    const { runner: r } = runner();
    const verbs = new ResourceVerbs("hosting", r);
    const { seen, resource } = recording();
    const live = { ...old, status: "running", createdAt: "2026-11-27T10:00:00Z" };
    const pending = { ...old, status: "running", createdAt: "2026-11-26T10:00:00Z" };
    const diff = (urn: string) =>
      verbs.diff(resource as any, {
        urn,
        id: "app-2",
        olds: live,
        news: old,
        ignoreChanges: [],
        secretPaths: new Set(),
      });
    diff("urn:refreshed"); // no Check before it: a refresh's
    checked(verbs, "urn:planned", program, old);
    diff("urn:planned");
    for (const urn of ["urn:refreshed", "urn:planned"])
      await verbs.delete(resource as any, { urn, timeoutMs: 1, address: { id: "app-1" }, outputs: pending });
    // The Diff's own resource deleted (a delete-before-replace) has no successor.
    await verbs.delete(resource as any, { urn: "urn:planned", timeoutMs: 1, address: { id: "app-2" }, outputs: live });
    expect(seen.successors).toEqual([undefined, { id: "app-2", outputs: live }, undefined]);
  });
});

function withCreateOf(resource: ReturnType<typeof bound.resource> & object) {
  return {
    ...resource,
    declaration: { ...resource.declaration, lifecycle: { ...resource.declaration.lifecycle, judge: undefined } },
  };
}
