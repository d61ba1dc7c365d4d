// Every message the plugin answers is bounded (provider/src/redact.ts MESSAGE_LIMIT_BYTES): a gRPC
// status travels in HTTP/2 trailers, and one too large was never sent, so the engine waited for
// ever and the connection's next call stalled too. Each case here is answered with the message cut
// and a note of how much was left out, and the same connection then serves the next call.
import * as grpc from "@grpc/grpc-js";
import { MESSAGE_LIMIT_BYTES } from "../../provider/src/redact";
import { Engine, initFailure, type GrpcFailure } from "./engine";
import { CONTAINER, REGISTRY, useFixture } from "./fixture";

const fixture = useFixture();
const NOTE = /\[…cut: ([\d,]+) bytes left out \(a message is limited to 8 KiB\)…\]/;

function failureOf(call: Promise<unknown>): Promise<GrpcFailure> {
  return call.then(
    () => {
      throw new Error("the call did not fail");
    },
    (err: GrpcFailure) => err,
  );
}

/** The text within the limit, cut with the note, and the number of bytes the note says were left out. */
function expectCut(text: string): number {
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
  const note = NOTE.exec(text);
  expect(note).not.toBeNull();
  return Number(note![1].replaceAll(",", ""));
}

/** The connection still serves: a lookup that needs the API answers. */
async function expectServing() {
  const next = await fixture.plugin.invoke("hosting:index:getRegistries", {});
  expect(next.failures).toEqual([]);
}

test.each([64 * 1024, 1024 * 1024, 16 * 1024 * 1024])(
  "an API error of %i bytes is answered cut, with its code, status and request id, and the connection goes on",
  async (size) => {
    fixture.sim.control.injectFault({
      kind: "respond_after",
      method: "GET",
      path: "/registries$",
      status: 400,
      body: JSON.stringify({ code: "BAD_REQUEST", message: `name ${"n".repeat(size)} is not valid` }),
    });
    const failure = await failureOf(fixture.plugin.invoke("hosting:index:getRegistries", {}));
    expect(failure.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(failure.details).toMatch(/^BAD_REQUEST: name nnnn/);
    expect(failure.details).toMatch(/nnnn is not valid \(HTTP 400, request [\w-]+\)$/);
    expect(expectCut(failure.details)).toBeGreaterThan(size - MESSAGE_LIMIT_BYTES);
    await expectServing();
  },
);

test("an invoke with a 100 KB argument, which the error repeats, is answered cut", async () => {
  const name = "x".repeat(100 * 1024);
  const failure = await failureOf(fixture.plugin.invoke("hosting:index:getContainer", { name }));
  expect(failure.details).toMatch(/^.*name "xxxx/);
  expect(expectCut(failure.details)).toBeGreaterThan(100 * 1024 - MESSAGE_LIMIT_BYTES);
  await expectServing();
});

test("a Check failure that quotes a 100 KB value is cut", async () => {
  const checked = await fixture.plugin.check(REGISTRY, "long-host", {
    name: "long-host",
    host: "h".repeat(100 * 1024),
  });
  expect(checked.failures).toHaveLength(1);
  expect(checked.failures[0].property).toBe("host");
  expect(checked.failures[0].reason).toMatch(/^host "hhhh.*hhhh" is not a host name; use a name such as/);
  expect(expectCut(checked.failures[0].reason)).toBeGreaterThan(100 * 1024 - MESSAGE_LIMIT_BYTES);
  await expectServing();
});

test("a partial failure's reason (an app's log tail of 12 KB) is cut alike in the status and in its details", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["2.0.0-bad"] });
  // Twenty lines of 1,000 characters of three bytes each: the tail's 4,096 characters are 12 KB.
  const line = "ログ".repeat(500);
  fixture.sim.control.injectFault({
    kind: "respond_after",
    method: "GET",
    path: "/logs$",
    status: 200,
    headers: { "content-type": "text/plain" },
    body: Array.from({ length: 20 }, () => line).join("\n"),
  });
  try {
    const created = await new Engine(fixture.plugin).create(CONTAINER, "verbose-crash", {
      name: "verbose-crash",
      image: "registry.example.com/team/web:2.0.0-bad",
    });
    const failure = created.error as GrpcFailure;
    expect(failure.details).toMatch(/^container verbose-crash failed to start/);
    expectCut(failure.details);
    const detail = initFailure(failure);
    expect(detail?.id).toBe(created.state.id);
    expect(detail?.reasons).toEqual([failure.details]);
  } finally {
    fixture.sim.control.setSwitches({ crashingImageTags: [] });
  }
  await expectServing();
});

test("a partial failure whose state is too large for its trailer is delivered without its largest property, and the next up reads it back first", async () => {
  fixture.sim.control.setSwitches({ crashingImageTags: ["9.9.9-bad"] });
  // 7 variables of 30 KiB: 210 KiB of env, within the app's bounds, far over what a trailer carries.
  const env = Object.fromEntries([...Array(7).keys()].map((i) => [`BLOB_${i}`, String(i).repeat(30 * 1024)]));
  const program = { image: "registry.example.com/team/web:9.9.9-bad", env };
  const created = await new Engine(fixture.plugin).create(CONTAINER, "big", program);
  expect(created.error?.details).toContain(
    "(state records it without env, too large to travel with this error; the next preview or update reads it from the platform first)",
  );
  expect(created.state.id).not.toBe("");
  expect(created.state.outputs).not.toHaveProperty("env");
  expect(created.state.refreshBeforeUpdate).toBe(true);
  await expectServing();
  fixture.sim.control.setSwitches({ crashingImageTags: [] });
  const fixed = await new Engine(fixture.plugin).up(
    CONTAINER,
    "big",
    { ...program, image: "registry.example.com/team/web:1.0.0" },
    created.state,
  );
  expect(fixed).toMatchObject({ refreshed: true, steps: ["update"], error: undefined });
  expect(fixed.state.outputs.env).toEqual(env);
});
