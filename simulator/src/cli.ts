// `node dist/simulator.js [flags]`: run the simulator as a standalone server.
import { parseArgs } from "node:util";
import { DEFAULT_SWITCHES, DEFAULT_USERS, startSimulator } from "./index";
import { checkMaxHeaderBytes, DEFAULT_MAX_HEADER_BYTES } from "./server";
import { checkSwitches } from "./switches";
import type { SimulatorOptions } from "./types";

const DEFAULT_PORT = 8787;

const HELP = `Usage: node dist/simulator.js [flags]

An offline simulator of the Container Hosting Service API.

  --port N               port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --host H               address to bind (default 127.0.0.1)
  --state FILE           keep the world in FILE (loaded at start, written after every change)
  --volumes-disabled     volume create fails with 403 BLOCK_VOLUME_DISABLED, as in production
  --billing STATE        ok | insufficient_balance | not_initialized | suspended (default ok)
  --capacity-gb N        total volume GB a user can reserve (default ${DEFAULT_SWITCHES.capacityGb})
  --provisioning-ms N    time until a new volume reads running; negative = never (default ${DEFAULT_SWITCHES.volumeProvisioningMs})
  --service-start-ms N   time a container or database reads provisioning after create, and a container
                         after a rollout (a PATCH of image, env or http_port), a start or a restart
                         (default ${DEFAULT_SWITCHES.serviceStartMs})
  --crashing-image-tags TAG[,TAG...]
                         containers whose image has one of these tags fail to start: they read failed,
                         not running, and their logs say why (default none)
  --link-env-in-consumer
                         a new service link also writes its injected_env into the consumer's env
                         (default: only the link record carries them)
  --apps-require-env NAME[,NAME...]
                         container apps fail to start while one of these variables is missing from their
                         env and from what their links inject; the log names it (default none)
  --link-restarts-consumer
                         a new service link restarts its consumer app (default: the app reads the
                         variables on its next start or restart)
  --normalizes-unicode   store a container's env and display_name in Unicode NFC, whatever form
                         they were sent in (default: as sent)
  --error-shape SHAPE    code ({code,message}) | error ({error,request_id}) (default code)
  --rate-limit N         requests per second before 429 RATE_LIMITED; 0 = unlimited (default 0)
  --max-body-bytes N     an API request with a larger body is answered 413 PAYLOAD_TOO_LARGE
                         (default ${DEFAULT_SWITCHES.maxRequestBodyBytes})
  --max-header-bytes N   a request whose request line and headers are larger is answered 431
                         (default ${DEFAULT_MAX_HEADER_BYTES}, Node's)
  --quiet                do not print one line per request
  --help                 show this help

The admin API is under /_sim/ (see docs/CONTRACTS.md).`;

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new Error(`--${flag}: not a number: ${value}`);
  return parsed;
}

/** `a,b` -> ["a", "b"]; blanks around and between commas are dropped, so "" is the empty list. */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

function optionsFromArgs(args: string[]): (SimulatorOptions & { help?: boolean; quiet?: boolean }) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      state: { type: "string" },
      "volumes-disabled": { type: "boolean" },
      billing: { type: "string" },
      "capacity-gb": { type: "string" },
      "provisioning-ms": { type: "string" },
      "service-start-ms": { type: "string" },
      "crashing-image-tags": { type: "string" },
      "link-env-in-consumer": { type: "boolean" },
      "apps-require-env": { type: "string" },
      "link-restarts-consumer": { type: "boolean" },
      "normalizes-unicode": { type: "boolean" },
      "error-shape": { type: "string" },
      "rate-limit": { type: "string" },
      "max-body-bytes": { type: "string" },
      "max-header-bytes": { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const switches = checkSwitches({
    volumesEnabled: values["volumes-disabled"] ? false : undefined,
    billing: values.billing,
    capacityGb: number("capacity-gb", values["capacity-gb"]),
    volumeProvisioningMs: number("provisioning-ms", values["provisioning-ms"]),
    serviceStartMs: number("service-start-ms", values["service-start-ms"]),
    crashingImageTags: list(values["crashing-image-tags"]),
    linkEnvInConsumer: values["link-env-in-consumer"],
    appsRequireEnv: list(values["apps-require-env"]),
    linkRestartsConsumer: values["link-restarts-consumer"],
    normalizesUnicode: values["normalizes-unicode"],
    errorShape: values["error-shape"],
    rateLimitPerSecond: number("rate-limit", values["rate-limit"]),
    maxRequestBodyBytes: number("max-body-bytes", values["max-body-bytes"]),
  });
  const maxHeaderBytes = number("max-header-bytes", values["max-header-bytes"]);
  return {
    ...switches,
    port: number("port", values.port) ?? DEFAULT_PORT,
    host: values.host,
    stateFile: values.state,
    maxHeaderBytes: maxHeaderBytes === undefined ? undefined : checkMaxHeaderBytes(maxHeaderBytes),
    help: values.help,
    quiet: values.quiet,
  };
}

async function main(): Promise<void> {
  let options: ReturnType<typeof optionsFromArgs>;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(HELP);
    return;
  }
  const { help: _help, quiet, ...simOptions } = options;
  const sim = await startSimulator({ ...simOptions, log: quiet ? undefined : (line) => console.log(line) });
  console.log(`hosting simulator listening on ${sim.url}`);
  for (const user of DEFAULT_USERS) {
    console.log(`  user ${user.userId}: token ${user.token}, project ${user.projects.join(", ")}`);
  }
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
