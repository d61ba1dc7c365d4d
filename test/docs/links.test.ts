// Every link in the pages users read (README.md, docs/, the examples' READMEs, the SDK's README)
// points to something that exists in this repository: a relative link to a file or folder of the
// repository (never outside it, as ../shared was), and a #heading to a heading of that page. The
// SDK's README links absolutely, into this repository at its release tag: those paths must exist.
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, anchorsOf, linkTargets, read, userPages } from "./markdown";

const REPOSITORY: string = require("../../schema.json").repository;
const pages = [...userPages(), "simulator/README.md"];

/** Why a link of `page` to `target` is broken, or undefined when it is not. */
function broken(page: string, target: string): string | undefined {
  let [path, anchor] = target.split("#") as [string, string | undefined];
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    const inRepository = new RegExp(
      `^${REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(?:blob|tree)/[^/]+/(.+)$`,
    ).exec(path);
    if (!inRepository) return undefined; // another site: not checked (no network here)
    path = relative(dirname(join(ROOT, page)), join(ROOT, inRepository[1]));
  }
  const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith("..")) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor && statSync(file).isFile() && file.endsWith(".md") && !anchorsOf(read(relative(ROOT, file))).has(anchor))
    return `${target}: no such heading`;
  return undefined;
}

test(
  "the pages users read are the README, docs/ (with the generated reference), " + "the examples' READMEs and the SDK's",
  () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/_index.md",
        "docs/reference/_index.md",
        "examples/volume/README.md",
        "sdk/nodejs/README.md",
      ]),
    );
  },
);

test.each(pages)("every link in %s points to a file and heading that exist in the repository", (page) => {
  const problems = linkTargets(read(page))
    .map((target) => broken(page, target))
    .filter(Boolean);
  expect(problems).toEqual([]);
});

test("no page users read sends them to ../shared, which a clone does not have", () => {
  expect(userPages().filter((page) => /\.\.\/shared|\bshared\/(?:DESIGN|reference|000_)/.test(read(page)))).toEqual([]);
});

test("the checker does catch a missing file, a missing heading and a link out of the repository", () => {
  expect(broken("README.md", "docs/no-such-page.md")).toBe("docs/no-such-page.md: no such file");
  expect(broken("README.md", "docs/troubleshooting.md#no-such-heading")).toBe(
    "docs/troubleshooting.md#no-such-heading: no such heading",
  );
  expect(broken("docs/CONTRACTS.md", "../../shared/DESIGN.md")).toBe("../../shared/DESIGN.md: outside the repository");
  expect(broken("README.md", "#no-such-section")).toBe("#no-such-section: no such heading");
  expect(broken("README.md", "#api-assumptions")).toBeUndefined();
  expect(broken("sdk/nodejs/README.md", `${REPOSITORY}/blob/v0.1.0/docs/reference/nothing.md`)).toMatch(
    /: no such file$/,
  );
  expect(broken("README.md", "https://www.pulumi.com/docs/install/")).toBeUndefined();
});
