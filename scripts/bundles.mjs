// The project's bundles (esbuild). The plugin's, shared by the Node.js-script plugin
// (scripts/build.mjs → bin/) and the single executable (scripts/package.mjs → dist/):
//   first stage   provider/src/main.ts: listens, prints the port; Node's built-ins only
//   second stage  provider/src/server/start.ts: gRPC and the codec (protobufjs), loaded after the
//                 port line (provider/src/startup.ts); answers Handshake and GetPluginInfo
//   third stage   provider/src/server/provider.ts: the provider and the API client, loaded after
//                 the first answer; it takes grpc-js and protobufjs from the second stage
//   undici        the HTTP client library, loaded on the first API request (provider/src/api/http.ts)
// and `command`, a Node.js script of one file (the simulator, hosting-export, a benchmark's plugin).
import { build } from "esbuild";
import { isAscii } from "node:buffer";
import { chmodSync, readFileSync } from "node:fs";

// The stages' file names, as provider/src/startup.ts names them (SERVER, PROVIDER).
export const SERVER_FILE = "pulumi-resource-hosting.server.js";
export const SERVER_CACHE_FILE = "pulumi-resource-hosting.server.cache";
export const PROVIDER_FILE = "pulumi-resource-hosting.provider.js";
export const PROVIDER_CACHE_FILE = "pulumi-resource-hosting.provider.cache";
export const UNDICI_FILE = "pulumi-resource-hosting.undici.js";

/**
 * What the third stage takes from the second instead of bundling its own copy: the same names as
 * `SHARED_WITH_PROVIDER` in provider/src/server/start.ts, which gives them (one copy of each:
 * grpc-js checks its own classes). The third stage's `require` refuses any other package
 * (provider/src/startup.ts), so a name missing from either list fails every test that starts the
 * plugin.
 */
export const SHARED_WITH_PROVIDER = ["@grpc/grpc-js", "protobufjs/minimal"];

/** What every bundle of this project is: CommonJS for Node.js 20. */
export const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  logLevel: "warning",
  legalComments: "none",
};

/** A runnable script of one file (`#!/usr/bin/env node`); `options` are esbuild's, over the common ones. */
export async function command(entry, outfile, options = {}) {
  await build({
    ...common,
    entryPoints: [entry],
    outfile,
    sourcemap: "linked",
    banner: { js: "#!/usr/bin/env node" },
    ...options,
  });
  chmodSync(outfile, 0o755);
}

/** One of the plugin's stages, with its source map beside it if asked. */
const stage = (entry, outfile, sourcemap, options) =>
  build({ ...common, entryPoints: [entry], outfile, sourcemap: sourcemap ? "linked" : false, ...options });

/** An import that, in the build, is another of the plugin's files (a require of it, beside this one). */
const besideThisFile = (filter, file) => ({
  name: `beside:${file}`,
  setup(b) {
    b.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
  },
});

/** The first stage. `shebang`: an executable script run by the node on PATH (bin/); without: the SEA's main script. */
export async function bundleFirstStage(outfile, { shebang, sourcemap = false }) {
  await stage("provider/src/main.ts", outfile, sourcemap, shebang ? { banner: { js: "#!/usr/bin/env node" } } : {});
  if (shebang) chmodSync(outfile, 0o755);
}

/** A stage minified for a quick load: smaller source is read and checked against the code cache faster. */
async function loadedStage(entry, outfile, sourcemap, options) {
  const result = await stage(entry, outfile, sourcemap, {
    ...options,
    // Names are kept for errors and stack traces.
    minify: true,
    keepNames: true,
    // ASCII (esbuild's default, said here because provider/src/startup.ts relies on it): the plugin
    // reads the file as latin1, which is quicker than decoding UTF-8.
    charset: "ascii",
  });
  if (!isAscii(readFileSync(outfile))) throw new Error(`${outfile} is not ASCII`);
  return result;
}

/**
 * The second stage. `entry`: another second stage with the same exports (the benchmarks' floor, bench/floor/start.ts).
 */
export async function bundleSecondStage(outfile, { sourcemap = false, entry = "provider/src/server/start.ts" } = {}) {
  await loadedStage(entry, outfile, sourcemap, {});
}

/**
 * The third stage, with grpc-js and protobufjs left to the second (`SHARED_WITH_PROVIDER`). `undici:
 * "beside"` leaves undici a file of its own next to it (bin/: a preview never reads it); `"inline"`
 * bundles it in, still initialised only on the first API request (esbuild wraps a module that is
 * require()d in a lazy initialiser), for the single executable, whose embedded scripts cannot
 * require files.
 */
export async function bundleThirdStage(outfile, { undici, sourcemap = false }) {
  const { metafile } = await loadedStage("provider/src/server/provider.ts", outfile, sourcemap, {
    external: SHARED_WITH_PROVIDER,
    plugins: undici === "beside" ? [besideThisFile(/^undici$/, UNDICI_FILE)] : [],
    metafile: true,
  });
  // A second copy of what must be shared (imported under another name, `protobufjs/src/writer` say)
  // would load beside the first without any error; and the Pulumi stubs and google-protobuf have
  // no place in the plugin (codec.ts reads and writes every message).
  const copies = Object.keys(metafile.inputs).filter((input) =>
    /node_modules\/(@grpc|google-protobuf|@pulumi|protobufjs|@protobufjs)\//.test(input),
  );
  if (copies.length > 0)
    throw new Error(
      `${outfile} bundles its own copy of ${copies.join(", ")}: import them as SHARED_WITH_PROVIDER names them`,
    );
}

export async function bundleUndici(outfile, { sourcemap = false } = {}) {
  await build({
    ...common,
    stdin: { contents: 'module.exports = require("undici");', resolveDir: ".", loader: "js" },
    outfile,
    sourcemap: sourcemap ? "linked" : false,
    minify: true,
    keepNames: true,
  });
}
