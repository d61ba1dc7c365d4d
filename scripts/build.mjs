// `make build`: the plugin for development, a Node.js script in bin/ that needs Node.js >= 20.18.1
// (`make package` makes the single executable users install; see scripts/package.mjs), the
// simulator CLI (dist/simulator.js) and the command that writes a `pulumi import --file` file for
// an existing project (dist/hosting-export.js), each one file. The plugin is six files, kept side by
// side (`make install` copies them all):
//   bin/pulumi-resource-hosting                the executable: listens, prints the port (built-ins only)
//   bin/pulumi-resource-hosting.server.js      gRPC and the Pulumi stubs; loaded after the port line
//   bin/pulumi-resource-hosting.provider.js    the provider and the API client; loaded after the first answer
//   bin/pulumi-resource-hosting.*.cache        their V8 code caches, for the node that ran this build
//   bin/pulumi-resource-hosting.undici.js      the HTTP client library, loaded on the first API request
import { rmSync } from "node:fs";
import {
  PROVIDER_CACHE_FILE,
  PROVIDER_FILE,
  SERVER_CACHE_FILE,
  SERVER_FILE,
  UNDICI_FILE,
  bundleFirstStage,
  bundleSecondStage,
  bundleThirdStage,
  bundleUndici,
  command,
} from "./bundles.mjs";
import { trainCodeCache } from "./code-cache.mjs";

const PLUGIN = "bin/pulumi-resource-hosting";

await bundleFirstStage(PLUGIN, { shebang: true, sourcemap: true });
await bundleSecondStage(`bin/${SERVER_FILE}`, { sourcemap: true });
await bundleThirdStage(`bin/${PROVIDER_FILE}`, { undici: "beside", sourcemap: true });
await bundleUndici(`bin/${UNDICI_FILE}`, { sourcemap: true });

// The code caches, made by this node (the plugin run by another node compiles as before); the
// training run writes the third stage's beside the second's.
rmSync(`bin/${SERVER_CACHE_FILE}`, { force: true });
rmSync(`bin/${PROVIDER_CACHE_FILE}`, { force: true });
await trainCodeCache(process.execPath, [PLUGIN], `bin/${SERVER_CACHE_FILE}`, {
  providerCache: `bin/${PROVIDER_CACHE_FILE}`,
});

await command("simulator/src/cli.ts", "dist/simulator.js");
await command("provider/src/export/main.ts", "dist/hosting-export.js");
