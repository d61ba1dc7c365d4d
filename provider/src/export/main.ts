// The `hosting-export` executable (bundled to dist/hosting-export.js by scripts/build.mjs).
import { run } from "./cli";

run(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (err: Error) => {
    process.stderr.write(`hosting-export: ${err.message}\n`);
    process.exitCode = 1;
  },
);
