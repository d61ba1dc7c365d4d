// The code caches the build makes (scripts/code-cache.mjs), one per loaded stage: V8 takes both,
// in the Node.js-script plugin (bin/) and in the single executable, or start-up compiles what
// they should have held (docs/performance.md, row 1).
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Plugin } from "../grpc/engine";
import { SCRIPT_PLUGIN, SINGLE_EXECUTABLE, built } from "./helpers";

describe.each([
  { name: "the Node.js-script plugin (bin/)", plugin: SCRIPT_PLUGIN, target: "build" },
  { name: "the single executable", plugin: SINGLE_EXECUTABLE, target: "package" },
])("$name", ({ plugin, target }) => {
  test("takes the build's code cache of the second stage, then of the third", async () => {
    const started = await Plugin.start({ command: built(plugin, target), args: ["--logtostderr", "-v=9"] });
    try {
      await started.call("getPluginInfo", new Empty());
      // Offline: Configure sends nothing to the API, but loads the third stage.
      await started.configure({
        baseUrl: "http://127.0.0.1:9",
        token: "t",
        projectId: "00000000-0000-4000-8000-000000000000",
      });
      // main.ts says each at -v=9 with --logtostderr.
      expect(started.stderr).toMatch(/hosting: started in [\d.]+ ms after the port line \(code cache accepted\)/);
      expect(started.stderr).toMatch(/hosting: provider loaded in [\d.]+ ms \(code cache accepted\)/);
    } finally {
      await started.stop();
    }
  });
});
