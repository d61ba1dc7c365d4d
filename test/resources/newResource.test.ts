// Adding a resource is its declaration and its simulator entry, nothing else. In a copy of the
// repository, a throwaway kind (Domain: a name routed to an app) is four edits: its declaration in
// provider/src/resources/domain.ts and its line in resources/index.ts, its rules in
// simulator/src/rules/domains.ts and its entry in collections.ts. Then:
// - the copy typechecks: no list of kinds anywhere needs the new one;
// - `make schema sdk docs` puts it in schema.json, the SDK, the reference and every generated table
//   of README.md, docs/functions.md and docs/simulator.md, and changes nothing else;
// - the tests that derive their kinds pass in the copy with it (the list contract among them, which
//   fails when its list envelope is wrong);
// - the provider serves it against the copy's simulator (newResource.probe.ts: the client, the
//   lookups, hosting-export), and the simulator keeps it (test/simulator/newCollection.probe.ts: its
//   routes, the world, the admin API, and a delete of the app it refers to);
// - docs/development.md's table of "Adding a resource" is what the copy shows: the files its steps
//   name are the ones the kind touched, and each gate it names fails in the copy until its step is
//   done (`make record-state`, a corpus case), then passes.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { KINDS } from "../../simulator/src/collections";

const ROOT = resolve(__dirname, "../..");
const run = promisify(execFile);
/** Generators, tsc and jest over a copy are CPU-bound: minutes on a loaded 2-core machine; this catches a hang. */
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

const flags = {
  name,
  containerId: { replaceOnChange: true, validate: uuid() },
  projectId,
} satisfies FlagsOf<Domain>;

const DomainRecord = record({ id: text(), projectId: text(), name: text(), containerId: text() });
type DomainRecord = z.output<typeof DomainRecord>;
export const domains: Collection<DomainRecord> = {
  path: "domains",
  scope: "project",
  record: DomainRecord,
  list: listOf(DomainRecord, "domains"),
  readById: true,
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
    async delete(ctx, address, outputs) {
      await ignoringNotFound(() =>
        ctx.client.of(domains).delete(projectOf(ctx, address, outputs), address.id, { signal: ctx.signal }),
      );
    },
  },
};
`;

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

function domainOf(ctx: Ctx): SimDomain {
  const id = ctx.params.domainId;
  const found = ctx.store.state.domains.find((domain) => domain.id === id && domain.project_id === ctx.params.projectId);
  if (!found) throw notFound(\`domain \${id}\`);
  return found;
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
  ctx.store.remove("domains", domainOf(ctx).id);
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
  {
    method: "GET",
    pattern: \`\${PROJECT_PATH}/domains/:domainId\`,
    doc: { answers: "200: the domain" },
    handler: (ctx) => ok(domainOf(ctx)),
  },
  { method: "DELETE", pattern: \`\${PROJECT_PATH}/domains/:domainId\`, doc: { answers: "204" }, handler: deleteDomain },
];
`;

/** The four edits, each as the file it writes: a new file, or a line added to a table. */
const REGISTRY_IMPORT = 'import { domain } from "./domain";';
const SIM_IMPORT = 'import { DOMAIN_ROUTES } from "./rules/domains";';
const SIM_ENTRY = '  domains: { routes: DOMAIN_ROUTES, references: { container_id: "services" } },';
const EDITS: Record<string, (text: string) => string> = {
  "provider/src/resources/domain.ts": () => DOMAIN,
  "provider/src/resources/index.ts": (text) =>
    text
      .replace(/^import \{ container \} from "\.\/container";$/m, `$&\n${REGISTRY_IMPORT}`)
      // biome's layout: one entry a line, the last with a trailing comma
      .replace(/(export const resources[^=]*= \[[^\]]*?),?\s*\]/, "$1, domain]"),
  "simulator/src/rules/domains.ts": () => DOMAINS,
  "simulator/src/collections.ts": (text) =>
    text.replace(/^import type \{ WorldRules \}/m, `${SIM_IMPORT}\n$&`).replace(/^};$/m, `${SIM_ENTRY}\n};`),
};

/** One row of docs/development.md's table of "Adding a resource": the files its step touches, the tests it gates. */
interface Step {
  step: number;
  doing: string;
  files: string[];
  gates: string[];
}

