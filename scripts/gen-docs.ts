// `make docs`: writes docs/reference/ (the API reference, one page per resource and function)
// from schema.json; scripts/reference-docs.ts says what each page holds.
//
// Usage: node scripts/run-ts.mjs scripts/gen-docs.ts [schema.json] [out-dir]
//
// The directory's pages are all generated: a page the generator no longer writes (a resource
// removed) is deleted; anything but .md files is left alone.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PackageSpec } from "../provider/src/framework/packageSchema";
import { referenceDocs } from "./reference-docs";

const [schemaPath = "schema.json", outDir = "docs/reference"] = process.argv.slice(2);
const pages = referenceDocs(JSON.parse(readFileSync(resolve(schemaPath), "utf8")) as PackageSpec);
const root = resolve(outDir);
mkdirSync(root, { recursive: true });
for (const file of readdirSync(root)) if (file.endsWith(".md") && !pages.has(file)) rmSync(join(root, file));
for (const [file, text] of pages) writeFileSync(join(root, file), text);
console.log(`wrote ${pages.size} pages to ${outDir}`);
