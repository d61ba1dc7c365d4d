// `hosting-export`: reads every resource of a project that a resource of the package adopts
// (each through its declaration's `list`), and the user's own (registries), and writes a file for
// `pulumi import --file` (plan.ts decides what goes in it). Configuration is read the way the
// provider reads it: flags, then HOSTING_BASE_URL, HOSTING_TOKEN, HOSTING_PROJECT_ID.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { pulumi, version } from "../../../package.json";
import { HostingClient } from "../api/client";
import { isApiError, ProjectNotVisibleError } from "../api/errors";
import { ClientConfigError, closeSharedDispatcher, parseBaseUrl } from "../api/http";
import { DEFAULT_OPERATION_TIMEOUT_MS, type Listed } from "../framework/declare";
import { SharedPoll } from "../framework/polling";
import { uuid } from "../framework/validators";
import { hostingPackage as pkg } from "../package";
import { redact } from "../redact";
import type { Context } from "../resources/common";
import { planExport, type ExportKind, type ExportPlan, type World } from "./plan";

export const DEFAULT_OUT = "hosting-import.json";

/** The kinds hosting-export adopts: every resource that declares `export`, in the package's order. */
export const kindsOf = (): ExportKind[] =>
  pkg.resources.flatMap((r) =>
    r.export ? [{ typeName: r.typeName, scope: r.scope, flags: r.flags, export: r.export }] : [],
  );

export const HELP = `Usage: hosting-export [--project <id>] [--out <file>] [--base-url <url>]

Writes a file for \`pulumi import --file\` that adopts every resource of a project (${kindsOf()
  .map((k) => k.typeName)
  .join(", ")}),
and those of yours outside projects.
Each entry has the resource's type, a Pulumi name made from its name, its id, and the plugin
(version ${version}, and where the engine downloads it); nothing else (no property, no secret).
Then run:

  pulumi import --file ${DEFAULT_OUT} --out imported.ts

  --project <id>     the project to export (default: $HOSTING_PROJECT_ID)
  --out <file>       where to write the file (default: ${DEFAULT_OUT}; "-" writes to stdout)
  --base-url <url>   the API's base URL (default: $HOSTING_BASE_URL)
  --token <token>    the API token (default: $HOSTING_TOKEN). Prefer the variable: a flag is
                     seen in the process list and kept in your shell's history
  --help             show this help

Progress and a summary go to stderr. Exit status: 0 written; 1 the API (or writing the
file) failed; 2 bad usage or missing configuration.`;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  writeFile(path: string, text: string): void;
}

const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  writeFile: (path, text) => writeFileSync(path, text),
};

class UsageError extends Error {}

interface Settings {
  baseUrl: string;
  token: string;
  projectId: string;
  out: string;
  tokenFlag: boolean;
}

