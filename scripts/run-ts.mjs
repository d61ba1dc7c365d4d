// Runs a TypeScript entry point: bundles it with esbuild into dist/run/ (dependencies stay
// external and resolve from node_modules) and executes it with the remaining arguments.
// Used by `make schema`, `make sdk`, the benchmarks and the soak.
import { build } from "esbuild";
import { basename, resolve } from "node:path";
import { createRequire } from "node:module";
import { common } from "./bundles.mjs";

const [entry, ...args] = process.argv.slice(2);
const outfile = resolve("dist/run", basename(entry).replace(/\.ts$/, ".cjs"));
await build({ ...common, entryPoints: [resolve(entry)], outfile, packages: "external", sourcemap: "inline" });
process.argv = [process.argv[0], resolve(entry), ...args];
createRequire(import.meta.url)(outfile);
