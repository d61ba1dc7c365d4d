// An app's rollout, planned (resources/rollout/plan.ts): one pure function per operation, from what state recorded and
// what the program asks to the ordered steps that take the app there, held to a case table.
import type { App, Program } from "../../../provider/src/resources/rollout/app";
import { createSteps, type Step, updateSteps } from "../../../provider/src/resources/rollout/plan";

const DB = "5d0c6a8e-0000-4000-8000-0000000000db";
const CACHE = "5d0c6a8e-0000-4000-8000-00000000cac4";
const IMAGE = "registry.example.com/team/web:1.0.0";
const NEXT = "registry.example.com/team/web:2.0.0";

/** An app that runs image 1.0.0 with one variable, linked to the database, as state records it. */
const running: App = {
  name: "web",
  image: IMAGE,
  httpPort: 8080,
  env: { LOG_LEVEL: "info" },
  replicas: 1,
  running: true,
  status: "running",
  links: [DB],
  injectedEnv: { DATABASE_URL: "postgres://db" },
};
/** Its program, unchanged (Check fills running and rollbackOnFailure in). */
const same: Program = {
  name: "web",
  image: IMAGE,
  httpPort: 8080,
  env: { LOG_LEVEL: "info" },
  links: [DB],
  running: true,
  rollbackOnFailure: false,
};

const link = (...services: string[]): Step => ({ step: "link", services });
const patch = (settings: Record<string, unknown>): Step => ({ step: "patch", settings, keepLinked: true });
const restartForLinks: Step = { step: "restart", for: "links", unlessAdopted: false };
const restartForTrigger: Step = { step: "restart", for: "restartTrigger" };
const wait: Step = { step: "await" };

describe("updateSteps: every change an update makes, in order", () => {
  /** `olds.restartTrigger` stands for the old inputs' (state's outputs never hold it). */
  type Case = [name: string, olds: Partial<Program>, news: Partial<Program>, steps: Step[]];
  const cases: Case[] = [
    ["nothing changed (an empty update retrying a partial failure): await only", {}, {}, [wait]],
    ["a new image: patch → await", {}, { image: NEXT }, [patch({ image: NEXT }), wait]],
    ["a new env: patch → await", {}, { env: { LOG_LEVEL: "debug" } }, [patch({ env: { LOG_LEVEL: "debug" } }), wait]],
    ["a new port: patch → await", {}, { httpPort: 9090 }, [patch({ httpPort: 9090 }), wait]],
    [
      "replicas only (no new release): patch → await, the PATCH's answer standing for the first read",
      {},
      { replicas: 2 },
      [patch({ replicas: 2 }), wait],
    ],
    [
      "a value equal to the recorded one is not sent",
      {},
      { replicas: 1, displayName: "web" },
      [patch({ displayName: "web" }), wait],
    ],
    [
      "a link added: link → restart → await, not patch → restart",
      {},
      { links: [DB, CACHE] },
      [link(CACHE), restartForLinks, wait],
    ],
    [
      "two links added: one link step for both, then one restart",
      { links: [] },
      { links: [CACHE, DB] },
      [link(CACHE, DB), restartForLinks, wait],
    ],
    [
      "a link added with a new image: link → patch → await (the release's rollout carries the link; no restart)",
      {},
      { links: [DB, CACHE], image: NEXT },
      [link(CACHE), patch({ image: NEXT }), wait],
    ],
    [
      "a link added with replicas: link → patch → restart → await (replicas roll nothing out)",
      {},
      { links: [DB, CACHE], replicas: 3 },
      [link(CACHE), patch({ replicas: 3 }), restartForLinks, wait],
    ],
    [
      "a state from before `links` existed: link → restart unless every link is found made already (adopted) → await",
      { links: undefined, injectedEnv: undefined },
      { links: [DB] },
      [link(DB), { step: "restart", for: "links", unlessAdopted: true }, wait],
    ],
    [
      "a link added to an app that stays stopped: link → await (its next start carries the link)",
      { running: false, status: "stopped" },
      { links: [DB, CACHE], running: false },
      [link(CACHE), wait],
    ],
    [
      "a link added to an app that starts: link → start → await (the start carries the link)",
      { running: false, status: "stopped" },
      { links: [DB, CACHE], running: true },
      [link(CACHE), { step: "start" }, wait],
    ],
    [
      "a link added as the app stops: link → stop → await",
      {},
      { links: [DB, CACHE], running: false },
      [link(CACHE), { step: "stop" }, wait],
    ],
    ["running: false stops: stop → await", {}, { running: false }, [{ step: "stop" }, wait]],
    [
      "running: true starts: start → await",
      { running: false, status: "stopped" },
      { running: true },
      [{ step: "start" }, wait],
    ],
    [
      "stopping with replicas: patch → stop → await",
      {},
      { running: false, replicas: 2 },
      [patch({ replicas: 2 }), { step: "stop" }, wait],
    ],
    [
      "a changed restartTrigger: restart → await",
      { restartTrigger: "a" },
      { restartTrigger: "b" },
      [restartForTrigger, wait],
    ],
    ["a first restartTrigger: restart → await", {}, { restartTrigger: "a" }, [restartForTrigger, wait]],
    ["a restartTrigger taken out: nothing to restart", { restartTrigger: "a" }, { restartTrigger: undefined }, [wait]],
    ["an unchanged restartTrigger: nothing to restart", { restartTrigger: "a" }, { restartTrigger: "a" }, [wait]],
    [
      "a changed restartTrigger with a new image: patch → restart → await",
      { restartTrigger: "a" },
      { restartTrigger: "b", image: NEXT },
      [patch({ image: NEXT }), restartForTrigger, wait],
    ],
    [
      "a changed restartTrigger on an app that stops: stop → await (no restart)",
      { restartTrigger: "a" },
      { restartTrigger: "b", running: false },
      [{ step: "stop" }, wait],
    ],
    [
      "a changed restartTrigger and a link added: link → restart (the trigger's, which carries the link) → await",
      { restartTrigger: "a" },
      { restartTrigger: "b", links: [DB, CACHE] },
      [link(CACHE), restartForTrigger, wait],
    ],
    [
      "rollbackOnFailure with a new image: patch → await → roll back to the release that ran",
      {},
      { rollbackOnFailure: true, image: NEXT },
      [
        patch({ image: NEXT }),
        wait,
        { step: "roll back", release: { image: IMAGE, env: { LOG_LEVEL: "info" }, httpPort: 8080 } },
      ],
    ],
    [
      "rollbackOnFailure without a new release: nothing to roll back",
      {},
      { rollbackOnFailure: true, replicas: 2 },
      [patch({ replicas: 2 }), wait],
    ],
    [
      "rollbackOnFailure on an app that had failed already: no release that ran, nothing to roll back",
      { status: "failed" },
      { rollbackOnFailure: true, image: NEXT },
      [patch({ image: NEXT }), wait],
    ],
  ];
  test.each(cases)("%s", (_name, { restartTrigger, ...olds }, news, steps) => {
    expect(updateSteps({ ...running, ...olds }, { ...same, ...news }, { restartTrigger })).toEqual(steps);
  });
});

