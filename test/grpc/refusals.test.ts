// What the provider refuses before any call: ids that are not ids (a path in disguise), inputs
// that never passed Check, settings no timer can hold. And an operation that runs out of time
// while the API rate-limits it says so.
import * as grpc from "@grpc/grpc-js";
import { decode, encode } from "../../provider/src/server/codec";
import { CheckRequest, CheckResponse } from "../../provider/src/server/messages";
import { Engine, Plugin, type GrpcFailure, urn } from "./engine";
import { CONTAINER, PROJECT, REGISTRY, VOLUME, useFixture } from "./fixture";
import { ALICE } from "../../simulator/src";

const fixture = useFixture();
const IMAGE = "registry.example.com/team/web:1.0.0";

describe("ids are data, never paths", () => {
  test.each([
    [CONTAINER, `${PROJECT}/..`],
    [CONTAINER, `${PROJECT}/.`],
    [CONTAINER, `${PROJECT}/a/b`],
    [CONTAINER, `${PROJECT}/x?y=1`],
    [REGISTRY, "../containers"],
    [VOLUME, "%2e%2e"],
    ["hosting:index:VolumeAttachment", `${PROJECT}/../x:y`],
  ])("%s %s: refused naming it, and nothing is sent", async (type, id) => {
    const mark = fixture.mark();
    for (const call of [() => fixture.plugin.delete(type, "r", id, {}), () => fixture.plugin.read(type, "r", id)]) {
      const err = (await call().catch((e) => e)) as GrpcFailure;
      expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(err.details).toMatch(/is not a valid (id|project id)|is not a VolumeAttachment id/);
    }
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  test("the project stays where it was: a Delete of <project>/.. never reaches the project itself", async () => {
    await fixture.plugin.delete(CONTAINER, "r", `${PROJECT}/..`, {}).catch(() => undefined);
    expect(fixture.sim.control.requests().filter((r) => r.method === "DELETE")).toEqual([]);
  });
});

test("a __proto__ key in a resource's inputs fails Check like every other unknown key", async () => {
  // google-protobuf drops the key before it is sent (Struct.fromJavaScript), so the request is
  // written with the plugin's own codec, which keeps it as the engine (Go) would send it.
  const news = JSON.parse(`{"image": "${IMAGE}", "__proto__": {"polluted": true}}`);
  const request = encode(CheckRequest, { urn: urn(CONTAINER, "proto"), type: CONTAINER, name: "proto", news });
  const checked = decode(CheckResponse, await fixture.plugin.callBytes("check", request));
  expect(checked.failures).toEqual([
    {
      property: "__proto__",
      reason: expect.stringMatching(/^__proto__ is not a property of hosting:index:Container; valid properties are /),
    },
  ]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("a Create whose inputs never passed Check is refused before any call", async () => {
  const mark = fixture.mark();
  for (const inputs of [
    { image: IMAGE, projectId: PROJECT },
    { name: "web", image: "nginx:latest", projectId: PROJECT },
    { name: "web", image: IMAGE, projectId: PROJECT, colour: "blue" },
  ]) {
    const err = (await fixture.plugin.create(CONTAINER, "web", inputs).catch((e) => e)) as GrpcFailure;
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toMatch(/^these inputs did not pass Check, so nothing was sent: (name|image|colour): /);
  }
  expect(fixture.requestsSince(mark)).toEqual([]);
});

test("Configure refuses a request timeout no timer can hold (it would time out every request at once)", async () => {
  const plugin = await Plugin.start();
  try {
    const err = (await plugin
      .configure({ baseUrl: fixture.sim.url, token: ALICE.token, requestTimeoutSeconds: 3e9 })
      .catch((e) => e)) as GrpcFailure;
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toMatch(
      /hosting:requestTimeoutSeconds: requestTimeoutSeconds 3000000000 is out of range; use a value from 1 to 3600/,
    );
  } finally {
    await plugin.stop();
  }
});

test("an operation that runs out of time while the API rate-limits it says it was rate limiting", async () => {
  const app = await new Engine(fixture.plugin).created(CONTAINER, "limited", { name: "limited", image: IMAGE });
  const plugin = await Plugin.start();
  try {
    await plugin.configure({ baseUrl: fixture.sim.url, token: ALICE.token, projectId: PROJECT });
    // The time allowed is long enough for the first answer (a 429) on a loaded machine, and far shorter
    // than the wait that answer asks for, so the operation runs out of time while rate limited.
    fixture.sim.control.injectFault({ kind: "rate_limit", retryAfter: "200", method: "GET", path: "/containers$" });
    const err = (await new Engine(plugin)
      .refresh(CONTAINER, "limited", app, { timeouts: { read: 10 } })
      .catch((e) => e)) as GrpcFailure;
    expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(err.details).toMatch(
      /^did not finish within 10s \(customTimeouts\): the API was rate limiting it \(1 answer was 429 RATE_LIMITED/,
    );
  } finally {
    fixture.sim.control.clearFaults();
    await plugin.stop();
  }
});
