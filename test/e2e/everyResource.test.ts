// Every resource of the package under the real Pulumi CLI, each in a stack of its own: its declaration's first
// example (what it refers to made first, from their own examples: exampleProgram in harness.ts) goes up, previews
// with no changes and refreshes with no changes; then a change made outside Pulumi (the simulator's out-of-band
// mutate) shows in `pulumi refresh` at its exact property path with the provider's drift warning, the next `up`
// does what the provider promises for that property (puts the program's value back, in place or by a replacement,
// or refuses at preview where the API cannot change it), and `destroy` leaves nothing on the platform.
//
// The resources come from the package (provider/src/package.ts), so a new resource is covered here without an edit:
// its drift is its example's `update` made outside Pulumi, unless DRIFT says otherwise.
// 119 s here (2 cores, load 11 to 16).
// Run: node_modules/.bin/jest --selectProjects e2e -- test/e2e/everyResource
import type { Stack } from "@pulumi/pulumi/automation";
import type { ResourceDeclaration } from "../../provider/src/framework/declare";
import { hostingPackage } from "../../provider/src/package";
import type { SimKind } from "../../simulator/src";
import { KINDS } from "../../simulator/src/collections";
import { EngineEvents, exampleProgram, useE2E } from "./harness";

const e2e = useE2E();

/**
 * A change made outside Pulumi: the new wire fields of the resource's record (e2e.recordOf finds it, whatever its
 * kind), the path refresh names, and what `up` does next.
 */
interface Drift {
  patch: Record<string, unknown>;
  path: string;
  /**
   * `update`, `replace`: the record has the program's values back (a replacement's old record is gone, or, where the
   * API cannot delete it, `forgotten` with this warning); `refused`: preview and up fail with this message, and send
   * nothing.
   */
  next: { update: true } | { replace: true; forgotten?: RegExp } | { refused: RegExp };
}

const refusedToResize = /storageGb cannot change from 20 to 10: the API cannot resize a managed \w+ database/;
const resized: Drift = {
  patch: { storage_gb: 20 },
  path: "storageGb",
  next: { refused: refusedToResize },
};

/** Where a resource's example `update` cannot say what drifts: by type name. */
const DRIFT: Record<string, Drift> = {
  // A nested path, as the on-call engineer changes one variable in the portal.
  Container: {
    patch: { env: { LOG_LEVEL: "debug" } },
    path: "env.LOG_LEVEL",
    next: { update: true },
  },
  // The platform's support resized them; the API cannot, so `up` refuses to put the size back, naming the way through.
  Postgres: resized,
  Mysql: resized,
  Redis: resized,
  // Grown in the portal (sizes only grow): the program's smaller size is refused.
  Volume: {
    patch: { size_gb: 30 },
    path: "sizeGb",
    next: { refused: /sizeGb can only grow: it is 30 now, and 20 would shrink it/ },
  },
  // Every input replaces: the next up replaces the link (the old one is forgotten, as the API cannot delete it).
  ServiceLink: {
    patch: { link_type: "tcp" },
    path: "linkType",
    next: {
      replace: true,
      forgotten: /^the hosting API has no way to delete service links: link .* is removed from the stack/,
    },
  },
  // Remounted elsewhere: the next up detaches it and attaches it at the program's path again.
  VolumeAttachment: {
    patch: { mount_path: "/elsewhere" },
    path: "mountPath",
    next: { replace: true },
  },
};

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A resource's drift: DRIFT's, or its example's in-place `update` made outside Pulumi. */
function driftOf(resource: ResourceDeclaration<any, any>): Drift | undefined {
  if (DRIFT[resource.typeName]) return DRIFT[resource.typeName];
  const [path, value] = Object.entries(resource.examples[0].update ?? {})[0] ?? [];
  if (path === undefined || typeof value === "object") return undefined;
  return { patch: { [snake(path)]: value }, path, next: { update: true } };
}

/** Every kind's records that are left, by kind, leaving out the empty kinds. */
const leftOnThePlatform = () =>
  Object.fromEntries(KINDS.map((kind) => [kind, e2e.records(kind)]).filter(([, records]) => records.length > 0));