/** docs/development.md's table of "Adding a resource", with `<name>` and `<plural>` the throwaway kind's. */
function adding(page: string): Step[] {
  const section = page.slice(page.indexOf("## Adding a resource"), page.indexOf("## Adding a flag"));
  const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return section
    .split("\n")
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => {
      const [step, doing, files, gates] = line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, ""));
      const named = (path: string) => path.replace("<name>", "domain").replace("<plural>", "domains");
      return {
        step: Number(step),
        doing,
        files: code(files).map(named),
        gates: code(gates).filter((path) => path.startsWith("test/")),
      };
    });
}
const STEPS = adding(readFileSync(join(ROOT, "docs/development.md"), "utf8"));

/** The tests that take their kinds from the package or the collections' table, run in the copy. */
const DERIVED_TESTS = [
  "test/simulator/lists.contract.test.ts",
  "test/simulator/docs.test.ts",
  "test/simulator/admin.test.ts",
  "test/schema/metaschema.test.ts",
  "test/framework/bind.test.ts",
  "test/docs/pages.test.ts",
  "test/docs/links.test.ts",
];

/** Every file of the working tree that git tracks or would (not ignored), from the root. */
async function repositoryFiles(): Promise<string[]> {
  const { stdout } = await run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  });
  return stdout.split("\0").filter((file) => file && existsSync(join(ROOT, file)));
}

/** The files of `copy` that differ from the repository's, and which of `candidates` only the copy has. */
function changes(copy: string, files: string[], candidates: string[]): { changed: string[]; added: string[] } {
  const same = (file: string) => readFileSync(join(ROOT, file)).equals(readFileSync(join(copy, file)));
  const added = candidates.filter((file) => !existsSync(join(ROOT, file)) && existsSync(join(copy, file)));
  return { changed: files.filter((file) => !same(file)).sort(), added: added.sort() };
}

/** The page without what stands between its generated sections' markers. */
const prose = (page: string) => page.replace(/(<!-- generated: [\w-]+ -->)[\s\S]*?(<!-- \/generated -->)/g, "$1$2");

let copy: string;
let files: string[];
let edited: { changed: string[]; added: string[] };
const inCopy = (path: string) => readFileSync(join(copy, path), "utf8");
/** Runs a command in the copy; its exit code and output, without throwing. */
const runInCopy = async (command: string, args: string[]) => {
  const { JEST_WORKER_ID: _, ...env } = process.env;
  const result = await run(command, args, { cwd: copy, env, maxBuffer: 64 << 20 }).catch((error) => error);
  return { code: result.code ?? 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
};

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "hosting-new-resource-"));
  files = await repositoryFiles();
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  for (const [file, edit] of Object.entries(EDITS)) {
    const path = join(copy, file);
    writeFileSync(path, edit(existsSync(path) ? readFileSync(path, "utf8") : ""));
  }
  edited = changes(copy, files, Object.keys(EDITS));
  const make = await runInCopy("make", ["--no-print-directory", "schema", "sdk", "docs"]);
  if (make.code !== 0) throw new Error(`make schema sdk docs failed in the copy:\n${make.output}`);
}, BUILDS_MS);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

test("the copy differs from the repository by the two new files and a line in each of two tables", () => {
  expect(edited).toEqual({
    changed: ["provider/src/resources/index.ts", "simulator/src/collections.ts"],
    added: ["provider/src/resources/domain.ts", "simulator/src/rules/domains.ts"],
  });
  expect(inCopy("provider/src/resources/index.ts")).toMatch(/export const resources[^=]*= \[[^\]]*, domain\]/);
  expect(inCopy("simulator/src/collections.ts")).toContain(`${SIM_ENTRY}\n};`);
});

