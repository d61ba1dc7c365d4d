// What a failed step of a rollout leaves in state (resources/rollout/failure.ts `recordingOf`): one pure function from
// the step, the progress before it and the error to what state records and the refresh-before-update mark.
import { ApiError, ServerError } from "../../../provider/src/api/errors";
import { InputError, PartialFailure } from "../../../provider/src/framework/declare";
import type { LinkRecord } from "../../../provider/src/resources/links";
import type { ServiceRecord } from "../../../provider/src/resources/services";
import { AppFailed, RolledBack, type Recording, recordingOf } from "../../../provider/src/resources/rollout/failure";
import type { Step } from "../../../provider/src/resources/rollout/plan";
import type { Progress } from "../../../provider/src/resources/rollout/progress";

const DB = "5d0c6a8e-0000-4000-8000-0000000000db";
const LINK: LinkRecord = {
  id: "l1",
  projectId: "p1",
  consumerServiceId: "c1",
  providerServiceId: DB,
  linkType: "http",
  injectedEnv: { DATABASE_URL: "postgres://db" },
};
const known = { name: "web", status: "running", running: true, links: [], injectedEnv: {} };
/** An update's progress before its first step: the app as state had it, the link the plan adds owed. */
const fresh: Progress = { known, links: [], owed: [DB], made: false, platformRestarted: false, wrote: false };
/** The link step done: the link made, not yet carried into the app. */
const linked: Progress = { ...fresh, links: [LINK], made: true, wrote: true };
const program = { name: "web", links: [DB] };

const unknownOutcome = new ServerError({
  status: 503,
  code: "UNAVAILABLE",
  detail: "try later",
  method: "POST",
  path: "/v1/projects/p1/containers/c1/restart",
});
const refused = new ApiError({
  status: 409,
  code: "AUTOSCALING_OWNS_REPLICAS",
  detail: "autoscaling is on",
  method: "PATCH",
  path: "/v1/projects/p1/containers/c1",
});
const step = (name: "link" | "stop" | "start"): Step => ({ step: name }) as Step;
const restart: Step = { step: "restart", for: "links", unlessAdopted: false };
const patch: Step = { step: "patch", settings: { replicas: 2 }, keepLinked: true };
const record = { id: "c1", name: "web", status: "failed", image: "r/a/web:2" } as ServiceRecord;

type Case = [
  name: string,
  operation: "create" | "update",
  step: Step,
  progress: Progress,
  err: unknown,
  recording: Partial<Recording> | ((r: Recording) => void),
];
const cases: Case[] = [
  [
    "an update's first step fails before anything was written (the app is gone): the error as it is",
    "update",
    step("link"),
    fresh,
    new Error("container c1 is gone"),
    { record: "nothing" },
  ],
  [
    "an update's link that may have been made: read again, the link left out, no refresh first",
    "update",
    step("link"),
    fresh,
    unknownOutcome,
    { record: "as it is", known, owed: [DB], refreshFirst: false },
  ],
  [
    "the restart after a link was made: the link left out (not carried) and awaiting its restart, no refresh first",
    "update",
    restart,
    linked,
    unknownOutcome,
    { record: "as it is", known: { ...known, linksAwaitingRestart: [DB] }, owed: [DB], refreshFirst: false },
  ],
  [
    "a PATCH after the platform restarted the app for its link: the link counts (carried), refresh first",
    "update",
    patch,
    { ...linked, platformRestarted: true, owed: [] },
    unknownOutcome,
    {
      record: "as it is",
      known: { ...known, links: [DB], injectedEnv: LINK.injectedEnv },
      owed: [],
      refreshFirst: true,
    },
  ],
  [
    "a PATCH refused before anything was written: the refusal said in the program's terms, nothing recorded",
    "update",
    patch,
    { ...fresh, owed: [] },
    refused,
    (r) => {
      expect(r).toMatchObject({ record: "nothing", error: expect.any(InputError) });
      expect((r as { error: Error }).error.message).toMatch(/^replicas cannot be set on container "web": autoscaling/);
    },
  ],
  [
    "a PATCH refused after the link was made: a partial failure that says so",
    "update",
    patch,
    linked,
    refused,
    (r) =>
      expect(r).toMatchObject({
        record: "as it is",
        message: expect.stringMatching(/^container "web" was updated only in part: replicas cannot be set/),
        owed: [DB],
      }),
  ],
  [
    "a create's stop, before anything else: the app exists, so a partial failure, refresh first",
    "create",
    step("stop"),
    { ...fresh, owed: [], wrote: true },
    new Error("boom"),
    {
      record: "as it is",
      message: 'container "web" was created, but setting it up failed: boom',
      known: { ...known, links: [], injectedEnv: {} },
      refreshFirst: true,
    },
  ],
  [
    "a create's start after its links: the links count (the app was stopped when they were made)",
    "create",
    step("start"),
    { ...linked, owed: [] },
    new Error("boom"),
    {
      record: "as it is",
      known: { ...known, links: [DB], injectedEnv: LINK.injectedEnv },
      owed: [],
      refreshFirst: true,
    },
  ],
  [
    "the await that ended early (a timeout): the app as the wait last saw it, refresh first",
    "update",
    { step: "await" },
    linked,
    new PartialFailure("container web is still provisioning", "c1", { status: "provisioning" }),
    { record: "as it is", known: { status: "provisioning" }, owed: [], refreshFirst: true },
  ],
  [
    "the await whose app disappeared: the error as it is",
    "update",
    { step: "await" },
    linked,
    new Error("container web disappeared while we waited for it"),
    { record: "nothing" },
  ],
  [
    "the await that found the app failed, which has links: recorded as read, no hint",
    "update",
    { step: "await" },
    linked,
    new AppFailed(record),
    { record: "failed to start", app: record, hint: "" },
  ],
  [
    "a roll back that ended: the app as last seen, refresh first",
    "update",
    { step: "roll back", release: {} },
    linked,
    new RolledBack("failed to start\nIt was rolled back", { status: "running" }),
    { record: "as it is", known: { status: "running" }, owed: [], refreshFirst: true },
  ],
  [
    "a roll back whose own wait ended early: as that wait recorded it",
    "update",
    { step: "roll back", release: {} },
    linked,
    new PartialFailure("did not finish", "c1", {}),
    { record: "as recorded" },
  ],
];

test.each(cases)("%s", (_name, operation, failed, progress, err, recording) => {
  const got = recordingOf(operation, failed, progress, err, program);
  if (typeof recording === "function") recording(got);
  else expect(got).toMatchObject(recording);
});

test("an app without links that fails to start: the hint points to `links`", () => {
  expect(recordingOf("create", { step: "await" }, fresh, new AppFailed(record), { name: "web" })).toMatchObject({
    record: "failed to start",
    hint: expect.stringMatching(/list the database in `links`/),
  });
});
