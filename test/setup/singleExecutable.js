// jest.config.js's "single executable" project: test/grpc/engine.ts starts this plugin.
const { existsSync } = require("node:fs");
const { resolve } = require("node:path");

const executable = resolve(
  __dirname,
  "../..",
  process.platform === "win32" ? "dist/pulumi-resource-hosting.exe" : "dist/pulumi-resource-hosting",
);
if (!existsSync(executable)) {
  throw new Error(`${executable} is missing: run make package (make test builds it before the tests)`);
}
process.env.HOSTING_PLUGIN = executable;
