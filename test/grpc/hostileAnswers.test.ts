// What a misbehaving API sends back, over gRPC against the simulator: a create whose answer is
// unreadable after the server acted is looked up and never orphaned; what it finds is adopted only
// if this create made it; answers too large to read, redirects, and 413/431 say what they are.
import * as grpc from "@grpc/grpc-js";
import { ALICE } from "../../simulator/src";
import { Engine, Plugin, initFailure, type GrpcFailure } from "./engine";
import { CONTAINER, PROJECT, REGISTRY, VOLUME, useFixture } from "./fixture";

const fixture = useFixture({ volumeProvisioningMs: 0 });
const engine = () => new Engine(fixture.plugin);
const IMAGE = "registry.example.com/team/web:1.0.0";
const posts = (mark: number, path: RegExp) =>
  fixture.requestsSince(mark).filter((r) => r.method === "POST" && path.test(r.path)).length;

describe("a create whose outcome is unknown is never orphaned", () => {
  test.each([
    ["unreadable JSON", 201, "{not json"],
    ["a body with no id", 201, "{}"],
    ["an empty body", 200, ""],
    ["a 500 after acting", 500, '{"code":"INTERNAL_ERROR","message":"it broke after writing"}'],
  ])("%s: the create looks the app up, finds it, and records it, sending nothing twice", async (what, status, body) => {
    const name = `made-${status}-${body.length}`;
    fixture.sim.control.injectFault({ kind: "respond_after", method: "POST", path: "/containers$", status, body });
    const mark = fixture.mark();
    const state = await engine().created(CONTAINER, name, { name, image: IMAGE });
    const live = fixture.sim.control.snapshot().services.filter((s) => s.name === name);
    expect(live).toHaveLength(1);
    expect(state.id).toBe(live[0].id);
    expect(posts(mark, /\/containers$/)).toBe(1);
    expect(what).toBeDefined();
  });

  test("a volume and a registry: the same (a registry, which has no creation time, is proven by not being there just before)", async () => {
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "POST",
      path: "/volumes$",
      status: 201,
      body: "{not json",
    });
    const volume = await engine().created(VOLUME, "vol", { name: "vol", sizeGb: 1 });
    expect(fixture.sim.control.snapshot().volumes.map((v) => v.id)).toContain(volume.id);
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "POST",
      path: "/registries$",
      status: 201,
      body: "{}",
    });
    const registry = await engine().created(REGISTRY, "reg", { name: "reg", host: "ghcr.io" });
    expect(fixture.sim.control.snapshot().registries.map((r) => r.id)).toContain(registry.id);
  });

  test("a retried create that meets its own earlier creation adopts it instead of failing on the name", async () => {
    // The first attempt acts, and its connection is cut; the lookup's list does not show the app yet (a lagging
    // read); the POST sent again meets the name the first one took, and the lookup after that 409 finds it.
    fixture.sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/containers$" });
    // (The list a create reads first, of what was there before it, goes through.)
    fixture.sim.control.injectFault({ kind: "latency", method: "GET", path: "/containers$", latencyMs: 0 });
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "GET",
      path: "/containers$",
      status: 200,
      body: "[]",
    });
    const mark = fixture.mark();
    const state = await engine().created(CONTAINER, "retried", { name: "retried", image: IMAGE });
    expect(
      fixture.sim.control
        .snapshot()
        .services.filter((s) => s.name === "retried")
        .map((s) => s.id),
    ).toEqual([state.id]);
    expect(
      fixture
        .requestsSince(mark)
        .filter((r) => r.method === "POST" && /\/containers$/.test(r.path))
        .map((r) => r.status),
    ).toEqual(["reset", 409]);
  });
});

