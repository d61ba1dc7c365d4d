// The benchmarks' floors (scripts/floor.mjs, bench/floor/start.ts) must measure what the table says
// they do: the plugin's own first stage, gRPC and the stubs with the build's code cache taken, and
// replies carried as given, never made by the provider.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { version } from "../../package.json";
import { Plugin } from "../grpc/engine";

const ROOT = resolve(__dirname, "../..");
let dir: string;
let floors: { floor: string; firstStage: string };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hosting-floor-"));
  const build = `import { buildFloorPlugins } from "./scripts/floor.mjs"; console.log(JSON.stringify(await buildFloorPlugins(${JSON.stringify(dir)})));`;
  floors = JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", build], { cwd: ROOT, encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1)!,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readReply(): provproto.ReadResponse {
  const reply = new provproto.ReadResponse();
  reply.setId("0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00");
  reply.setProperties(
    Struct.fromJavaScript({ name: "app-1", image: "registry.example.com/acme/web:1.0.0", httpPort: 8080 }),
  );
  reply.setInputs(Struct.fromJavaScript({ name: "app-1", image: "registry.example.com/acme/web:1.0.0" }));
  return reply;
}

test(
  "the floor answers GetPluginInfo with the plugin's version, " + "from a second stage that took its code cache",
  async () => {
    const plugin = await Plugin.start({ command: floors.floor, args: ["-v=9", "--logtostderr"] });
    try {
      const info = await plugin.call<plugproto.PluginInfo>("getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(version);
      expect(plugin.stderr).toMatch(/started in [\d.]+ ms after the port line \(code cache accepted\)/);
    } finally {
      await plugin.stop();
    }
  },
);

test("the floor answers every Read with the reply it was given, byte for byte, and what it was given none for is UNIMPLEMENTED", async () => {
  const reply = readReply().serializeBinary();
  const plugin = await Plugin.start({
    command: floors.floor,
    env: { BENCH_FLOOR_REPLIES: JSON.stringify({ read: Buffer.from(reply).toString("base64") }) },
  });
  try {
    for (const id of ["one", "another"]) {
      const request = new provproto.ReadRequest();
      request.setId(id);
      const answer = await plugin.call<provproto.ReadResponse>("read", request);
      expect(Buffer.from(answer.serializeBinary())).toEqual(Buffer.from(reply));
    }
    await expect(plugin.call("check", new provproto.CheckRequest())).rejects.toMatchObject({ code: 12 });
  } finally {
    await plugin.stop();
  }
});

test("the first stage alone answers from node:http2, with FAILED_PRECONDITION and the reason", async () => {
  const plugin = await Plugin.start({ command: floors.firstStage });
  try {
    await expect(plugin.call("getPluginInfo", new Empty())).rejects.toMatchObject({
      code: 9,
      details: expect.stringMatching(/could not start/),
    });
  } finally {
    await plugin.stop();
  }
});
