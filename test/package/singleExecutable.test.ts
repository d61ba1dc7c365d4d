// The plugin users install: the single executable `make package` writes, run with a PATH that has
// no node on it (an empty directory), from a directory of its own, drives a Container through its
// lifecycle against the simulator over gRPC, as the engine would.
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { copyFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin } from "../grpc/engine";
import { EXE, SINGLE_EXECUTABLE, built, tempDir } from "./helpers";

const TYPE = "hosting:index:Container";
const PROJECT = ALICE.projects[0];

let sim: Simulator;
let plugin: Plugin;
let dir: string;
let emptyPath: string;

beforeAll(async () => {
  // A copy alone in a directory: nothing beside it to load.
  dir = tempDir("hosting-sea-");
  copyFileSync(built(SINGLE_EXECUTABLE, "package"), join(dir, EXE));
  emptyPath = tempDir("hosting-empty-path-");
  sim = await startSimulator({ port: 0 });
  plugin = await Plugin.start({
    command: join(dir, EXE),
    args: ["-v=9", "--logtostderr"],
    env: { PATH: emptyPath, HOME: dir },
  });
});

afterAll(async () => {
  await plugin?.stop();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyPath, { recursive: true, force: true });
});

test("it runs with no node on PATH, with its embedded second stage and code cache", async () => {
  expect(readdirSync(emptyPath)).toEqual([]);
  expect(readdirSync(dir)).toEqual([EXE]);
  expect(plugin.stdout).toMatch(/^\d+\n$/);
  await plugin.call("getPluginInfo", new Empty());
  // V8 took the cache made at build time (main.ts reports it at -v=9 with --logtostderr).
  expect(plugin.stderr).toMatch(/hosting: started in [\d.]+ ms after the port line \(code cache accepted\)/);
});

test("Configure, Check, Create, Read and Delete of a Container against the simulator", async () => {
  await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
  const { inputs, failures } = await plugin.check(TYPE, "web", {
    name: "web",
    image: "registry.example.com/team/web:1.0.0",
  });
  expect(failures).toEqual([]);
  const created = await plugin.create(TYPE, "web", inputs);
  expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(created.properties).toMatchObject({
    name: "web",
    image: "registry.example.com/team/web:1.0.0",
    status: "running",
  });
  expect(sim.control.snapshot().services.map((s) => s.id)).toContain(created.id);

  const read = await plugin.read(TYPE, "web", created.id, created.properties, inputs);
  expect(read.id).toBe(created.id);
  expect(read.properties).toMatchObject({ name: "web", status: "running" });

  await plugin.delete(TYPE, "web", created.id, read.properties, inputs);
  expect(sim.control.snapshot().services.map((s) => s.id)).not.toContain(created.id);
  const gone = await plugin.read(TYPE, "web", created.id, read.properties, inputs);
  expect(gone.id).toBe("");
});
