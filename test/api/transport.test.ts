// The write-in-flight rule, with a stand-in for undici's dispatcher (no server): a write is
// never aborted once sent, a read is aborted at once, and nothing is sent after an abort.
import type { Dispatcher } from "undici";
import { AbortedError } from "../../provider/src/api/errors";
import { Transport, type RequestSpec } from "../../provider/src/api/transport";

interface Sent {
  method: string;
  path: string;
  aborted: boolean;
}

/** Answers every request after `delayMs`, unless it is aborted first (or `fail` says reset after sending). */
function dispatcher(delayMs: number, fail?: (sent: Sent) => boolean) {
  const sent: Sent[] = [];
  const fake = {
    dispatch(options: Dispatcher.DispatchOptions, handler: any) {
      const request: Sent = { method: String(options.method), path: String(options.path), aborted: false };
      sent.push(request);
      const timer = setTimeout(() => {
        handler.onRequestSent();
        if (fail?.(request)) return handler.onError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
        handler.onHeaders(200, [Buffer.from("content-type"), Buffer.from("application/json")], () => {}, "OK");
        handler.onData(Buffer.from(JSON.stringify({ answered: request.method })));
        handler.onComplete([]);
      }, delayMs);
      handler.onConnect((err: Error) => {
        request.aborted = true;
        clearTimeout(timer);
        handler.onError(err);
      });
      return true;
    },
  };
  return { sent, dispatcher: fake as unknown as Dispatcher };
}

const transport = (d: Dispatcher) =>
  new Transport({ origin: "http://127.0.0.1:9", prefix: "", token: "t0k3n-value", requestTimeoutMs: 5_000, maxRetries: 2, retryAfterCapMs: 1_000, retryBaseDelayMs: 1, userAgent: "test", dispatcher: d });
const json = { kind: "json" as const, schema: { safeParse: (data: unknown) => ({ success: true, data }) } as any };
const request = (method: RequestSpec<unknown>["method"], signal: AbortSignal, extra: Partial<RequestSpec<unknown>> = {}): RequestSpec<unknown> => ({
  method,
  path: "/v1/x",
  response: json,
  signal,
  ...extra,
});

test("a write in flight when its caller aborts is not cut: its answer comes back", async () => {
  const { sent, dispatcher: d } = dispatcher(50);
  const controller = new AbortController();
  const writing = transport(d).request(request("POST", controller.signal, { body: {} }));
  setTimeout(() => controller.abort(), 10);
  await expect(writing).resolves.toEqual({ answered: "POST" });
  expect(sent).toEqual([{ method: "POST", path: "/v1/x", aborted: false }]);
});

test("a read in flight is aborted at once", async () => {
  const { sent, dispatcher: d } = dispatcher(5_000);
  const controller = new AbortController();
  const reading = transport(d).request(request("GET", controller.signal));
  setTimeout(() => controller.abort(), 10);
  await expect(reading).rejects.toBeInstanceOf(AbortedError);
  expect(sent[0].aborted).toBe(true);
});

test("after an abort nothing more is sent: no write is admitted, no retry goes out", async () => {
  const { sent, dispatcher: d } = dispatcher(5);
  await expect(transport(d).request(request("PATCH", AbortSignal.abort()))).rejects.toBeInstanceOf(AbortedError);
  expect(sent).toEqual([]);
  const controller = new AbortController();
  const resets = dispatcher(20, () => true);
  const retrying = transport(resets.dispatcher).request(request("PUT", controller.signal, { body: {} }));
  setTimeout(() => controller.abort(), 10);
  await expect(retrying).rejects.toMatchObject({ name: "AbortedError", mayHaveReachedServer: true });
  expect(resets.sent).toHaveLength(1);
});

test("a create whose outcome is unknown is looked up before the abort is honoured", async () => {
  const { dispatcher: d } = dispatcher(20, (r) => r.method === "POST");
  const controller = new AbortController();
  const lookedUp: string[] = [];
  const creating = transport(d).request(
    request("POST", controller.signal, {
      body: {},
      recover: async () => {
        lookedUp.push("lookup");
        return { value: { id: "made-by-the-lost-attempt" } };
      },
    }),
  );
  setTimeout(() => controller.abort(), 10);
  await expect(creating).resolves.toEqual({ id: "made-by-the-lost-attempt" });
  expect(lookedUp).toEqual(["lookup"]);
});