describe("adoption never takes what is not ours", () => {
  test("after a lost answer, an app of the same name and image made earlier (another stack's) is not adopted: the name conflict stands, with its advice", async () => {
    const theirs = await engine().created(CONTAINER, "shared-name", {
      name: "shared-name",
      image: IMAGE,
      env: { OWNER: "other-stack" },
    });
    fixture.sim.control.mutate("services", theirs.id, {
      created_at: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
    });
    // Our create: its answer is lost (the server answered 409 for the taken name, and the connection dropped).
    fixture.sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/containers$" });
    const failure = (await engine()
      .create(CONTAINER, "ours", { name: "shared-name", image: IMAGE })
      .catch((e) => e)) as GrpcFailure;
    expect(failure.code).not.toBe(grpc.status.OK);
    expect(failure.details).toMatch(
      /^NAME_TAKEN: .*\(HTTP 409.*another resource in this scope has this name.*deleteBeforeReplace: true/,
    );
    expect(initFailure(failure)).toBeUndefined();
    // Theirs is untouched: its env is still theirs.
    expect(fixture.sim.control.snapshot().services.find((s) => s.id === theirs.id)?.env).toEqual({
      OWNER: "other-stack",
    });
  });

  test("a registry of the same name that was there before the create is not adopted either", async () => {
    await engine().created(REGISTRY, "taken-reg", { name: "taken-reg", host: "ghcr.io" });
    fixture.sim.control.injectFault({ kind: "reset_after", method: "POST", path: "/registries$" });
    const failure = (await engine()
      .create(REGISTRY, "ours-reg", { name: "taken-reg", host: "ghcr.io" })
      .catch((e) => e)) as GrpcFailure;
    expect(failure.details).toMatch(/^NAME_TAKEN: .*another resource in this scope has this name/);
  });
});

describe("answers the provider does not take", () => {
  test.each([true, false])(
    "a 200 MB list (Content-Length said: %s) fails naming the endpoint; the plugin lives on, and other calls are not slowed",
    async (withLength) => {
      fixture.sim.control.injectFault({
        kind: "huge_body",
        bytes: 200 * 1024 * 1024,
        withLength,
        method: "GET",
        path: "/containers$",
      });
      // That it stopped at 64 MiB, not after 200 MB, is what the message says (without a Content-Length
      // it can only know by counting as it reads); no wall-clock bound, which a loaded machine breaks.
      const failure = (await fixture.plugin.invoke("hosting:index:getContainers", {}).catch((e) => e)) as GrpcFailure;
      expect(failure.details).toMatch(
        new RegExp(
          `^GET /v1/projects/${PROJECT}/containers: the API's answer \\(HTTP 200\\) is larger than the 64 MiB the provider reads; it stopped reading`,
        ),
      );
      expect((await fixture.plugin.invoke("hosting:index:getRegistries", {})).failures).toEqual([]);
    },
  );

  test("a redirect is not followed, and the message says where it pointed", async () => {
    fixture.sim.control.injectFault({
      kind: "redirect",
      status: 302,
      method: "GET",
      path: "/registries$",
      location: "https://login.example.com/sso",
    });
    const failure = (await fixture.plugin.invoke("hosting:index:getRegistries", {}).catch((e) => e)) as GrpcFailure;
    expect(failure.details).toMatch(
      new RegExp(
        /^REDIRECT_NOT_FOLLOWED: the API answered with a redirect to https:\/\/login\.example\.com\/sso, /.source +
          /which the provider does not follow/.source,
      ),
    );
  });

  test("a 413 names the size of what was sent", async () => {
    fixture.sim.control.setSwitches({ maxRequestBodyBytes: 64 });
    try {
      const failure = (await engine()
        .create(REGISTRY, "big-reg", { name: "big-reg", host: "ghcr.io", username: "a-long-user-name-over-the-limit" })
        .catch((e) => e)) as GrpcFailure;
      expect(failure.details).toMatch(
        /^PAYLOAD_TOO_LARGE: the request body \(\d+ bytes\) is larger than the server takes/,
      );
    } finally {
      fixture.sim.control.setSwitches({ maxRequestBodyBytes: 1024 * 1024 });
    }
  });
});

test("a token too large for the server's headers: 431 says it is the token", async () => {
  const plugin = await Plugin.start();
  try {
    await plugin.configure({
      baseUrl: fixture.sim.url,
      token: `${ALICE.token}${"x".repeat(20 * 1024)}`,
      projectId: PROJECT,
    });
    const failure = (await plugin.invoke("hosting:index:getRegistries", {}).catch((e) => e)) as GrpcFailure;
    expect(failure.details).toMatch(
      new RegExp(
        /^REQUEST_HEADER_FIELDS_TOO_LARGE: the request's headers are larger than the server takes, /.source +
          /and the bearer token is the only large one \(20,4\d\d bytes\)/.source,
      ),
    );
  } finally {
    await plugin.stop();
  }
});
