// The write-in-flight rule, with a stand-in for undici's dispatcher (no server): a write is
// never aborted once sent, a read is aborted at once, and nothing is sent after an abort.
import type { Dispatcher } from "undici";
import { AbortedError, SizeLimitError } from "../../provider/src/api/errors";
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
  new Transport({
    origin: "http://127.0.0.1:9",
    prefix: "",
    token: "t0k3n-value",
    requestTimeoutMs: 5_000,
    maxRetries: 2,
    retryAfterCapMs: 1_000,
    retryBaseDelayMs: 1,
    userAgent: "test",
    dispatcher: d,
  });
const json = { kind: "json" as const, schema: { safeParse: (data: unknown) => ({ success: true, data }) } as any };
const request = (
  method: RequestSpec<unknown>["method"],
  signal: AbortSignal,
  extra: Partial<RequestSpec<unknown>> = {},
): RequestSpec<unknown> => ({
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

test("a request body over 1 MiB is refused before anything is sent, naming the endpoint", async () => {
  const { sent, dispatcher: d } = dispatcher(1);
  const failure: any = await transport(d)
    .request(request("PATCH", new AbortController().signal, { body: { env: { BIG: "x".repeat(1024 * 1024) } } }))
    .catch((e) => e);
  expect(failure).toBeInstanceOf(SizeLimitError);
  expect(failure.message).toBe(
    "PATCH /v1/x: the request body is larger than the 1 MiB the provider sends; nothing was sent",
  );
  expect(sent).toEqual([]);
});

test("an answer larger than the client reads is cut off, on its Content-Length or as it streams", async () => {
  for (const header of [true, false]) {
    const chunks: string[] = [];
    const fake = {
      dispatch(_options: Dispatcher.DispatchOptions, handler: any) {
        handler.onConnect(() => chunks.push("aborted"));
        handler.onRequestSent();
        handler.onHeaders(
          200,
          header ? [Buffer.from("content-length"), Buffer.from(String(10 * 1024 * 1024))] : [],
          () => {},
          "OK",
        );
        for (let i = 0; i < 20 && !chunks.includes("aborted"); i++) {
          chunks.push("chunk");
          handler.onData(Buffer.alloc(64 * 1024, "x"));
        }
        return true;
      },
    };
    const small = new Transport({
      origin: "http://127.0.0.1:9",
      prefix: "",
      token: "t0k3n-value",
      requestTimeoutMs: 5_000,
      maxRetries: 0,
      retryAfterCapMs: 1_000,
      maxResponseBytes: 256 * 1024,
      userAgent: "test",
      dispatcher: fake as unknown as Dispatcher,
    });
    const failure: any = await small
      .request({ method: "GET", path: "/v1/projects/p/containers", response: json })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(SizeLimitError);
    expect(failure.message).toMatch(
      new RegExp(
        /^GET \/v1\/projects\/p\/containers: the API's answer \(HTTP 200\) /.source +
          /is larger than the 256 KiB the provider reads; it stopped reading/.source,
      ),
    );
    // With a Content-Length it never reads the body; without one it stops as soon as it is over.
    expect(chunks.filter((c) => c === "chunk").length).toBe(header ? 0 : 5);
  }
});
