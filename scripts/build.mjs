// Bundles the plugin and the simulator CLI into files that need only Node.js >= 20.
//
// The plugin is three files, so that each moment parses only what it needs:
//   bin/pulumi-resource-hosting            the executable: listens, prints the port (built-ins only;
//                                          see provider/src/main.ts)
//   bin/pulumi-resource-hosting.server.js  gRPC, the provider, the API client; loaded after the port line
//   bin/pulumi-resource-hosting.undici.js  the HTTP client library, loaded on the first API request
//                                          (provider/src/api/http.ts): a preview never needs it
// Keep them side by side (`make install` copies them all).
//
// Beside the plugin: dist/simulator.js (the API simulator) and dist/hosting-export.js (the
// command that writes a `pulumi import --file` file for an existing project), each one file.
import { build } from "esbuild";
import { chmodSync } from "node:fs";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  logLevel: "warning",
  legalComments: "none",
};

const SERVER_FILE = "pulumi-resource-hosting.server.js";
const UNDICI_FILE = "pulumi-resource-hosting.undici.js";

/** An import that, in the build, is another of the plugin's files (a require of it, beside this one). */
const besideThisFile = (filter, file) => ({
  name: `beside:${file}`,
  setup(b) {
    b.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
  },
});

await build({
  ...common,
  entryPoints: ["provider/src/main.ts"],
  outfile: "bin/pulumi-resource-hosting",
  banner: { js: "#!/usr/bin/env node" },
  plugins: [besideThisFile(/^\.\/server\/start$/, SERVER_FILE)],
});
chmodSync("bin/pulumi-resource-hosting", 0o755);

await build({
  ...common,
  entryPoints: ["provider/src/server/start.ts"],
  outfile: `bin/${SERVER_FILE}`,
  plugins: [besideThisFile(/^undici$/, UNDICI_FILE)],
  // Smaller source parses faster on the first call; names are kept for errors and stack traces.
  minify: true,
  keepNames: true,
});

await build({
  ...common,
  stdin: { contents: 'module.exports = require("undici");', resolveDir: ".", loader: "js" },
  outfile: `bin/${UNDICI_FILE}`,
  minify: true,
  keepNames: true,
});

await build({
  ...common,
  entryPoints: ["simulator/src/cli.ts"],
  outfile: "dist/simulator.js",
  banner: { js: "#!/usr/bin/env node" },
});

await build({
  ...common,
  entryPoints: ["provider/src/export/main.ts"],
  outfile: "dist/hosting-export.js",
  banner: { js: "#!/usr/bin/env node" },
});
chmodSync("dist/hosting-export.js", 0o755);
