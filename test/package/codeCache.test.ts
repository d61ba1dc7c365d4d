// The code caches the build makes (scripts/code-cache.mjs), one per loaded stage: V8 takes both,
// in the Node.js-script plugin (bin/) and in the single executable, or start-up compiles what
// they should have held (docs/performance.md, row 1).
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SCRIPT_PLUGIN, SINGLE_EXECUTABLE, built, client, startPlugin } from "./helpers";

const call = (port: number, method: "getPluginInfo" | "configure", request: unknown) => {
  const c = client(port);
  return new Promise<void>((resolve, reject) =>
    (c as unknown as Record<string, (r: unknown, cb: (err: Error | null) => void) => void>)[method](request, (err) => (err ? reject(err) : resolve())),
  ).finally(() => c.close());
};

describe.each([
  { name: "the Node.js-script plugin (bin/)", plugin: SCRIPT_PLUGIN, target: "build" },
  { name: "the single executable", plugin: SINGLE_EXECUTABLE, target: "package" },
])("$name", ({ plugin, target }) => {
  test("takes the build's code cache of the second stage, then of the third", async () => {
    const started = await startPlugin(built(plugin, target), { args: ["--logtostderr", "-v=9"] });
    try {
      await call(started.port, "getPluginInfo", new Empty());
      const configure = new provproto.ConfigureRequest();
      configure.setArgs(Struct.fromJavaScript({ baseUrl: "http://127.0.0.1:9", token: "t", projectId: "00000000-0000-4000-8000-000000000000" }));
      await call(started.port, "configure", configure);
      // main.ts says each at -v=9 with --logtostderr.
      expect(started.stderr()).toMatch(/hosting: started in [\d.]+ ms after the port line \(code cache accepted\)/);
      expect(started.stderr()).toMatch(/hosting: provider loaded in [\d.]+ ms \(code cache accepted\)/);
    } finally {
      await started.stop();
    }
  });
});
