// The engine log bounds every message (provider/src/redact.ts `bounded`): an app's log tail or an
// API's echo quoted in a warning can be megabytes, more than the engine's Log service takes.
import { connectEngineLog } from "../../provider/src/server/engineLog";
import { MESSAGE_LIMIT_BYTES } from "../../provider/src/redact";
import { FakeEngine } from "../grpc/engine";

let engine: FakeEngine;
beforeAll(async () => {
  engine = await new FakeEngine().start();
});
afterAll(() => engine.stop());

test.each([100, 64 * 1024, 16 * 1024 * 1024])(
  "a message of %i bytes reaches the engine within the limit",
  async (size) => {
    const log = connectEngineLog(engine.address);
    try {
      const message = `warning: ${"w".repeat(size)} (end)`;
      await log.log("warning", message, "urn:pulumi:test::p::hosting:index:Container::web");
      const received = engine.messages.at(-1)!.message;
      expect(Buffer.byteLength(received)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
      expect(received.endsWith(" (end)")).toBe(true);
      if (Buffer.byteLength(message) <= MESSAGE_LIMIT_BYTES) expect(received).toBe(message);
      else expect(received).toMatch(/ \[…cut: [\d,]+ bytes left out \(a message is limited to 8 KiB\)…\] /);
    } finally {
      log.close();
    }
  },
);
