// When the plugin's second stage cannot start, the engine would show only "plugin did not begin
// responding" (it logs a plugin's stderr at debug level). So the plugin keeps its port and answers
// every call with the reason and what to do. Made to happen here by breaking a copy of bin/.
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ROOT, SCRIPT_PLUGIN, VERSION, built, client, startPlugin, tempDir, type Started } from "./helpers";

const FAILED_PRECONDITION = 9;

/** bin/ copied (without source maps) into a temporary directory, then `breakIt` applied. */
function brokenCopy(breakIt: (dir: string) => void): string {
  built(SCRIPT_PLUGIN, "build");
  const dir = tempDir("hosting-broken-");
  for (const file of readdirSync(join(ROOT, "bin")))
    if (!file.endsWith(".map")) copyFileSync(join(ROOT, "bin", file), join(dir, file));
  breakIt(dir);
  return dir;
}

function call(port: number, method: "getPluginInfo" | "configure", request: unknown) {
  const c = client(port);
  return new Promise<{ code: number; details: string }>((res, rej) =>
    (c as any)[method](request, (err: { code: number; details: string } | null) =>
      err ? res({ code: err.code, details: err.details }) : rej(new Error(`${method} answered`)),
    ),
  ).finally(() => c.close());
}

function configureRequest() {
  const request = new provproto.ConfigureRequest();
  request.setArgs(Struct.fromJavaScript({ baseUrl: "http://127.0.0.1:9", token: "t" }));
  return request;
}

describe.each([
  {
    name: "the second stage's file is missing",
    breakIt: (dir: string) => rmSync(join(dir, "pulumi-resource-hosting.server.js")),
    reason: /ENOENT: no such file or directory, open '.*pulumi-resource-hosting\.server\.js'/,
  },
  {
    name: "the second stage throws as it loads",
    breakIt: (dir: string) => {
      writeFileSync(join(dir, "pulumi-resource-hosting.server.js"), 'throw new Error("the bundle is damaged");\n');
      rmSync(join(dir, "pulumi-resource-hosting.server.cache"));
    },
    reason: /the bundle is damaged/,
  },
])("when $name", ({ breakIt, reason }) => {
  let dir: string;
  let plugin: Started;
  beforeAll(async () => {
    dir = brokenCopy(breakIt);
    plugin = await startPlugin(process.execPath, { args: [join(dir, "pulumi-resource-hosting")] });
  });
  afterAll(async () => {
    await plugin?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("it still prints its port, and answers GetPluginInfo and Configure with the reason and what to do", async () => {
    for (const [method, request] of [
      ["getPluginInfo", new Empty()],
      ["configure", configureRequest()],
    ] as const) {
      const failure = await call(plugin.port, method, request);
      expect(failure.code).toBe(FAILED_PRECONDITION);
      expect(failure.details).toMatch(/^pulumi-resource-hosting could not start: /);
      expect(failure.details).toMatch(reason);
      expect(failure.details).toContain(
        `Reinstall the plugin: pulumi plugin rm resource hosting ${VERSION} --yes, then pulumi plugin install resource hosting ${VERSION} --server `,
      );
    }
    expect(plugin.child.exitCode).toBeNull();
  });

  test("it writes the same to stderr, and exits cleanly on SIGTERM", async () => {
    const lines = plugin.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^pulumi-resource-hosting could not start: /);
    expect(lines[0]).toMatch(reason);
    const exited = new Promise<number | null>((res) => plugin.child.once("exit", (code) => res(code)));
    plugin.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe("when the third stage (the provider) is missing", () => {
  let dir: string;
  let plugin: Started;
  beforeAll(async () => {
    dir = brokenCopy((dir) => rmSync(join(dir, "pulumi-resource-hosting.provider.js")));
    plugin = await startPlugin(process.execPath, { args: [join(dir, "pulumi-resource-hosting")] });
  });
  afterAll(async () => {
    await plugin?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    "GetPluginInfo still answers; every call that needs the provider answers the reason and " + "what to do",
    async () => {
      const c = client(plugin.port);
      const info = await new Promise<string>((res, rej) =>
        (c as any).getPluginInfo(new Empty(), (err: Error | null, r: any) => (err ? rej(err) : res(r.getVersion()))),
      );
      c.close();
      expect(info).toBe(VERSION);
      for (let attempt = 0; attempt < 2; attempt++) {
        const failure = await call(plugin.port, "configure", configureRequest());
        expect(failure.code).toBe(FAILED_PRECONDITION);
        expect(failure.details).toMatch(
          new RegExp(
            /^pulumi-resource-hosting could not start: ENOENT: no such file or directory, /.source +
              /open '.*pulumi-resource-hosting\.provider\.js'/.source,
          ),
        );
        expect(failure.details).toContain(`Reinstall the plugin: pulumi plugin rm resource hosting ${VERSION} --yes`);
      }
      // Said on stderr once, however many calls answer it.
      expect(plugin.stderr().trim().split("\n")).toEqual([
        expect.stringMatching(/^pulumi-resource-hosting could not start: ENOENT/),
      ]);
    },
  );
});