describe.each(hostingPackage.resources.map((r) => [r.typeName, r] as const))("%s", (typeName, resource) => {
  const example = resource.examples[0];
  const project = `every-${typeName.toLowerCase()}`;
  const name = `hosting:index:${typeName}::${example.name}`;
  let stack: Stack;
  /** The stack's resources besides this one: its example's references, and the stack itself. */
  let others: number;
  let id: string;
  let drift: Drift | undefined;
  /** The record's kind and own id, and its drifted fields as the program made them. */
  let kind: SimKind;
  let recordId: string;
  let programs: Record<string, unknown>;
  const fields = (record: any) => Object.fromEntries(Object.keys(drift!.patch).map((k) => [k, record[k]]));

  test("up, then preview and refresh with no changes", async () => {
    const { program, config } = exampleProgram(typeName, project);
    stack = await e2e.stack(project, "dev", program, config);
    const up = await stack.up();
    id = up.outputs.ids.value[typeName];
    others = Object.keys(up.outputs.ids.value).length;
    expect(up.summary.resourceChanges).toEqual({ create: others + 1 });
    drift = driftOf(resource);
    expect(drift).toBeDefined(); // else: say in DRIFT what a change outside Pulumi does to it
    expect(e2e.recordOf(id)).toBeDefined();

    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: others + 1 });
    const events = new EngineEvents();
    const refresh = await stack.refresh({ expectNoChanges: true, onEvent: events.onEvent });
    expect(refresh.summary.resourceChanges).toEqual({ same: others + 1 });
    expect(events.warnings()).toEqual([]);
  });

  test("a change outside Pulumi: refresh names its path, with the drift warning", async () => {
    const { patch, path } = drift!;
    const { kind: found, record } = e2e.recordOf(id)!;
    [kind, recordId, programs] = [found, record.id, fields(record)];
    e2e.sim.control.mutate(kind, recordId, patch);
    const events = new EngineEvents();
    const refresh = await stack.refresh({ onEvent: events.onEvent });
    expect(refresh.summary.resourceChanges).toEqual({ same: others, update: 1 });
    // The kind the provider's Diff gives the program's value against the live one: a replacement where it replaces.
    expect(events.detailedDiff(name)).toEqual({ [path]: "replace" in drift!.next ? "update-replace" : "update" });
    expect(events.warnings(name)).toEqual([
      expect.stringMatching(new RegExp(`^changed outside Pulumi .*\\(${path}\\)`)),
    ]);
    expect(refresh.stdout).toContain(events.warnings(name)[0]);
  });

  test("the next up does what the provider promises for it", async () => {
    const { patch, next } = drift!;
    if ("refused" in next) {
      const mark = e2e.sim.control.requests().length;
      await expect(stack.preview()).rejects.toThrow(next.refused);
      await expect(stack.up()).rejects.toThrow(next.refused);
      const writes = e2e.sim.control
        .requests()
        .slice(mark)
        .filter((r) => r.method !== "GET");
      expect(writes).toEqual([]);
      expect(fields(e2e.recordOf(id)!.record)).toEqual(patch); // as changed outside Pulumi
      return;
    }
    const events = new EngineEvents();
    const up = await stack.up({ onEvent: events.onEvent });
    if ("replace" in next) {
      expect(events.ops(name)).toContain("replace");
      expect(up.summary.resourceChanges).toEqual({ same: others, replace: 1 });
      const old = e2e.records(kind).filter((r) => r.id === recordId);
      if (next.forgotten) {
        expect(old).toEqual([expect.objectContaining(patch)]);
        expect(events.warnings(name)).toEqual([expect.stringMatching(next.forgotten)]);
      } else expect(old).toEqual([]);
    } else expect(up.summary.resourceChanges).toEqual({ same: others, update: 1 });
    expect(fields(e2e.recordOf(up.outputs.ids.value[typeName])!.record)).toEqual(programs);
    await stack.preview({ expectNoChanges: true });
  });

  test("destroy leaves nothing on the platform", async () => {
    const events = new EngineEvents();
    await stack.destroy({ onEvent: events.onEvent });
    expect(leftOnThePlatform()).toEqual({});
    const { next } = drift!;
    if ("forgotten" in next && next.forgotten)
      expect(events.warnings(name)).toEqual([expect.stringMatching(next.forgotten)]);
    await stack.workspace.removeStack("dev");
  });
});
