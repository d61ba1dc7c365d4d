// Adding a resource to the simulator is its rules file and one entry in collections.ts: in a copy of
// simulator/, a throwaway collection (domains: a name routed to an app) in rules/domains.ts and its
// entry, nothing else. The copy typechecks (SimState has the new list), and the running simulator
// answers its routes, keeps it in the world, lets the admin API change and delete it out of band,
// and deletes it with the app it refers to (newCollection.probe.ts says what it saw).
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { KINDS } from "../../simulator/src/collections";

const ROOT = resolve(__dirname, "../..");
const run = promisify(execFile);

const DOMAINS = `// Custom domains routed to an app (a throwaway collection of the test).
import { randomUUID } from "node:crypto";
import { type Ctx, type Reply, type Route, PROJECT_PATH, created, noContent, ok } from "../context";
import { notFound } from "../errors";
import { requiredName, requiredString } from "../validate";
import { requireService } from "./services";

export interface SimDomain {
  id: string;
  project_id: string;
  name: string;
  container_id: string;
}

declare module "../types" {
  interface SimRecords {
    domains: SimDomain;
  }
}

function listDomains(ctx: Ctx): Reply {
  return ok({ domains: ctx.store.state.domains.filter((domain) => domain.project_id === ctx.params.projectId) });
}

function createDomain(ctx: Ctx): Reply {
  const fields = ctx.body();
  const name = requiredName(fields);
  const app = requireService(ctx.store, ctx.params.projectId, requiredString(fields, "container_id"), "container");
  const domain: SimDomain = { id: randomUUID(), project_id: ctx.params.projectId, name, container_id: app.id };
  ctx.store.state.domains.push(domain);
  return created(domain);
}

function deleteDomain(ctx: Ctx): Reply {
  const id = ctx.params.domainId;
  if (!ctx.store.state.domains.some((domain) => domain.id === id && domain.project_id === ctx.params.projectId)) {
    throw notFound(\`domain \${id}\`);
  }
  ctx.store.remove("domains", id);
  return noContent();
}

export const DOMAIN_ROUTES: readonly Route[] = [
  { method: "GET", pattern: \`\${PROJECT_PATH}/domains\`, doc: { answers: "200: \`{domains}\`" }, handler: listDomains },
  {
    method: "POST",
    pattern: \`\${PROJECT_PATH}/domains\`,
    body: ["name", "container_id"],
    doc: { answers: "201: the domain; 404 an app that is not there" },
    handler: createDomain,
  },
  { method: "DELETE", pattern: \`\${PROJECT_PATH}/domains/:domainId\`, doc: { answers: "204" }, handler: deleteDomain },
];
`;

const IMPORT = 'import { DOMAIN_ROUTES } from "./rules/domains";';
const ENTRY = '  domains: { routes: DOMAIN_ROUTES, references: { container_id: "services" } },';

let copy: string;
let report: any;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "hosting-new-collection-"));
  cpSync(join(ROOT, "simulator/src"), join(copy, "simulator/src"), { recursive: true });
  const probe = join(copy, "test/simulator/newCollection.probe.ts");
  cpSync(join(__dirname, "newCollection.probe.ts"), probe);
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  writeFileSync(join(copy, "simulator/src/rules/domains.ts"), DOMAINS);
  const table = join(copy, "simulator/src/collections.ts");
  const text = readFileSync(table, "utf8");
  writeFileSync(
    table,
    text.replace(/^import type \{ WorldRules \}/m, `${IMPORT}\n$&`).replace(/^};$/m, `${ENTRY}\n};`),
  );
  const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8"));
  const include = ["simulator/src", "test/simulator/newCollection.probe.ts"];
  const options = { ...compilerOptions, types: ["node"] };
  writeFileSync(join(copy, "tsconfig.json"), JSON.stringify({ compilerOptions: options, include }));
  const outfile = join(copy, "probe.cjs");
  await build({ entryPoints: [probe], bundle: true, platform: "node", format: "cjs", outfile, logLevel: "silent" });
  report = JSON.parse((await run(process.execPath, [outfile], { cwd: copy })).stdout);
}, 60_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

test("the copy differs from simulator/src by the new rules file and one entry in collections.ts", async () => {
  const table = (root: string) => join(root, "simulator/src/collections.ts");
  const diff = await run("diff", [table(ROOT), table(copy)]).catch((e) => e);
  expect(diff.stdout.split("\n").filter((line: string) => /^[<>]/.test(line))).toEqual([`> ${IMPORT}`, `> ${ENTRY}`]);
  const src = (root: string) => join(root, "simulator/src");
  const tree = await run("diff", ["-r", "-q", src(ROOT), src(copy)]).catch((e) => e);
  expect(tree.stdout.trim().split("\n").sort()).toEqual([
    `Files ${join(ROOT, "simulator/src/collections.ts")} and ${join(copy, "simulator/src/collections.ts")} differ`,
    `Only in ${join(copy, "simulator/src/rules")}: domains.ts`,
  ]);
});

test("the copy typechecks: SimState and the admin API's kinds have the new collection", async () => {
  const tsc = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: copy }).catch((e) => e);
  expect(`${tsc.stdout ?? ""}${tsc.stderr ?? ""}`).toBe("");
}, 120_000);

test("its routes answer, and a wrong method is 405 naming the allowed ones", () => {
  expect(report.created).toMatchObject({ status: 201, body: { name: "www", container_id: report.app } });
  expect(report.listed).toEqual({ status: 200, body: { domains: [report.created.body] } });
  expect(report.unknownField).toMatchObject({
    status: 400,
    body: { code: "VALIDATION_FAILED", message: "container: unknown field" },
  });
  expect(report.wrongMethod).toEqual({ status: 405, allow: "GET, POST" });
});

test("the world keeps it: an empty list from the start, the record after the create", () => {
  expect(report.emptyWorld).toEqual([]);
  expect(report.world).toEqual([report.created.body]);
});

test("the admin API changes it out of band, and refuses an unknown kind naming every collection", () => {
  expect(report.mutated).toEqual({ status: 204, name: "wwww" });
  const message = `unknown kind nope; one of ${[...KINDS, "domains"].join(", ")}`;
  expect(report.unknownKind).toMatchObject({ status: 404, body: { message } });
});

test("deleting the app it refers to deletes it too; its own DELETE works", () => {
  expect(report.afterAppDeleted).toEqual([]);
  expect(report.deleted).toEqual({ status: 204, left: [] });
});
