// Types of what scripts/bundles.mjs exports to TypeScript (the benchmarks).
import type { BuildOptions } from "esbuild";

export declare const common: BuildOptions;
export declare function command(entry: string, outfile: string, options?: BuildOptions): Promise<void>;
