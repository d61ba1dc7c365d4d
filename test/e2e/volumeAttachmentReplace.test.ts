// A VolumeAttachment the engine replaces without asking Diff (issue 43): `pulumi up --replace`,
// `pulumi state taint`, a `replacementTrigger`, `replaceWith` and `deletedWith` when its app is
// replaced. The engine creates the replacement before it deletes the old one (step_generator.go:
// deleteBeforeReplace comes from Diff, which it does not ask, or from the resource option), so the
// attach meets the volume still attached. Under the real CLI, each way's `up` succeeds, the volume
// ends attached exactly once, to the right app at the right path, and the next preview expects no
// changes.
import type * as pulumi from "@pulumi/pulumi";
import type { OutputMap, UpResult } from "@pulumi/pulumi/automation";
import * as hosting from "@hosting/pulumi";
import { useE2E } from "./harness";

const e2e = useE2E();

/** What a test turns between runs of its program. */
interface Knobs {
  image: string;
  trigger: string;
  /** The app's `replaceOnChanges: ["image"]`: a new image replaces it (create before delete: it is autonamed). */
  appReplacedByImage: boolean;
  follows?: "deletedWith" | "replaceWith";
  deleteBeforeReplace?: boolean;
}

const FIRST: Knobs = { image: "registry.example.com/team/store:1.0.0", trigger: "1", appReplacedByImage: false };

/** A volume, an autonamed app, and the attachment between them with the options a test turns. */
function program(knobs: Knobs) {
  return async () => {
    const data = new hosting.Volume("data", { sizeGb: 1 });
    const app = new hosting.Container(
      "app",
      { image: knobs.image },
      knobs.appReplacedByImage ? { replaceOnChanges: ["image"] } : {},
    );
    const options: pulumi.CustomResourceOptions = { replacementTrigger: knobs.trigger };
    if (knobs.follows === "deletedWith") options.deletedWith = app;
    if (knobs.follows === "replaceWith") options.replaceWith = [app];
    if (knobs.deleteBeforeReplace !== undefined) options.deleteBeforeReplace = knobs.deleteBeforeReplace;
    const attachment = new hosting.VolumeAttachment(
      "app-data",
      { volumeId: data.id, containerId: app.id, mountPath: "/data" },
      options,
    );
    return { volumeId: data.id, appId: app.id, appUrn: app.urn, attachmentUrn: attachment.urn };
  };
}

/** A preview, which must plan the replacement, succeed and send the platform nothing but reads. */
async function previewed(stack: pulumi.automation.Stack, replace?: string[]) {
  const mark = e2e.sim.control.requests().length;
  const preview = await stack.preview({ replace });
  const writes = e2e.sim.control
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET");
  expect(writes).toEqual([]);
  return preview.changeSummary;
}

const attachmentsOf = (volumeId: string) =>
  (e2e.sim.control.snapshot().attachments as any[]).filter((a) => a.volume_id === volumeId);
const apps = () => e2e.records("services").filter((s) => s.type === "container");

let count = 0;
/** A stack of its own, up once with `knobs`: the volume attached to the app at /data. */
async function deployed(knobs: Knobs) {
  const project = `attach-replace-${++count}`;
  const stack = await e2e.stack(project, "dev", program(knobs));
  const { outputs } = await stack.up();
  expect(attachmentsOf(outputs.volumeId.value)).toEqual([
    expect.objectContaining({ container_id: outputs.appId.value, mount_path: "/data" }),
  ]);
  return { project, stack, outputs, run: (next: Knobs) => e2e.stack(project, "dev", program(next)) };
}

/**
 * The replacing `up` succeeded: the volume is attached once, to the app the stack has now, at /data; the
 * app before it (when it was replaced) is gone; and the next preview expects no changes.
 */
async function attachedOnce(stack: pulumi.automation.Stack, up: UpResult, before: OutputMap) {
  expect(up.summary.result).toBe("succeeded");
  const { volumeId, appId } = up.outputs;
  expect(attachmentsOf(volumeId.value)).toEqual([
    expect.objectContaining({ container_id: appId.value, mount_path: "/data", read_only: false }),
  ]);
  if (appId.value !== before.appId.value) expect(apps().map((a) => a.id)).not.toContain(before.appId.value);
  await stack.preview({ expectNoChanges: true });
}

test("pulumi up --replace <the attachment>", async () => {
  const { stack, outputs } = await deployed(FIRST);
  const replace = [outputs.attachmentUrn.value];
  expect(await previewed(stack, replace)).toEqual({ replace: 1, same: 3 });
  const up = await stack.up({ replace });
  expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
  await attachedOnce(stack, up, outputs);
});

test("pulumi state taint <the attachment>, then up", async () => {
  const { stack, outputs } = await deployed(FIRST);
  const taint = await e2e.cli(["state", "taint", outputs.attachmentUrn.value, "--stack", "dev", "--yes"], {
    cwd: stack.workspace.workDir,
  });
  expect(taint.code).toBe(0);
  expect(await previewed(stack)).toEqual({ replace: 1, same: 3 });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
  await attachedOnce(stack, up, outputs);
});

test("a changed replacementTrigger", async () => {
  const { outputs, run } = await deployed(FIRST);
  const stack = await run({ ...FIRST, trigger: "2" });
  expect(await previewed(stack)).toEqual({ replace: 1, same: 3 });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
  await attachedOnce(stack, up, outputs);
});

test.each(["deletedWith", "replaceWith"] as const)("%s the app, and the app replaced", async (follows) => {
  const knobs: Knobs = { ...FIRST, appReplacedByImage: true, follows };
  const { outputs, run } = await deployed(knobs);
  const stack = await run({ ...knobs, image: "registry.example.com/team/store:2.0.0" });
  expect(await previewed(stack)).toEqual({ replace: 2, same: 2 });
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ replace: 2, same: 2 });
  expect(up.outputs.appId.value).not.toBe(outputs.appId.value);
  await attachedOnce(stack, up, outputs);
});

test("--replace with deleteBeforeReplace: true: the preview passes and sends no write; so does the up", async () => {
  const knobs: Knobs = { ...FIRST, deleteBeforeReplace: true };
  const { stack, outputs } = await deployed(knobs);
  const replace = [outputs.attachmentUrn.value];
  expect(await previewed(stack, replace)).toEqual({ replace: 1, same: 3 });
  const up = await stack.up({ replace });
  expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
  await attachedOnce(stack, up, outputs);
});
