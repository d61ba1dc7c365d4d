// Types of what scripts/floor.mjs exports to TypeScript (the benchmarks).
export declare function buildFloorPlugins(dir: string): Promise<{ floor: string; firstStage: string }>;