test(
  "the copy typechecks: no list of kinds anywhere needs the new one",
  async () => {
    const tsc = await runInCopy(join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"]);
    expect(tsc.output).toBe("");
  },
  BUILDS_MS,
);

test("`make schema sdk docs` changed only generated files, and the pages only inside their generated sections", () => {
  const generated = (file: string) =>
    file === "schema.json" || file.startsWith("sdk/") || file.startsWith("docs/reference/");
  const { changed } = changes(copy, files, []);
  const pages = changed.filter((file) => !generated(file) && !edited.changed.includes(file));
  expect(pages).toEqual(["README.md", "docs/functions.md", "docs/simulator.md"]);
  for (const page of pages) expect(prose(inCopy(page))).toBe(prose(readFileSync(join(ROOT, page), "utf8")));
  expect(existsSync(join(copy, "docs/reference/domain.md"))).toBe(true);
  expect(existsSync(join(copy, "sdk/nodejs/domain.ts"))).toBe(true);
});

test("the schema has the resource, its lookups and its example", () => {
  const schema = JSON.parse(inCopy("schema.json"));
  expect(Object.keys(schema.resources["hosting:index:Domain"].inputProperties).sort()).toEqual([
    "containerId",
    "name",
    "projectId",
  ]);
  expect(Object.keys(schema.functions).filter((token) => /Domain/.test(token))).toEqual([
    "hosting:index:getDomain",
    "hosting:index:getDomains",
  ]);
  expect(schema.resources["hosting:index:Domain"].description).toMatch(/new hosting\.Domain\("www"/);
});

test("every generated table has it: the README's, docs/functions.md's, docs/simulator.md's and the reference's", () => {
  const readme = inCopy("README.md");
  expect(readme).toContain(
    '| [Domain](docs/reference/domain.md) | `new hosting.Domain("www", { name: "www", containerId: web.id })` |',
  );
  expect(readme).toContain('| [getDomain](docs/reference/getdomain.md) | `hosting.getDomainOutput({ name: "www" }).');
  expect(readme).toContain("| [getDomains](docs/reference/getdomains.md) | `hosting.getDomainsOutput().domains` |");
  const functions = inCopy("docs/functions.md");
  expect(functions).toContain(
    "| [getDomain](reference/getdomain.md) | Looks up an existing domain by `id` or by `name`",
  );
  expect(functions).toContain(
    "| [getDomains](reference/getdomains.md) | Lists the domains of a project. | `projectId` |",
  );
  const simulator = inCopy("docs/simulator.md");
  for (const endpoint of ["GET", "POST"])
    expect(simulator).toContain(`| \`${endpoint} /v1/projects/{projectId}/domains\` |`);
  expect(simulator).toContain("| `POST /v1/projects/{projectId}/domains` | `name`, `container_id` | 201: the domain;");
  expect(simulator).toContain(
    `is a collection of the world: ${[...KINDS, "domains"].map((k) => `\`${k}\``).join(", ")}.`,
  );
  expect(inCopy("docs/reference/_index.md")).toContain("| [Domain](domain.md) | A custom domain routed to an app. |");
});

test(
  "the tests that derive their kinds pass in the copy, the new kind among them",
  async () => {
    const jest = await runInCopy(join(ROOT, "node_modules/.bin/jest"), [
      "--selectProjects",
      "node script",
      "--verbose",
      "--",
      ...DERIVED_TESTS,
    ]);
    expect(jest.output).toContain(`Test Suites: ${DERIVED_TESTS.length} passed, ${DERIVED_TESTS.length} total`);
    expect(jest.code).toBe(0);
    expect(jest.output).toContain("domains: GET /v1/projects/:projectId/domains");
    expect(jest.output).toMatch(/✓ Domain binds/);
  },
  BUILDS_MS,
);

describe("the provider serves it against the copy's simulator (newResource.probe.ts)", () => {
  let report: any;
  beforeAll(async () => {
    const probe = await runInCopy("node", ["scripts/run-ts.mjs", "test/resources/newResource.probe.ts", "schema.json"]);
    if (probe.code !== 0) throw new Error(`the probe failed:\n${probe.output}`);
    report = JSON.parse(probe.output.slice(probe.output.indexOf("{")));
  }, BUILDS_MS);

  test("the API client creates it (after a list, to prove what a lost answer made), then reads it by id", () => {
    expect(report.client.read).toEqual({ name: "www", containerId: report.app, projectId: report.project });
    const domains = `/v1/projects/${report.project}/domains`;
    expect(report.client.requests.slice(0, 3)).toEqual([
      `GET ${domains}`,
      `POST ${domains}`,
      `GET ${domains}/${report.client.created}`,
    ]);
  });

  test("the lookups find it by name and list it", () => {
    expect(report.lookups.found).toMatchObject({ id: report.client.created, name: "www" });
    expect(report.lookups.listed.domains).toEqual([
      expect.objectContaining({ id: report.client.created, name: "www" }),
    ]);
  });

  test("hosting-export adopts it", () => {
    expect(report.export.status).toBe(0);
    expect(report.export.entries).toEqual([
      {
        type: "hosting:index:Domain",
        name: "www",
        id: `${report.project}/${report.client.created}`,
        version: expect.any(String),
        pluginDownloadURL: "github://api.github.com/pulumi-hosting/pulumi-hosting",
      },
    ]);
  });
});

describe("the simulator keeps it (test/simulator/newCollection.probe.ts)", () => {
  let report: any;
  beforeAll(async () => {
    const probe = await runInCopy("node", ["scripts/run-ts.mjs", "test/simulator/newCollection.probe.ts"]);
    if (probe.code !== 0) throw new Error(`the probe failed:\n${probe.output}`);
    report = JSON.parse(probe.output.slice(probe.output.indexOf("{")));
  }, BUILDS_MS);

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
});

test(
  "a wrong list envelope key in the declaration fails the list contract in the copy, naming both keys",
  async () => {
    const file = join(copy, "provider/src/resources/domain.ts");
    writeFileSync(file, DOMAIN.replace('listOf(DomainRecord, "domains")', 'listOf(DomainRecord, "domain")'));
    try {
      const jest = await runInCopy(join(ROOT, "node_modules/.bin/jest"), [
        "--selectProjects",
        "node script",
        "--",
        "test/simulator/lists.contract.test.ts",
      ]);
      expect(jest.code).not.toBe(0);
      // jest prints the problems as strings, their quotes escaped
      const quoted = (key: string) => `\\\\?"${key}\\\\?"`;
      expect(jest.output).toMatch(
        new RegExp(
          `domains: the simulator answers with its records under ${quoted("domains")}, the provider reads them under ${quoted("domain")}`,
        ),
      );
    } finally {
      writeFileSync(file, DOMAIN);
    }
  },
  BUILDS_MS,
);

describe("docs/development.md's table of the steps is what the suite asks for", () => {
  test("its steps are numbered in order, and every gate it names is a test of the suite", () => {
    expect(STEPS.map((s) => s.step)).toEqual(STEPS.map((_, i) => i + 1));
    expect(STEPS.length).toBeGreaterThanOrEqual(6);
    for (const gate of STEPS.flatMap((s) => s.gates)) expect(existsSync(join(ROOT, gate))).toBe(true);
  });

  test("the files its hand-written steps name are the ones the kind touched, and its generated ones what `make schema sdk docs` changed", () => {
    const written = STEPS.filter((s) => !/`make /.test(s.doing) && !s.files.includes("test/corpus/corpus.test.ts"));
    expect(written.flatMap((s) => s.files).sort()).toEqual([...edited.changed, ...edited.added].sort());
    const generated = STEPS.find((s) => s.doing === "`make schema sdk docs`")!.files;
    const { changed } = changes(copy, files, []);
    const unnamed = changed
      .filter((file) => !edited.changed.includes(file))
      .filter((file) => !generated.some((named) => file === named || (named.endsWith("/") && file.startsWith(named))));
    expect(unnamed).toEqual([]);
  });

  test(
    "each gate fails in the copy until its step is done, then passes: `make record-state`, a corpus case",
    async () => {
      const build = await runInCopy("make", ["--no-print-directory", "build"]);
      if (build.code !== 0) throw new Error(`make build failed in the copy:\n${build.output}`);
      const jest = (tests: string[]) =>
        runInCopy(join(ROOT, "node_modules/.bin/jest"), ["--selectProjects", "node script", "--", ...tests]);
      const recordState = STEPS.find((s) => s.doing === "`make record-state`")!;
      const corpusCase = STEPS.find((s) => s.doing === "a corpus case")!;
      const gates = [...recordState.gates, ...corpusCase.gates];
      expect(gates).toEqual(["test/grpc/upgrades.test.ts", "test/corpus/corpus.test.ts"]);
      for (const gate of gates) {
        const before = await jest([gate]);
        expect({ gate, code: before.code }).toEqual({ gate, code: 1 });
      }
      // `make record-state` notes the commit it recorded at: the copy becomes a repository of one empty commit.
      await runInCopy("git", ["init", "-q"]);
      await runInCopy("git", [
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "copy",
      ]);
      const recorded = await runInCopy("make", ["--no-print-directory", "record-state"]);
      expect({ code: recorded.code, output: recorded.output }).toEqual({
        code: 0,
        output: expect.stringMatching(/hosting:index:Domain\.name: \(none\) → input, string/),
      });
      const corpus = join(copy, "test/corpus/corpus.test.ts");
      writeFileSync(
        corpus,
        readFileSync(corpus, "utf8").replace(
          "const CASES: Case[] = [",
          `$&
  {
    typed: "an app id that is not one",
    type: "Domain",
    inputs: { name: "www", containerId: "web" },
    property: "containerId",
    says: /not an id; use the UUID/,
  },`,
        ),
      );
      const after = await jest(gates);
      expect(after.output).toContain(`Test Suites: ${gates.length} passed, ${gates.length} total`);
    },
    BUILDS_MS,
  );
});
