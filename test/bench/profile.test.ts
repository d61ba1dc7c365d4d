// bench/profile.ts: a profile's samples summed by the part of the plugin each frame ran in.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { partOf, summarizeProfiles } from "../../bench/profile";

test("a frame's part: the provider's folder, the package, Node.js's module, or V8's own", () => {
  expect(partOf("../provider/src/framework/check.ts", "checkInputs")).toBe("provider/src/framework");
  expect(partOf("../provider/src/startup.ts", "load")).toBe("provider/src/startup");
  expect(partOf("../node_modules/zod/v4/core/schemas.js", "parse")).toBe("zod");
  expect(partOf("../node_modules/@grpc/grpc-js/src/server.ts", "handle")).toBe("@grpc/grpc-js");
  expect(partOf("node:internal/http2/core", "respond")).toBe("Node.js http2");
  expect(partOf("node:events", "emit")).toBe("Node.js events");
  expect(partOf("", "(garbage collector)")).toBe("garbage collector");
  expect(partOf("", "(idle)")).toBe("(idle)");
});

test("self time is summed by part and by function, largest first, idle left out", () => {
  const dir = mkdtempSync(join(tmpdir(), "hosting-profile-test-"));
  try {
    const frame = (id: number, functionName: string, url: string, lineNumber = 0) => ({
      id,
      callFrame: { functionName, url, lineNumber, columnNumber: 0, scriptId: "0" },
    });
    const profile = {
      nodes: [
        frame(1, "(root)", ""),
        frame(2, "(idle)", ""),
        frame(3, "emit", "node:events", 470),
        frame(4, "(garbage collector)", ""),
      ],
      samples: [2, 3, 3, 4, 3, 2],
      timeDeltas: [5000, 1000, 2000, 4000, 3000, 9000],
      startTime: 0,
      endTime: 24000,
    };
    writeFileSync(join(dir, "a.cpuprofile"), JSON.stringify(profile));
    const summary = summarizeProfiles(dir);
    expect(summary.totalMs).toBe(10);
    expect(summary.parts).toEqual([
      { part: "Node.js events", ms: 6 },
      { part: "garbage collector", ms: 4 },
    ]);
    expect(summary.functions[0]).toEqual({ fn: "emit (node:events:471)", part: "Node.js events", ms: 6 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
