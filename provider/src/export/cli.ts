// `hosting-export`: reads every resource of a project (its apps and managed databases, volumes,
// volume attachments and service links) and the user's registries, and writes a file for
// `pulumi import --file` (plan.ts decides what goes in it). Configuration is read the way the
// provider reads it: flags, then HOSTING_BASE_URL, HOSTING_TOKEN, HOSTING_PROJECT_ID.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { version } from "../../../package.json";
import { HostingClient } from "../api/client";
import { isApiError } from "../api/errors";
import { ClientConfigError, closeSharedDispatcher, parseBaseUrl } from "../api/http";
import { uuid } from "../framework/validators";
import { planExport, type ExportPlan, type World } from "./plan";

export const DEFAULT_OUT = "hosting-import.json";

export const HELP = `Usage: hosting-export [--project <id>] [--out <file>] [--base-url <url>]

Writes a file for \`pulumi import --file\` that adopts every resource of a project: its apps
and managed databases, volumes, volume attachments and service links, and your registries.
Each entry has the resource's type, a Pulumi name made from its name, and its id; nothing
else (no property, no secret). Then run:

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

/** Flags, then the environment, as the provider reads its configuration; an empty value is none. */
function settingsFrom(argv: string[], env: NodeJS.ProcessEnv): Settings | "help" {
  let values;
  try {
    ({ values } = parseArgs({
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
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
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

/** Reads what the file is made from, one line of progress per kind: what it reads, then how many. */
async function readWorld(client: HostingClient, projectId: string, write: (text: string) => void): Promise<World> {
  const step = async <T extends { length: number }>(what: string, read: () => Promise<T>): Promise<T> => {
    write(`reading ${what}… `);
    try {
      const found = await read();
      write(`${found.length}\n`);
      return found;
    } catch (err) {
      write("failed\n");
      throw err;
    }
  };
  const services = await step("apps and databases", () => client.containers.list(projectId));
  const volumes = await step("volumes", () => client.volumes.list(projectId));
  // The list says only whether a volume is attached; the volume itself says to what.
  const attached = volumes.filter((v) => v.attached);
  const withAttachments = await step("volume attachments", async () =>
    (await Promise.all(attached.map((v) => client.volumes.get(projectId, v.id)))).filter((v) => v.attachment),
  );
  const links = await step("service links", () => client.serviceLinks.list(projectId));
  const registries = await step("registries", () => client.registries.list());
  const attachmentOf = new Map(withAttachments.map((v) => [v.id, v.attachment]));
  return {
    projectId,
    services,
    volumes: volumes.map((v) => ({ id: v.id, name: v.name, attachment: attachmentOf.get(v.id) ?? null })),
    registries,
    links,
  };
}

/** `ghcr` → `ghcrPassword`, `docker-hub` → `dockerHubPassword`: a config key for a registry's password. */
export const passwordConfigKey = (name: string) => `${name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Password`;

function summary(plan: ExportPlan, out: string): string {
  const total = plan.file.resources.length;
  const width = Math.max(...plan.counts.map((c) => c.type.length), 0);
  const lines = [
    `wrote ${out === "-" ? "the import file to stdout" : out}: ${total} resource${total === 1 ? "" : "s"}`,
    ...plan.counts.map((c) => `  ${c.type.padEnd(width)}  ${c.count}`),
  ];
  if (plan.skipped.length > 0) {
    lines.push(
      `left out ${plan.skipped.length} service${plan.skipped.length === 1 ? "" : "s"} of a type this provider has no resource for: ` +
        plan.skipped.map((s) => `${s.name} (type "${s.type}")`).join(", "),
    );
  }
  if (plan.registriesWithoutPassword.length > 0) {
    const names = plan.registriesWithoutPassword.map((r) => r.name);
    lines.push(
      `The API never returns registry passwords, so none is imported for ${names.join(", ")}. After importing, set each one ` +
        `(until you do, the next update of that registry, a PUT of the whole entry, clears its password on the platform):`,
      ...plan.registriesWithoutPassword.map(
        (r) => `  ${r.name}: pulumi config set --secret ${passwordConfigKey(r.name)}   then in the program: password: config.requireSecret("${passwordConfigKey(r.name)}")`,
      ),
    );
  }
  if (out !== "-") lines.push(`next: pulumi import --file ${out} --out imported.ts`);
  return lines.join("\n") + "\n";
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
  if (settings.tokenFlag) io.stderr("hosting-export: warning: --token shows in the process list and your shell history; prefer HOSTING_TOKEN\n");
  const scrub = (text: string) => text.split(token).join("[secret]");
  const client = new HostingClient({ baseUrl, token, userAgent: `hosting-export/${version}` });
  let plan: ExportPlan;
  try {
    io.stderr(`exporting project ${projectId} from ${client.baseUrl}\n`);
    const world = await readWorld(client, projectId, io.stderr);
    plan = planExport(world, { version });
  } catch (err) {
    const hint = isApiError(err, "NOT_FOUND")
      ? ` (is ${projectId} a project of the token's user? The API answers 404 for any other)`
      : isApiError(err, "UNAUTHORIZED")
        ? " (check HOSTING_TOKEN)"
        : "";
    io.stderr(`hosting-export: reading the project failed: ${scrub((err as Error).message)}${hint}\n`);
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
