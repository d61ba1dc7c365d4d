// The plugin as a user installs it: the archive `make package` writes, unpacked away from the
// repository (no node_modules), still starts and answers the engine. The test packs the plugin
// `make test` built (`make archive`): rebuilding bin/ here would pull it from under the other
// tests that are running it.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

const ROOT = resolve(__dirname, "../..");

test("the plugin archive unpacks into a plugin that runs with only Node.js", async () => {
  const out = execFileSync("make", ["-s", "archive"], { cwd: ROOT, encoding: "utf8" });
  const archive = /wrote (\S+);/.exec(out)![1];
  const dir = mkdtempSync(join(tmpdir(), "plugin-"));
  try {
    execFileSync("tar", ["-xzf", resolve(ROOT, archive), "-C", dir]);
    expect(readdirSync(dir)).toContain("pulumi-resource-hosting");
    const child = spawn(join(dir, "pulumi-resource-hosting"), ["127.0.0.1:1"], { cwd: dir, env: { PATH: process.env.PATH }, stdio: ["ignore", "pipe", "pipe"] });
    const port = await new Promise<string>((res, rej) => {
      createInterface({ input: child.stdout! }).once("line", res);
      child.once("exit", (code) => rej(new Error(`exited ${code}`)));
    });
    expect(port).toMatch(/^\d+$/);
    // It also serves: a first call loads the rest of the plugin from beside the executable.
    const grpc = await import("@grpc/grpc-js");
    const provrpc = await import("@pulumi/pulumi/proto/provider_grpc_pb");
    const { Empty } = await import("google-protobuf/google/protobuf/empty_pb");
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const version = await new Promise<string>((res, rej) => client.getPluginInfo(new Empty(), (e, info) => (e ? rej(e) : res(info!.getVersion()))));
    expect(version).toBe(require("../../package.json").version);
    client.close();
    child.kill();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
