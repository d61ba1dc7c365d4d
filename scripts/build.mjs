// Bundles the plugin and the simulator CLI into single files that need only Node.js >= 20.
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

await build({
  ...common,
  entryPoints: ["provider/src/main.ts"],
  outfile: "bin/pulumi-resource-hosting",
  banner: { js: "#!/usr/bin/env node" },
});
chmodSync("bin/pulumi-resource-hosting", 0o755);

await build({
  ...common,
  entryPoints: ["simulator/src/cli.ts"],
  outfile: "dist/simulator.js",
  banner: { js: "#!/usr/bin/env node" },
});
