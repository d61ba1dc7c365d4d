// Small pure pieces of the simulator, as case tables.
import { imageProblem, imageTag } from "../../simulator/src/images";
import { startEndedLines, startOutcome } from "../../simulator/src/starts";
import { checkSwitches } from "../../simulator/src/switches";
import type { SimService } from "../../simulator/src";
import { TokenBucket } from "../../simulator/src/ratelimit";
import { findRoute, matchPath } from "../../simulator/src/routes";
import { codeForStatus } from "../../simulator/src/errors";
import { after } from "../../simulator/src/clock";
import { hugeBodyChunks, writeChunks } from "../../simulator/src/hugeBody";
import { Writable } from "node:stream";

describe("imageProblem (the BAD_IMAGE rule)", () => {
  test.each([
    ["acme/web:1.0", undefined],
    ["registry.example.com/acme/web:2024.06.01-3", undefined],
    ["localhost:5000/acme/web:v1", undefined],
    ["acme/web:1.0@sha256:abc", undefined],
    ["acme/web", "a tag is required"],
    ["acme/web:", "a tag is required"],
    ["localhost:5000/acme/web", "a tag is required"],
    ["acme/web:latest", "latest"],
    ["acme/web@sha256:abc", "digest"],
  ])("%s", (image, problem) => {
    const found = imageProblem(image);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe("imageTag", () => {
  test.each([
    ["registry.example.com/team/web:2.0.0-bad", "2.0.0-bad"],
    ["localhost:5000/acme/web:v1", "v1"],
    ["localhost:5000/acme/web", ""],
    ["acme/web:1.0@sha256:abc", "1.0"],
    ["acme/web@sha256:abc", ""],
  ])("%s -> %j", (image, tag) => {
    expect(imageTag(image)).toBe(tag);
  });
});

describe("startOutcome and startEndedLines", () => {
  const service = (type: SimService["type"], image: string, env: Record<string, string> = {}) =>
    ({ type, image, port: 8080, env }) as SimService;
  const crashing = (tags: readonly string[]) => ({
    crashingImageTags: tags,
    appsRequireEnv: [],
    injected: new Set<string>(),
  });

  test.each([
    ["container", "acme/web:2.0.0-bad", ["2.0.0-bad"], "failed"],
    ["container", "acme/web:2.0.0", ["2.0.0-bad"], "running"],
    ["container", "acme/2.0.0-bad:1", ["2.0.0-bad"], "running"],
    ["container", "acme/web:2.0.0-bad", [], "running"],
    ["postgres", "registry.sim.hosting.test/managed/postgres:16", ["16"], "running"],
  ] as const)("%s %s with %j -> %s", (type, image, tags, outcome) => {
    expect(startOutcome(service(type, image), crashing(tags))).toBe(outcome);
  });

  test.each([
    ["neither in env nor injected", {}, [], { missingEnv: ["DATABASE_URL"] }],
    ["in the app's env", { DATABASE_URL: "x" }, [], "running"],
    ["injected by a link", {}, ["DATABASE_URL"], "running"],
  ] as const)("an app that needs DATABASE_URL, %s", (_, env, injected, outcome) => {
    const conditions = { crashingImageTags: [], appsRequireEnv: ["DATABASE_URL"], injected: new Set<string>(injected) };
    expect(startOutcome(service("container", "acme/web:1", env), conditions)).toEqual(outcome);
    expect(startOutcome(service("postgres", "managed/postgres:16"), conditions)).toBe("running");
  });

  test("a start that lacks a variable names it in its log", () => {
    const lines = startEndedLines(service("container", "acme/web:1"), { missingEnv: ["DATABASE_URL"] });
    expect(lines[0]).toBe("Error: environment variable DATABASE_URL is not set");
    expect(lines.join("\n")).toMatch(/exit code 1/);
  });

  test("a failed start explains itself in 2 to 4 lines; a good one says where it listens", () => {
    const failed = startEndedLines(service("container", "acme/web:bad"), "failed");
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(failed.join("\n")).toMatch(/exit code 1/);
    expect(startEndedLines(service("container", "acme/web:1"), "running")).toEqual(["listening on port 8080"]);
  });
});

describe("checkSwitches", () => {
  test("accepts the new switches and returns a copy", () => {
    const tags = ["2.0.0-bad"];
    const checked = checkSwitches({ crashingImageTags: tags, linkEnvInConsumer: true, billing: undefined });
    expect(checked).toEqual({ crashingImageTags: ["2.0.0-bad"], linkEnvInConsumer: true });
    tags.push("later");
    expect(checked.crashingImageTags).toEqual(["2.0.0-bad"]);
  });

  test.each([
    [{ crashingImageTags: "bad" }, "switches.crashingImageTags: must be a list of image tags"],
    [{ crashingImageTags: ["web:bad"] }, 'not a tag: "web:bad"'],
    [{ crashingImageTags: [".hidden"] }, 'not a tag: ".hidden"'],
    [{ crashingImageTags: ["x".repeat(129)] }, "not a tag"],
    [{ linkEnvInConsumer: 1 }, "switches.linkEnvInConsumer: must be a boolean"],
    [{ crashingImageTag: [] }, "switches.crashingImageTag: unknown switch"],
  ])("%j is refused: %s", (patch, message) => {
    expect(() => checkSwitches(patch)).toThrow(message);
  });
});

describe("routes", () => {
  test("matchPath captures parameters and ignores a trailing slash", () => {
    expect(matchPath("/v1/projects/:projectId/volumes/:volumeId", "/v1/projects/p1/volumes/v1/")).toEqual({
      projectId: "p1",
      volumeId: "v1",
    });
    expect(matchPath("/v1/projects/:projectId/volumes", "/v1/projects//volumes")).toBeUndefined();
    expect(matchPath("/v1/registries/:registryId", "/v1/registries/%E0%A4%A")).toBeUndefined();
  });

  test("findRoute tells a wrong method from an unknown path", () => {
    expect(findRoute("GET", "/v1/registries").kind).toBe("found");
    expect(findRoute("PATCH", "/v1/registries")).toEqual({ kind: "wrong_method", allowed: ["GET", "POST"] });
    expect(findRoute("GET", "/v1/unknown")).toEqual({ kind: "none" });
  });
});

describe("TokenBucket", () => {
  test("allows a burst of perSecond, then asks to wait whole seconds, then refills", () => {
    const bucket = new TokenBucket(2, 0);
    expect([bucket.take(0), bucket.take(0)]).toEqual([undefined, undefined]);
    expect(bucket.take(0)).toBe(1);
    expect(bucket.take(500)).toBeUndefined();
  });

  test("a slow rate asks for a longer wait", () => {
    const bucket = new TokenBucket(0.25, 0);
    expect(bucket.take(0)).toBeUndefined();
    expect(bucket.take(0)).toBe(4);
  });

  test("0 is unlimited", () => {
    const bucket = new TokenBucket(0, 0);
    for (let i = 0; i < 100; i++) expect(bucket.take(0)).toBeUndefined();
  });
});

test.each([
  [500, "INTERNAL_ERROR"],
  [502, "BAD_GATEWAY"],
  [503, "SERVICE_UNAVAILABLE"],
  [504, "GATEWAY_TIMEOUT"],
  [429, "RATE_LIMITED"],
  [418, "I_M_A_TEAPOT"],
])("codeForStatus(%i) = %s", (status, code) => {
  expect(codeForStatus(status)).toBe(code);
});

test("after() is strictly later than the previous timestamp, even in the same millisecond", () => {
  const t = Date.parse("2026-01-01T00:00:00.000Z");
  expect(after("2026-01-01T00:00:00.000Z", t)).toBe("2026-01-01T00:00:00.001Z");
  expect(after("2026-01-01T00:00:00.000Z", t + 5000)).toBe("2026-01-01T00:00:05.000Z");
});

describe("hugeBodyChunks (the huge_body fault's body)", () => {
  test.each([0, 1, 2, 65_536, 65_537, 3 * 1024 * 1024 + 7])("%i bytes in all, each chunk at most 64 KiB", (bytes) => {
    const chunks = [...hugeBodyChunks(bytes)];
    expect(chunks.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(bytes);
    expect(Math.max(0, ...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(64 * 1024);
    if (bytes > 0) expect(chunks[0].toString()).toBe("[");
  });

  test("every chunk after the first is a view of one shared block, so size costs no memory", () => {
    const [, first, second, last] = [...hugeBodyChunks(1 + 2 * 65_536 + 10)];
    expect(first.buffer).toBe(second.buffer);
    expect(last.buffer).toBe(first.buffer);
  });
});

describe("writeChunks", () => {
  /** A writable that takes one chunk per `delayMs`, with a small buffer; it notes how full that buffer got. */
  function slowSink(delayMs: number) {
    const sink = new Writable({
      highWaterMark: 16 * 1024,
      write: (chunk: Buffer, _encoding, done) => {
        sink.taken += chunk.length;
        setTimeout(done, delayMs);
      },
    }) as Writable & { taken: number; peak: number };
    sink.taken = 0;
    sink.peak = 0;
    const write = sink.write.bind(sink);
    sink.write = ((chunk: Buffer) => {
      const ok = write(chunk);
      sink.peak = Math.max(sink.peak, sink.writableLength);
      return ok;
    }) as typeof sink.write;
    return sink;
  }

  test("waits for the sink to drain: its buffer never holds more than one chunk over its mark", async () => {
    const sink = slowSink(1);
    expect(await writeChunks(sink, hugeBodyChunks(2 * 1024 * 1024))).toBe(true);
    expect(sink.taken).toBe(2 * 1024 * 1024);
    expect(sink.peak).toBeLessThanOrEqual(16 * 1024 + 64 * 1024);
    expect(sink.writableEnded).toBe(true);
  });

  test("stops, taking no further chunk, when the sink closes", async () => {
    const sink = slowSink(5);
    let pulled = 0;
    function* counted() {
      for (const chunk of hugeBodyChunks(1024 * 1024 * 1024)) {
        pulled += 1;
        yield chunk;
      }
    }
    const writing = writeChunks(sink, counted());
    setTimeout(() => sink.destroy(), 30);
    expect(await writing).toBe(false);
    const pulledWhenClosed = pulled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBe(pulledWhenClosed);
    expect(pulled).toBeLessThan(100);
  });
});
