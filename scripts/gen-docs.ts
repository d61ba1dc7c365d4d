// `make docs`: writes docs/reference/ (the API reference, one page per resource and function)
// from schema.json, and the generated sections of README.md, docs/functions.md and
// docs/simulator.md from schema.json and the simulator's tables; scripts/reference-docs.ts and
// scripts/doc-sections.ts say what each holds.
//
// Usage: node scripts/run-ts.mjs scripts/gen-docs.ts [schema.json] [out-dir] [pages-root]
//
// The directory's pages are all generated: a page the generator no longer writes (a resource
// removed) is deleted; anything but .md files is left alone. The hand-written pages under
// pages-root (default: here) keep everything outside their generated sections.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PackageSpec } from "../provider/src/framework/packageSchema";
import { KINDS } from "../simulator/src/collections";
import { ROUTES } from "../simulator/src/routes";
import { docSections, withSections } from "./doc-sections";
import { referenceDocs } from "./reference-docs";

const [schemaPath = "schema.json", outDir = "docs/reference", pagesRoot = "."] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(resolve(schemaPath), "utf8")) as PackageSpec;
const pages = referenceDocs(pkg);
const root = resolve(outDir);
mkdirSync(root, { recursive: true });
for (const file of readdirSync(root)) if (file.endsWith(".md") && !pages.has(file)) rmSync(join(root, file));
for (const [file, text] of pages) writeFileSync(join(root, file), text);

const sections = docSections(pkg, { routes: ROUTES, kinds: KINDS });
for (const [page, bySection] of Object.entries(sections)) {
  const path = join(resolve(pagesRoot), page);
  const text = readFileSync(path, "utf8");
  const fresh = withSections(page, text, bySection);
  if (fresh !== text) writeFileSync(path, fresh);
}
console.log(
  `wrote ${pages.size} pages to ${outDir}, and the generated sections of ${Object.keys(sections).join(", ")}`,
);
