// The project's bundles (esbuild). The plugin's, shared by the Node.js-script plugin
// (scripts/build.mjs → bin/) and the single executable (scripts/package.mjs → dist/):
//   first stage   provider/src/main.ts: listens, prints the port; Node's built-ins only
//   second stage  provider/src/server/start.ts: gRPC, the provider, the API client, loaded after
//                 the port line (provider/src/startup.ts)
//   undici        the HTTP client library, loaded on the first API request (provider/src/api/http.ts)
// and `command`, a Node.js script of one file (the simulator, hosting-export, a benchmark's plugin).
import { build } from "esbuild";
import { chmodSync, readFileSync } from "node:fs";

export const SERVER_FILE = "pulumi-resource-hosting.server.js";
export const SERVER_CACHE_FILE = "pulumi-resource-hosting.server.cache";
export const UNDICI_FILE = "pulumi-resource-hosting.undici.js";

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
  await build({ ...common, entryPoints: [entry], outfile, sourcemap: "linked", banner: { js: "#!/usr/bin/env node" }, ...options });
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

/**
 * The second stage. `undici: "beside"` leaves undici a file of its own next to it (bin/: a preview
 * never reads it); `"inline"` bundles it in, still initialised only on the first API request
 * (esbuild wraps a module that is require()d in a lazy initialiser), for the single executable,
 * whose embedded script cannot require files. `entry`: another second stage with the same exports
 * (the benchmarks' floor, bench/floor/start.ts).
 */
export async function bundleSecondStage(outfile, { undici, sourcemap = false, entry = "provider/src/server/start.ts" }) {
  await stage(entry, outfile, sourcemap, {
    plugins: undici === "beside" ? [besideThisFile(/^undici$/, UNDICI_FILE)] : [],
    // Smaller source is read and checked against the code cache faster; names are kept for
    // errors and stack traces.
    minify: true,
    keepNames: true,
    // ASCII (esbuild's default, said here because provider/src/startup.ts relies on it): the plugin
    // reads the file as latin1, which is quicker than decoding UTF-8.
    charset: "ascii",
  });
  if (/[^\x00-\x7f]/.test(readFileSync(outfile, "latin1"))) throw new Error(`${outfile} is not ASCII`);
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
