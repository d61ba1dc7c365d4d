// How a lifecycle call runs (server/operations.ts), without a server: its context, Cancel, the
// settings not known yet, and warnings delivered before the answer.
import type { HostingClient } from "../../provider/src/api/client";
import type { EngineLog } from "../../provider/src/server/engineLog";
import { type Configured, Operations } from "../../provider/src/server/operations";

const logged: string[] = [];
const engine: EngineLog = {
  log: async (severity, message) => void logged.push(`${severity}: ${message}`),
  attach: () => undefined,
  close: () => undefined,
};
const client = { transport: { rateLimitedSince: () => 0 } } as unknown as HostingClient;
const configured = (over: Partial<Configured> = {}): Configured => ({
  client,
  unknown: [],
  values: { projectId: "p1" },
  polls: new Map(),
  ...over,
});

beforeEach(() => logged.splice(0));

test("a call gets the client, the settings and the display, every text redacted", async () => {
  const operations = new Operations(
    engine,
    (text) => text.replaceAll("hunter22", "[secret]"),
    () => configured(),
  );
  const seen = await operations.run("urn:a", 1000, async (ctx) => {
    ctx.progress("waiting for hunter22");
    ctx.warn("hunter22 changed");
    return { client: ctx.client, config: ctx.config, timeout: ctx.operationTimeoutMs };
  });
  expect(seen).toEqual({ client, config: { projectId: "p1" }, timeout: 1000 });
  // The warning is delivered before the answer.
  expect(logged).toEqual(["info: waiting for [secret]", "warning: [secret] changed"]);
  expect(operations.reachable()).toBe(true);
});

test("before Configure, and while a setting is not known, a call says why and runs nothing", async () => {
  let ran = false;
  const call = async () => void (ran = true);
  await expect(new Operations(engine, String, () => undefined).run("u", 1, call)).rejects.toMatchObject({
    message: "the provider is not configured",
  });
  const waiting = new Operations(engine, String, () =>
    configured({ client: undefined, unknown: ["hosting:baseUrl", "hosting:token"] }),
  );
  expect(waiting.reachable()).toBe(false);
  await expect(waiting.run("u", 1, call)).rejects.toMatchObject({
    message: expect.stringMatching(/^the provider's hosting:baseUrl, hosting:token are not known yet: they come from/),
  });
  expect(ran).toBe(false);
});

test("Cancel aborts the calls in flight and every one after it", async () => {
  const operations = new Operations(engine, String, () => configured());
  const aborted = operations.run(
    "u",
    60_000,
    (ctx) => new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")))),
  );
  operations.cancelAll();
  await expect(aborted).rejects.toThrow("aborted");
  await expect(operations.run("u", 60_000, async (ctx) => ctx.signal.aborted)).resolves.toBe(true);
});

test("a Read counts among the Reads in flight while it runs", async () => {
  const operations = new Operations(engine, String, () => configured());
  let during = 0;
  await operations.read("u", 1000, async () => void (during = operations.reads.expected()));
  expect(during).toBe(1);
});
