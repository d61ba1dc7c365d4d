// Makes the V8 code caches of the plugin's second and third stages (provider/src/startup.ts loads
// them): starts the built plugin with --code-cache-out, drives it through what the engine does
// first (handshake, plugin info, provider configuration) and then through a preview of every kind
// (a Check and a Diff of every example of every resource, unchanged and changed, all offline: the
// mix of scripts/preview-mix.ts), and closes its stdin; on the way out it writes a code cache of
// every function compiled so far in each stage. A cache made this way, after the code ran, holds
// those functions' bytecode too, where one made by compiling alone (SEA's useCodeCache) holds only
// the top level: the first preview then runs Check and Diff of every kind, their validators and
// the codec without compiling them first.
//
// The cache belongs to the node binary that made it: run the plugin with the node (or be the
// single executable) that will run it in use. Another V8 rejects it, and the plugin then compiles
// as if there were none.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
// Default imports of these CommonJS modules: the same in Node's ESM loader (scripts/build.mjs) and in
// esbuild's CommonJS bundles of the benchmarks, which import this file too.
import grpc from "@grpc/grpc-js";
import provrpc from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import provproto from "@pulumi/pulumi/proto/provider_pb.js";
import emptyproto from "google-protobuf/google/protobuf/empty_pb.js";
import structproto from "google-protobuf/google/protobuf/struct_pb.js";
import { build } from "esbuild";
import { common } from "./bundles.mjs";

const { Empty } = emptyproto;
const { Struct } = structproto;

// A loopback address nothing listens on: none of these calls sends an API request.
const CONFIG = {
  baseUrl: "http://127.0.0.1:9",
  token: "code-cache",
  projectId: "00000000-0000-4000-8000-000000000000",
};

/**
 * `command args… --code-cache-out=<out> 127.0.0.1:1`, driven through GetPluginInfo (after
 * Handshake, for the plugin), which the second stage answers. With `providerCache` (where the
 * plugin writes the third stage's cache, beside `out`), then through the engine's first calls,
 * which load and run the third stage; a plugin with no third stage (the benchmarks' floor) is
 * trained without it.
 */
export async function trainCodeCache(command, args, out, { providerCache } = {}) {
  const mix = providerCache ? await previewMix() : [];
  const child = spawn(command, [...args, `--code-cache-out=${out}`, "127.0.0.1:1"], {
    // Closing its stdin tells it to write the cache and exit (a SIGTERM would too, but not on Windows).
    stdio: ["pipe", "pipe", "pipe"],
    // No engine answers at 127.0.0.1:1: the plugin's first check that it is still there (after 5 s) would end it.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOSTING_ENGINE_CHECK_SECONDS: "86400" },
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
    new Promise((resolve, reject) =>
      client[method](request, (err, response) => (err ? reject(err) : resolve(response))),
    );
  // GetPluginInfo and Configure must answer (else a stage is broken, and the third stage's cache
  // would not be made). The others are there to compile what they run; one refused (the provider
  // changed what it accepts) costs a little speed, not the build, and is said.
  const tryCall = (method, request) =>
    call(method, request).catch((err) => {
      process.stderr.write(
        `code cache: ${method} failed while training (${err.details ?? err.message}); the cache lacks what it runs\n`,
      );
      return undefined;
    });
  try {
    // The engine's first call; the benchmarks' floor answers it UNIMPLEMENTED, as older plugins do.
    if (providerCache) await call("handshake", handshakeRequest());
    await call("getPluginInfo", new Empty());
    if (providerCache) {
      await engineFirstCalls(call, tryCall);
      for (const resource of mix) await checkAndDiff(tryCall, resource);
    }
  } finally {
    client.close();
    child.stdin.end();
  }
  const code = await exited;
  const written = (file) => existsSync(file) && statSync(file).size > 0;
  if (code !== 0 || !written(out)) throw new Error(`${command} wrote no code cache (exit ${code}): ${stderr}`);
  if (providerCache && !written(providerCache))
    throw new Error(`${command} wrote no code cache of its third stage at ${providerCache}: ${stderr}`);
  return statSync(out).size;
}

/**
 * The mix of every kind (scripts/preview-mix.ts), read from the declarations: the TypeScript
 * bundled in memory (its dependencies from node_modules), as scripts/run-ts.mjs runs it.
 */
export async function previewMix() {
  const entry = "scripts/preview-mix.ts";
  const bundled = await build({ ...common, entryPoints: [entry], packages: "external", write: false });
  const module = { exports: {} };
  const require = createRequire(`${process.cwd()}/${entry}`);
  new Function("module", "exports", "require", bundled.outputFiles[0].text)(module, module.exports, require);
  return module.exports.previewMix();
}

/** What the engine sends a provider after GetPluginInfo: its configuration. */
/** Handshake as the engine sends it (pulumi/pulumi `provider_plugin.go`). */
function handshakeRequest() {
  const request = new provproto.ProviderHandshakeRequest();
  request.setEngineAddress("127.0.0.1:1");
  request.setRootDirectory(process.cwd());
  request.setProgramDirectory(process.cwd());
  request.setConfigureWithUrn(true);
  request.setSupportsViews(true);
  request.setSupportsRefreshBeforeUpdate(true);
  request.setInvokeWithPreview(true);
  return request;
}

async function engineFirstCalls(call, tryCall) {
  const checkConfig = new provproto.CheckRequest();
  checkConfig.setUrn("urn:pulumi:build::code-cache::pulumi:providers:hosting::default");
  checkConfig.setType("pulumi:providers:hosting");
  checkConfig.setNews(Struct.fromJavaScript(CONFIG));
  await tryCall("checkConfig", checkConfig);
  // As the engine sends it after Handshake (provider_plugin.go `Configure`): the provider's URN, and every capability.
  const configure = new provproto.ConfigureRequest();
  configure.setUrn("urn:pulumi:build::code-cache::pulumi:providers:hosting::default");
  configure.setName("default");
  configure.setType("pulumi:providers:hosting");
  configure.setArgs(Struct.fromJavaScript(CONFIG));
  configure.setAcceptsecrets(true);
  configure.setAcceptresources(true);
  configure.setSendsOldInputs(true);
  configure.setSendsOldInputsToDelete(true);
  await call("configure", configure);
}

const ID = "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00";

/**
 * What a preview sends for one resource: its Check (a new one, then one changed from its olds)
 * and its Diff (unchanged, then changed).
 */
async function checkAndDiff(tryCall, { type, name, inputs, changed }) {
  const addressed = (request) => {
    request.setUrn(`urn:pulumi:build::code-cache::${type}::${name}`);
    request.setType(type);
    request.setName(name);
    return request;
  };
  const check = (news, olds) => {
    const request = addressed(new provproto.CheckRequest());
    request.setNews(Struct.fromJavaScript(news));
    if (olds) request.setOlds(olds);
    return tryCall("check", request);
  };
  const created = await check(inputs);
  if (!created) return;
  const updated = await check(changed, created.getInputs());
  const diff = (olds, news) => {
    const request = addressed(new provproto.DiffRequest());
    request.setId(ID);
    request.setOlds(olds);
    request.setNews(news);
    request.setOldInputs(olds);
    return tryCall("diff", request);
  };
  await diff(created.getInputs(), created.getInputs());
  if (updated) await diff(created.getInputs(), updated.getInputs());
}
