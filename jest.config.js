// Three projects, one run (so one report counts everything):
// - "node script": every test; the gRPC tests start bin/pulumi-resource-hosting (`make build`), or
//   the plugin HOSTING_PLUGIN names.
// - "single executable": the gRPC tests again, against dist/pulumi-resource-hosting (`make package`),
//   so that the plugin users install behaves as the one we develop. Left out when HOSTING_PLUGIN
//   points the suite at one plugin: `HOSTING_PLUGIN=/abs/path npx jest test/grpc`.
const common = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
};

// - "e2e": test/e2e, under the real Pulumi CLI (test/e2e/harness.ts). A program and the Automation API must
//   share one @pulumi/pulumi, and the SDK is its TypeScript sources.
const e2e = {
  ...common,
  displayName: "e2e",
  testEnvironment: "<rootDir>/test/e2e/environment.js",
  roots: ["<rootDir>/test/e2e"],
  testMatch: ["**/*.test.ts"],
  moduleNameMapper: {
    "^@hosting/pulumi$": "<rootDir>/sdk/nodejs/index.ts",
    "^@pulumi/pulumi$": "<rootDir>/node_modules/@pulumi/pulumi",
    "^@pulumi/pulumi/(.*)$": "<rootDir>/node_modules/@pulumi/pulumi/$1",
  },
};

/** @type {import('jest').Config} */
module.exports = {
  // The one time limit of every test and hook: it only turns a hang into a failure. Nothing here measures
  // speed, so it is many times what the slowest work takes on a loaded machine (tsc over the SDK, a run of
  // `pulumi up`s: 3 to 5 times slower with every core busy, docs/testing.md "Under load"). No file sets a
  // lower one: a limit a quiet machine meets and a busy one misses fails correct runs.
  testTimeout: 15 * 60_000,
  maxWorkers: 2,
  // How long a worker has to exit once the run is over before jest kills it and warns "A worker process
  // has failed to exit gracefully". Jest's default, 500 ms, is a guess that a loaded machine breaks:
  // workers that leak nothing got that warning (jestjs/jest#11354). A real leak still shows, 10 s later.
  workerGracefulExitTimeout: 10_000,
  projects: [
    {
      ...common,
      displayName: "node script",
      roots: ["<rootDir>/test"],
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
    },
    e2e,
    ...(process.env.HOSTING_PLUGIN
      ? []
      : [
          {
            ...common,
            displayName: "single executable",
            roots: ["<rootDir>/test/grpc"],
            testMatch: ["**/*.test.ts"],
            setupFiles: ["<rootDir>/test/setup/singleExecutable.js"],
          },
        ]),
  ],
};
