// Adding a resource touches one file: in a copy of the repository, a throwaway tenth declaration
// (Domain: a name, an app's id, replaced when the name changes) in provider/src/resources/domain.ts
// and its line in resources/index.ts, nothing else. The copy typechecks, and the schema, the API
// client, the lookups and hosting-export all find the new resource (newResource.probe.ts).
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(__dirname, "../..");
const run = promisify(execFile);
/** Builds (generators, tsc over a copy) are CPU-bound: minutes on a loaded 2-core machine; this catches a hang. */
const BUILDS_MS = 600_000;

const DOMAIN = `// hosting:index:Domain — a custom domain routed to an app.
import { z } from "zod";
import type { Collection } from "../api/client";
import { listOf, record, text } from "../api/wire";
import { referenceTo } from "../framework/declare";
import type { FlagsOf } from "../framework/spec";
import { uuid } from "../framework/validators";
import { defined, ignoringNotFound, name, orGone, projectId, projectOf, type Declaration } from "./common";

/** A custom domain routed to an app. */
export interface Domain {
  /** The domain's name. */
  name: string;
  /** Id of the app it routes to. */
  containerId: string;
  /** Project of the app. */
  projectId?: string;
}

const flags = { name, containerId: { validate: uuid() }, projectId } satisfies FlagsOf<Domain>;

const DomainRecord = record({ id: text(), projectId: text(), name: text(), containerId: text() });
type DomainRecord = z.output<typeof DomainRecord>;
const domains: Collection<DomainRecord> = {
  path: "domains",
  scope: "project",
  record: DomainRecord,
  list: listOf(DomainRecord),
  readById: true,
  update: "PATCH",
  created: { match: (d: DomainRecord, body) => d.name === body.name, proof: "absentBefore" },
};
const fromWire = (d: DomainRecord): Partial<Domain> =>
  defined({ name: d.name, containerId: d.containerId, projectId: d.projectId });

export const domain: Declaration<Domain, typeof flags> = {
  typeName: "Domain",
  flags,
  scope: "project",
  list: async (ctx, projectId) =>
    (await ctx.client.of(domains).list(projectOf(ctx, { projectId }))).map((d) => ({ ...fromWire(d), id: d.id })),
  lookups: {
    byIdOrName: { noun: "domain" },
    list: { name: "getDomains", key: "domains", description: "Lists the domains of a project." },
  },
  export: { word: "domain" },
  examples: [
    { title: "A domain for an app", name: "www", inputs: { name: "www", containerId: referenceTo("Container") } },
  ],
  lifecycle: {
    async create(ctx, inputs) {
      const created = await ctx.client
        .of(domains)
        .create(inputs.projectId, { name: inputs.name, containerId: inputs.containerId }, { signal: ctx.signal });
      return { id: created.id, outputs: fromWire(created) };
    },
    async read(ctx, address, { outputs }) {
      const found = await orGone(() =>
        ctx.client.of(domains).get(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }),
      );
      return found && fromWire(found);
    },
    async update(ctx, address, { olds, news }) {
      const updated = await ctx.client
        .of(domains)
        .update(projectOf(ctx, address, olds), address.id, { containerId: news.containerId }, { signal: ctx.signal });
      return fromWire(updated);
    },
    async delete(ctx, address, outputs) {
      await ignoringNotFound(() =>
        ctx.client.of(domains).delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }),
      );
    },
  },
};
`;

let copy: string;
let report: any;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "hosting-new-resource-"));
  for (const path of ["provider", "scripts", "package.json", "tsconfig.json", "test/resources/newResource.probe.ts"]) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  writeFileSync(join(copy, "provider/src/resources/domain.ts"), DOMAIN);
  const index = join(copy, "provider/src/resources/index.ts");
  const registry = readFileSync(index, "utf8")
    .replace(
      'import { container } from "./container";',
      'import { container } from "./container";\nimport { domain } from "./domain";',
    )
    // biome's layout: one entry a line, the last with a trailing comma
    .replace(/(export const resources[^=]*= \[[^\]]*?),?\s*\]/, "$1, domain]");
  writeFileSync(index, registry);

  await run("node", ["scripts/run-ts.mjs", "scripts/gen-schema.ts", "schema.json"], { cwd: copy });
  const probe = await run("node", ["scripts/run-ts.mjs", "test/resources/newResource.probe.ts", "schema.json"], {
    cwd: copy,
  });
  report = JSON.parse(probe.stdout);
}, BUILDS_MS);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

test("the copy differs from the repository by the new file and its line in the registry", async () => {
  const index = readFileSync(join(copy, "provider/src/resources/index.ts"), "utf8");
  expect(index).toContain('import { domain } from "./domain";');
  expect(index).toMatch(/export const resources[^=]*= \[[^\]]*, domain\]/);
  const diff = await run("diff", ["-r", "-q", join(ROOT, "provider"), join(copy, "provider")]).catch((e) => e);
  expect(diff.stdout.trim().split("\n").sort()).toEqual([
    `Files ${join(ROOT, "provider/src/resources/index.ts")} and ${join(copy, "provider/src/resources/index.ts")} differ`,
    `Only in ${join(copy, "provider/src/resources")}: domain.ts`,
  ]);
});

test(
  "the copy typechecks: no list of kinds anywhere needs the new one",
  async () => {
    const tsc = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: copy }).catch((e) => e);
    expect(`${tsc.stdout ?? ""}${tsc.stderr ?? ""}`).toBe("");
  },
  BUILDS_MS,
);

test("the schema has the resource, its lookups and its example", () => {
  expect(report.schema).toEqual({
    resource: ["containerId", "name", "projectId"],
    functions: ["hosting:index:getDomain", "hosting:index:getDomains"],
    example: true,
  });
});

test(
  "the API client has its endpoints: create (after a list, to prove what a lost answer made), " + "then read by id",
  () => {
    expect(report.client.read).toEqual({
      name: "www",
      containerId: "00000000-0000-4000-8000-00000000a991",
      projectId: "00000000-0000-4000-8000-0000000a11ce",
    });
    expect(report.client.requests.slice(0, 3)).toEqual([
      "GET /v1/projects/00000000-0000-4000-8000-0000000a11ce/domains",
      "POST /v1/projects/00000000-0000-4000-8000-0000000a11ce/domains",
      `GET /v1/projects/00000000-0000-4000-8000-0000000a11ce/domains/${report.client.created}`,
    ]);
  },
);

test("the lookups find it by name and list it", () => {
  expect(report.lookups.found).toMatchObject({ id: report.client.created, name: "www" });
  expect(report.lookups.listed.domains).toEqual([expect.objectContaining({ id: report.client.created, name: "www" })]);
});

test("hosting-export adopts it", () => {
  expect(report.export.status).toBe(0);
  expect(report.export.entries).toEqual([
    {
      type: "hosting:index:Domain",
      name: "www",
      id: `00000000-0000-4000-8000-0000000a11ce/${report.client.created}`,
      version: expect.any(String),
    },
  ]);
});
