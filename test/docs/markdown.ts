// What the documentation tests read from markdown: the pages users read, their links, headings
// and code. Regular expressions are enough for the markdown this repository writes.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(__dirname, "../..");

/**
 * README.md and the pages beside it (changelog, contributing, security), every page under docs/ and
 * every example's README, relative to the root.
 */
export function userPages(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? docs(join(dir, entry.name)) : entry.name.endsWith(".md") ? [join(dir, entry.name)] : [],
    );
  const examples = readdirSync(join(ROOT, "examples"))
    .map((name) => join("examples", name, "README.md"))
    .filter((path) => existsSync(join(ROOT, path)));
  const beside = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md"];
  return [...beside, ...docs("docs"), ...examples, "sdk/nodejs/README.md"].sort();
}

export const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The pages whose `typescript` blocks are complete programs: the README and docs/*.md, relative to the root. */
export const programPages = (): string[] => [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Every complete program the README and docs/ show (a fenced block marked `typescript`), named by page and order. */
export const docPrograms = (): Array<{ name: string; code: string }> =>
  programPages().flatMap((page) =>
    codeBlocks(read(page), "typescript").map((code, i) => ({ name: `${page} program ${i + 1}`, code })),
  );

/** The text without its fenced code blocks. */
export const withoutFences = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");

/** The text without fenced code blocks and inline code, where a `[x](y)` is not a link. */
export const withoutCode = (text: string) => withoutFences(text).replace(/`[^`\n]*`/g, "");

/** The targets of the page's markdown links and images. */
export function linkTargets(text: string): string[] {
  return [...withoutCode(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces to dashes. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings (outside code), with GitHub's -1, -2 for repeats. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutFences(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = anchorOf(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The fenced code blocks whose info string is `language`, in order. */
export function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}[ \\t]*\\n([\\s\\S]*?)^\`\`\`[ \\t]*$`, "gm"))].map(
    (m) => m[1],
  );
}