/** The command line's flags; one it does not know, or a value missing, is a UsageError. */
function flagsOf(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        project: { type: "string" },
        out: { type: "string" },
        "base-url": { type: "string" },
        token: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Flags, then the environment, as the provider reads its configuration; an empty value is none. */
function settingsFrom(argv: string[], env: NodeJS.ProcessEnv): Settings | "help" {
  const values = flagsOf(argv);
  if (values.help) return "help";
  const pick = (flag: string | undefined, variable: string) => (flag || env[variable] || "").trim();
  const baseUrl = pick(values["base-url"], "HOSTING_BASE_URL");
  const token = pick(values.token, "HOSTING_TOKEN");
  const projectId = pick(values.project, "HOSTING_PROJECT_ID");
  const missing = [
    !baseUrl && "the API's base URL: set HOSTING_BASE_URL or pass --base-url",
    !token && "a token: set HOSTING_TOKEN",
    !projectId && "the project: set HOSTING_PROJECT_ID or pass --project",
  ].filter((m): m is string => typeof m === "string");
  if (missing.length > 0) throw new UsageError(`missing ${missing.join("; ")}`);
  const badProject = uuid()(projectId, "--project");
  if (badProject) throw new UsageError(badProject);
  try {
    parseBaseUrl(baseUrl);
  } catch (err) {
    if (err instanceof ClientConfigError) throw new UsageError(err.message);
    throw err;
  }
  if (values.out === "") throw new UsageError('--out needs a file name (or "-" for stdout)');
  return { baseUrl, token, projectId, out: values.out ?? DEFAULT_OUT, tokenFlag: values.token !== undefined };
}

/** A lifecycle's context outside the engine: the client and the project, nothing to display or cancel. */
function standalone(client: HostingClient, projectId: string): Context {
  const signal = new AbortController().signal;
  return {
    client,
    config: { projectId },
    signal,
    operationTimeoutMs: DEFAULT_OPERATION_TIMEOUT_MS,
    progress: () => undefined,
    warn: () => undefined,
    redact: (text) => text,
    sharedPoll: (_key, fetch) => new SharedPoll(fetch),
    made: () => undefined, // hosting-export creates nothing
    creating: { signal },
  };
}

/** Reads what the file is made from, one line of progress per kind: what it reads, then how many. */
async function readWorld(client: HostingClient, projectId: string, write: (text: string) => void): Promise<World> {
  const ctx = standalone(client, projectId);
  const found: Record<string, Listed[]> = {};
  for (const kind of pkg.resources.filter((r) => r.export)) {
    write(`reading ${kind.typeName}… `);
    try {
      found[kind.typeName] = await kind.list!(ctx, projectId);
      write(`${found[kind.typeName].length}\n`);
    } catch (err) {
      write("failed\n");
      throw err;
    }
  }
  const strays = (await Promise.all(pkg.resources.map((r) => r.export?.strays?.(ctx, projectId) ?? []))).flat();
  return { projectId, found, strays };
}

/**
 * `ghcr` and `password` → `ghcrPassword`; `docker-hub` → `dockerHubPassword`: a config key for a secret the API never
 * returns.
 */
export const secretConfigKey = (name: string, property: string) =>
  `${name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}${property[0].toUpperCase()}${property.slice(1)}`;

function summary(plan: ExportPlan, out: string): string {
  const total = plan.file.resources.length;
  const width = Math.max(...plan.counts.map((c) => c.type.length), 0);
  const lines = [
    `wrote ${out === "-" ? "the import file to stdout" : out}: ${total} resource${total === 1 ? "" : "s"}`,
    ...plan.counts.map((c) => `  ${c.type.padEnd(width)}  ${c.count}`),
  ];
  if (plan.skipped.length > 0) {
    lines.push(
      `left out ${plan.skipped.length} service${plan.skipped.length === 1 ? "" : "s"} of a type this provider has no resource for: ${plan.skipped.map((s) => `${s.name} (type "${s.type}")`).join(", ")}`,
    );
  }
  for (const [what, secrets] of groupBy(plan.secretsToSet, (s) => `${s.typeName} ${s.property}`)) {
    const [typeName, property] = what.split(" ");
    lines.push(
      `The API never returns a ${typeName}'s ${property}, so none is imported for ${secrets.map((s) => s.name).join(", ")}. After importing, set each one (until you do, the next update of that ${typeName}, which sends the whole entry, clears its ${property} on the platform):`,
      ...secrets.map((s) => {
        const key = secretConfigKey(s.name, property);
        return `  ${s.name}: pulumi config set --secret ${key}   then in the program: ${property}: config.requireSecret("${key}")`;
      }),
    );
  }
  if (out !== "-") lines.push(`next: pulumi import --file ${out} --out imported.ts`);
  return `${lines.join("\n")}\n`;
}

/** The command; returns its exit status. */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = processIo): Promise<number> {
  let settings: Settings | "help";
  try {
    settings = settingsFrom(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`hosting-export: ${err.message}\nRun hosting-export --help for the flags.\n`);
    return 2;
  }
  if (settings === "help") {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const { baseUrl, token, projectId, out } = settings;
  if (settings.tokenFlag)
    io.stderr(
      "hosting-export: warning: --token shows in the process list and your shell history; prefer HOSTING_TOKEN\n",
    );
  const scrub = (text: string) => redact(text, [token]);
  const client = new HostingClient({ baseUrl, token, userAgent: `hosting-export/${version}` });
  let plan: ExportPlan;
  try {
    io.stderr(`exporting project ${projectId} from ${client.baseUrl}\n`);
    const world = await readWorld(client, projectId, io.stderr);
    plan = planExport(pkg, kindsOf(), world, { version, pluginDownloadURL: pulumi.pluginDownloadURL });
  } catch (err) {
    io.stderr(`hosting-export: reading the project failed: ${scrub(failure(err, projectId))}\n`);
    return 1;
  } finally {
    await closeSharedDispatcher();
  }
  const text = `${JSON.stringify(plan.file, null, 2)}\n`;
  if (out === "-") io.stdout(text);
  else {
    try {
      io.writeFile(out, text);
    } catch (err) {
      io.stderr(`hosting-export: could not write ${out}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  io.stderr(summary(plan, out));
  return 0;
}

/**
 * What went wrong, in this command's terms: the provider's errors speak of its stack configuration
 * (hosting:token, hosting:projectId) and of state, which an export has neither of.
 */
function failure(err: unknown, projectId: string): string {
  const message = (err as Error).message;
  if (err instanceof ProjectNotVisibleError)
    return `project ${projectId} reads as 404 NOT_FOUND: the token cannot see it (the API answers 404 both for a project that does not exist and for one the token's user may not see). Check --project (or HOSTING_PROJECT_ID) and HOSTING_TOKEN: another account's token? (${(err.cause as Error).message})`;
  if (isApiError(err, "NOT_FOUND"))
    return `${message} (is ${projectId} a project of the token's user? The API answers 404 for any other)`;
  if (isApiError(err, "UNAUTHORIZED")) return `${message} (check HOSTING_TOKEN)`;
  return message;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
