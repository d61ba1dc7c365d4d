// The generated SDK, as the SDK tests load it: from its TypeScript sources (ts-jest compiles them).
// It is the code Pulumi's generator writes, for the SDK's own tsconfig, not for this project's
// stricter flags (isolatedModules, noImplicitOverride), so it is required rather than imported:
// its sources stay out of `make typecheck`; compile.test.ts typechecks them with their tsconfig,
// and typecheck.ts programs against them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const hosting: any = require("../../sdk/nodejs/index");
