// Typechecks programs against the generated SDK, strictly, as a user's program would be: the
// SDK is the source in sdk/nodejs (mapped with `paths`, no npm install needed).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(__dirname, "../..");

/** What tsc says about the programs (file name → source): empty when they all typecheck. */
export async function typecheckAgainstSdk(programs: Record<string, string>): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "hosting-sdk-typecheck-"));
  try {
    const files = Object.entries(programs).map(([name, source]) => {
      writeFileSync(join(work, name), `${source}\n`);
      return join(work, name);
    });
    const compilerOptions = {
      strict: true,
      noEmit: true,
      pretty: false,
      target: "ES2020",
      module: "commonjs",
      moduleResolution: "node",
      esModuleInterop: true,
      skipLibCheck: true,
      baseUrl: ROOT,
      paths: {
        "@hosting/pulumi": [join(ROOT, "sdk/nodejs/index.ts")],
        "@pulumi/pulumi": [join(ROOT, "node_modules/@pulumi/pulumi")],
      },
      typeRoots: [join(ROOT, "node_modules/@types")],
      types: ["node"],
    };
    writeFileSync(join(work, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const result = await promisify(execFile)(join(ROOT, "node_modules/.bin/tsc"), ["-p", join(work, "tsconfig.json")], {
      cwd: work,
    }).catch((e) => e);
    return `${result.stdout ?? ""}${result.stderr ?? ""}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
