// Whether two Node.js SDKs declare the same types: ours (sdk/nodejs, `make sdk`) and the one the
// Pulumi CLI generates from the same schema.json (`pulumi package gen-sdk --language nodejs`).
// `make sdk-compare` runs it; the release workflow, which has the CLI, fails when they differ.
//
// Usage: node scripts/run-ts.mjs scripts/compare-sdk.ts <sdk-dir> <other-sdk-dir>
//
// Each SDK is compiled with its own tsconfig.json (or, without one, every .ts file in it) into
// declarations only, without comments: what a program written against it can use. The
// declarations (.d.ts, as tsc prints them) must be the same files, line for line; doc comments and
// the JavaScript may differ (docs/sdk.md lists where they do, and why).
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as ts from "typescript";

/** The SDK's declarations, by path relative to its output directory (`index.d.ts`, `types/input.d.ts`, …). */
export function declarationsOf(dir: string): Map<string, string> {
  const root = resolve(dir);
  const configPath = join(root, "tsconfig.json");
  let options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    types: [],
  };
  let fileNames = tsFilesUnder(root);
  if (existsSync(configPath)) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.error) throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
    options = parsed.options;
    fileNames = parsed.fileNames;
  }
  const outDir = join(root, "__declarations__");
  options = {
    ...options,
    outDir,
    declaration: true,
    emitDeclarationOnly: true,
    removeComments: true,
    declarationMap: false,
    sourceMap: false,
    noEmit: false,
  };
  const program = ts.createProgram(fileNames, options);
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
    throw new Error(`${dir} does not compile:\n${ts.formatDiagnostics(errors, host)}`);
  }
  const declarations = new Map<string, string>();
  program.emit(undefined, (fileName, text) => {
    if (fileName.endsWith(".d.ts")) declarations.set(relative(outDir, fileName).split("\\").join("/"), text);
  });
  return new Map([...declarations].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "bin") return [];
    const path = join(dir, entry.name);
    return entry.isDirectory()
      ? tsFilesUnder(path)
      : entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")
        ? [path]
        : [];
  });
}

/** Every way two sets of declarations differ, one line each (nothing when they are the same). */
export function differences(
  ours: Map<string, string>,
  theirs: Map<string, string>,
  names = ["ours", "theirs"],
): string[] {
  const found: string[] = [];
  for (const file of new Set([...ours.keys(), ...theirs.keys()])) {
    const a = ours.get(file);
    const b = theirs.get(file);
    if (a === undefined || b === undefined) {
      found.push(`${file}: only in ${a === undefined ? names[1] : names[0]}`);
      continue;
    }
    const linesA = a.split("\n");
    const linesB = b.split("\n");
    for (let i = 0; i < Math.max(linesA.length, linesB.length); i++) {
      if (linesA[i] === linesB[i]) continue;
      const indent = " ".repeat(file.length + String(i + 1).length + 3);
      found.push(
        `${file}:${i + 1}: ${names[0]}: ${linesA[i] ?? "(end of file)"}\n` +
          `${indent}${names[1]}: ${linesB[i] ?? "(end of file)"}`,
      );
      break; // the first differing line of a file; the rest usually follows from it
    }
  }
  return found;
}

function main() {
  const [ours, theirs] = process.argv.slice(2);
  if (!ours || !theirs) {
    console.error("usage: compare-sdk.ts <sdk-dir> <other-sdk-dir>");
    process.exit(2);
  }
  const found = differences(declarationsOf(ours), declarationsOf(theirs), [ours, theirs]);
  if (found.length > 0) {
    console.error(`The declared types of ${ours} and ${theirs} differ (${found.length} files):\n${found.join("\n")}`);
    process.exit(1);
  }
  console.log(`${ours} and ${theirs} declare the same types`);
}

if (require.main === module || process.argv[1]?.endsWith("compare-sdk.ts")) main();
