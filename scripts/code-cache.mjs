// Makes the V8 code caches of the plugin's second and third stages (provider/src/startup.ts loads
// them): starts the built plugin with --code-cache-out, drives it through what the engine does
// first (plugin info, provider configuration, a Check and a Diff, all offline), and closes its
// stdin; on the way out it writes a code cache of every function compiled so far in each stage.
// A cache made this way, after the code ran, holds those functions' bytecode too, where one made
// by compiling alone (SEA's useCodeCache) holds only the top level.
//
// The cache belongs to the node binary that made it: run the plugin with the node (or be the
// single executable) that will run it in use. Another V8 rejects it, and the plugin then compiles
// as if there were none.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
// Default imports of these CommonJS modules: the same in Node's ESM loader (scripts/build.mjs) and in
// esbuild's CommonJS bundles of the benchmarks, which import this file too.
import grpc from "@grpc/grpc-js";
import provrpc from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import provproto from "@pulumi/pulumi/proto/provider_pb.js";
import emptyproto from "google-protobuf/google/protobuf/empty_pb.js";
import structproto from "google-protobuf/google/protobuf/struct_pb.js";

const { Empty } = emptyproto;
const { Struct } = structproto;

const CONTAINER = "hosting:index:Container";
const URN = `urn:pulumi:build::code-cache::${CONTAINER}::web`;
// A loopback address nothing listens on: none of these calls sends an API request.
const CONFIG = { baseUrl: "http://127.0.0.1:9", token: "code-cache", projectId: "00000000-0000-4000-8000-000000000000" };
const INPUTS = { name: "web", image: "registry.example.com/team/web:1.0.0" };

/**
 * `command args… --code-cache-out=<out> 127.0.0.1:1`, driven through GetPluginInfo, which the
 * second stage answers. With `providerCache` (where the plugin writes the third stage's cache,
 * beside `out`), then through the engine's first calls, which load and run the third stage; a
 * plugin with no third stage (the benchmarks' floor) is trained without it.
 */
export async function trainCodeCache(command, args, out, { providerCache } = {}) {
  const child = spawn(command, [...args, `--code-cache-out=${out}`, "127.0.0.1:1"], {
    // Closing its stdin tells it to write the cache and exit (a SIGTERM would too, but not on Windows).
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}) before printing its port: ${stderr}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = (method, request) =>
    new Promise((resolve, reject) => client[method](request, (err, response) => (err ? reject(err) : resolve(response))));
  // GetPluginInfo and Configure must answer (else a stage is broken, and the third stage's cache
  // would not be made). The others are there to compile what they run; one refused (the provider
  // changed what it accepts) costs a little speed, not the build, and is said.
  const tryCall = (method, request) =>
    call(method, request).catch((err) => {
      process.stderr.write(`code cache: ${method} failed while training (${err.details ?? err.message}); the cache lacks what it runs\n`);
      return undefined;
    });
  try {
    await call("getPluginInfo", new Empty());
    if (providerCache) await engineFirstCalls(call, tryCall);
  } finally {
    client.close();
    child.stdin.end();
  }
  const code = await exited;
  const written = (file) => existsSync(file) && statSync(file).size > 0;
  if (code !== 0 || !written(out)) throw new Error(`${command} wrote no code cache (exit ${code}): ${stderr}`);
  if (providerCache && !written(providerCache)) throw new Error(`${command} wrote no code cache of its third stage at ${providerCache}: ${stderr}`);
  return statSync(out).size;
}

/** What the engine sends a provider after GetPluginInfo: its configuration, then a Check and a Diff. */
async function engineFirstCalls(call, tryCall) {
  const checkConfig = new provproto.CheckRequest();
  checkConfig.setUrn("urn:pulumi:build::code-cache::pulumi:providers:hosting::default");
  checkConfig.setType("pulumi:providers:hosting");
  checkConfig.setNews(Struct.fromJavaScript(CONFIG));
  await tryCall("checkConfig", checkConfig);
  const configure = new provproto.ConfigureRequest();
  configure.setArgs(Struct.fromJavaScript(CONFIG));
  configure.setAcceptsecrets(true);
  configure.setAcceptresources(true);
  await call("configure", configure);
  const check = new provproto.CheckRequest();
  check.setUrn(URN);
  check.setType(CONTAINER);
  check.setName("web");
  check.setNews(Struct.fromJavaScript(INPUTS));
  const checked = await tryCall("check", check);
  if (checked) {
    const diff = new provproto.DiffRequest();
    diff.setUrn(URN);
    diff.setType(CONTAINER);
    diff.setName("web");
    diff.setId("0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00");
    diff.setOlds(checked.getInputs());
    diff.setNews(checked.getInputs());
    diff.setOldInputs(checked.getInputs());
    await tryCall("diff", diff);
  }
}