describe("createSteps: from the create's answer (name, image and port) to the app the program asks for", () => {
  /** What the create's POST answers: the app provisioning with its name, image and port, env empty. */
  const created: App = { name: "web", image: IMAGE, httpPort: 8080, env: {}, replicas: 1, running: true };
  const program = { ...same, links: undefined, env: undefined };
  type Case = [name: string, program: Partial<Program>, steps: Step[]];
  const cases: Case[] = [
    ["name, image and port only: await the first start, from the answer", {}, [wait]],
    [
      "env: patch → await (the PATCH's rollout is the first start)",
      { env: { A: "1" } },
      [{ step: "patch", settings: { env: { A: "1" } }, keepLinked: false }, wait],
    ],
    [
      "links: stop → link → start → await, so that the app starts once, with their variables",
      { links: [DB] },
      [{ step: "stop" }, link(DB), { step: "start" }, wait],
    ],
    [
      "links and env: patch → stop → link → start → await",
      { links: [DB, CACHE], env: { A: "1" } },
      [
        { step: "patch", settings: { env: { A: "1" } }, keepLinked: false },
        { step: "stop" },
        link(DB, CACHE),
        { step: "start" },
        wait,
      ],
    ],
    ["running: false: stop → await", { running: false }, [{ step: "stop" }, wait]],
    [
      "links, running: false: stop → link → await (its first start carries them)",
      { links: [DB], running: false },
      [{ step: "stop" }, link(DB), wait],
    ],
    ["rollbackOnFailure: no release ran before, nothing to roll back", { rollbackOnFailure: true }, [wait]],
  ];
  test.each(cases)("%s", (_name, extra, steps) => {
    expect(createSteps({ ...program, ...extra } as Program & { running: boolean }, created)).toEqual(steps);
  });
});
