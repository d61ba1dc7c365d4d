// Every resource and function in schema.json carries an example in its description (each
// declaration's examples, written as programs by framework/examples.ts), and every example is a
// program that typechecks against the SDK, strictly: the docs never show code that does not build.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(__dirname, "../..");
const schema = require("../../schema.json");
const run = promisify(execFile);

/** The TypeScript programs in a description's examples section. */
const programsIn = (description: string) =>
  [...(description.match(/\{\{% examples %\}\}[\s\S]*\{\{% \/examples %\}\}/)?.[0] ?? "").matchAll(/```typescript\n([\s\S]*?)\n```/g)].map((m) => m[1]);

const documented: Array<[string, string]> = [
  ...Object.entries<any>(schema.resources).map(([token, r]): [string, string] => [token, r.description]),
  ...Object.entries<any>(schema.functions).map(([token, f]): [string, string] => [token, f.description]),
];

test.each(documented)("%s has an example", (_token, description) => {
  expect(programsIn(description).length).toBeGreaterThan(0);
});

test("resources also say how to import them", () => {
  for (const [token, resource] of Object.entries<any>(schema.resources)) {
    expect(resource.description).toContain(`pulumi import ${token} `);
  }
});

test("every example typechecks against the SDK", async () => {
  const work = mkdtempSync(join(tmpdir(), "hosting-doc-examples-"));
  try {
    const files = documented.flatMap(([token, description]) =>
      programsIn(description).map((program, i) => {
        const file = join(work, `${token.split(":")[2]}-${i}.ts`);
        writeFileSync(file, `${program}\n`);
        return file;
      }),
    );
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        pretty: false,
        target: "ES2020",
        module: "commonjs",
        moduleResolution: "node",
        esModuleInterop: true,
        skipLibCheck: true,
        baseUrl: ROOT,
        paths: { "@hosting/pulumi": [join(ROOT, "sdk/nodejs/index.ts")], "@pulumi/pulumi": [join(ROOT, "node_modules/@pulumi/pulumi")] },
        typeRoots: [join(ROOT, "node_modules/@types")],
        types: ["node"],
      },
      files,
    };
    writeFileSync(join(work, "tsconfig.json"), JSON.stringify(tsconfig));
    const result = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", join(work, "tsconfig.json")], { cwd: work }).catch((e) => e);
    expect(`${result.stdout ?? ""}${result.stderr ?? ""}`).toBe("");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}, 120_000);
