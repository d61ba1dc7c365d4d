// A refresh that finds drift says so in the display, as a warning on the resource: which property
// paths changed outside Pulumi, when the platform changed them (its updated_at) and when they were
// last deployed. The out-of-band change is made through the simulator's admin API over HTTP, as
// someone in the portal would make it; an unchanged resource gives no warning.
import { Engine, type ResourceState, plain, urn } from "./engine";
import { CONTAINER, REGISTRY, useFixture } from "./fixture";

const fixture = useFixture();
const engine = () => new Engine(fixture.plugin);
const WARNING = 2; // pulumirpc.LogSeverity.WARNING

/** The warnings the plugin logged on a resource since `mark`. */
const warningsOn = (type: string, name: string, mark: number) =>
  fixture.plugin.engine.messages
    .slice(mark)
    .filter((m) => m.severity === WARNING && m.urn === urn(type, name))
    .map((m) => m.message);

/** An out-of-band change through the admin API (PATCH /_sim/{kind}/{id}). */
async function changeOutsidePulumi(kind: string, id: string, patch: Record<string, unknown>) {
  const res = await fetch(`${fixture.sim.url}/_sim/${kind}/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(patch),
  });
  expect(res.status).toBeLessThan(300);
}

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

describe("a Container", () => {
  let state: ResourceState;
  beforeAll(async () => {
    state = await engine().created(CONTAINER, "web", {
      name: "web",
      image: "registry.example.com/team/web:1.0.0",
      replicas: 1,
      env: { LOG_LEVEL: "info", MODE: "a" },
    });
  });

  test("refreshed unchanged: no warning", async () => {
    const mark = fixture.plugin.engine.messages.length;
    const refreshed = await engine().refresh(CONTAINER, "web", state);
    expect(refreshed).toMatchObject({ gone: false, diff: { diffs: [] } });
    expect(warningsOn(CONTAINER, "web", mark)).toEqual([]);
  });

  test("the platform's own clock: the time the change was made", async () => {
    const before = Date.now();
    await changeOutsidePulumi("services", state.id, { image: "registry.example.com/team/web:9.9.9" });
    const mark = fixture.plugin.engine.messages.length;
    await engine().refresh(CONTAINER, "web", state);
    const [warning] = warningsOn(CONTAINER, "web", mark);
    const at = /^changed outside Pulumi at (\d{4}-\d\d-\d\d \d\d:\d\d) UTC \(([^)]*)\); last deployed /.exec(warning);
    expect(at?.[2]).toBe("image");
    // Within the minute the change was made in (or the next, when the minute turned meanwhile).
    const minutes = [before, Date.now()].map((ms) => new Date(ms).toISOString().slice(0, 16).replace("T", " "));
    expect(minutes).toContain(at?.[1]);
  });

  test("refreshed after a change in the portal: a warning with the paths, both times and the time between", async () => {
    const deployed = plain(state.outputs.updatedAt) as string;
    const changed = new Date(Date.parse(deployed) + 2 * 86_400_000 + 3_600_000).toISOString();
    await changeOutsidePulumi("services", state.id, {
      replicas: 3,
      env: { LOG_LEVEL: "debug", MODE: "a" },
      updated_at: changed,
    });
    const mark = fixture.plugin.engine.messages.length;
    const refreshed = await engine().refresh(CONTAINER, "web", state);
    expect(refreshed).toMatchObject({
      gone: false,
      diff: { diffs: expect.arrayContaining(["env", "image", "replicas"]) },
    });
    expect(warningsOn(CONTAINER, "web", mark)).toEqual([
      `changed outside Pulumi at ${utc(changed)} (env.LOG_LEVEL, image, replicas); last deployed ${utc(deployed)}, 2 days before`,
    ]);
  });
});

test("a Registry, whose record has no time: the paths, and that the platform does not say when", async () => {
  const state = await engine().created(REGISTRY, "ghcr", { name: "ghcr", host: "ghcr.io", username: "ci" });
  const mark = fixture.plugin.engine.messages.length;
  await engine().refresh(REGISTRY, "ghcr", state);
  expect(warningsOn(REGISTRY, "ghcr", mark)).toEqual([]);
  await changeOutsidePulumi("registries", state.id, { username: "someone-else" });
  await engine().refresh(REGISTRY, "ghcr", state);
  expect(warningsOn(REGISTRY, "ghcr", mark)).toEqual([
    "changed outside Pulumi (username); the platform does not say when",
  ]);
});
