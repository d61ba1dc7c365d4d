// The command line's flags, each declared once: its argument, the switch it sets (if any), how its
// text reads, and its lines of --help. cli.ts parses with it and prints --help from it; the docs
// test checks docs/simulator.md against it.
import { DEFAULT_SWITCHES } from "./defaults";
import { DEFAULT_MAX_HEADER_BYTES } from "./server";
import type { Switches } from "./types";

export const DEFAULT_PORT = 8787;

export interface Flag {
  /** The flag without its dashes: `--volumes-disabled` is "volumes-disabled". */
  name: string;
  /** What its value is called in --help ("N", "FILE"); none: a flag that takes no value. */
  arg?: string;
  /** The switch it sets, and to what: from the value's text, or (a flag with no value) when it is given. */
  sets?: { switch: keyof Switches; from: (text: string | undefined, flag: string) => unknown };
  help: string[];
}

export function numberFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new Error(`--${flag}: not a number: ${value}`);
  return parsed;
}

/** `a,b` -> ["a", "b"]; blanks around and between commas are dropped, so "" is the empty list. */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

const numberSwitch = (name: keyof Switches) => ({
  switch: name,
  from: (text: string | undefined, flag: string) => numberFlag(flag, text),
});
const textSwitch = (name: keyof Switches) => ({ switch: name, from: (text: string | undefined) => text });
const listSwitch = (name: keyof Switches) => ({ switch: name, from: (text: string | undefined) => list(text) });
/** A flag with no value: the switch is `value` when the flag is given. */
const whenGiven = (name: keyof Switches, value: boolean) => ({
  switch: name,
  from: (given: unknown) => (given ? value : undefined),
});

export const FLAGS: readonly Flag[] = [
  { name: "port", arg: "N", help: [`port to listen on (default ${DEFAULT_PORT}; 0 = any free port)`] },
  { name: "host", arg: "H", help: ["address to bind (default 127.0.0.1)"] },
  { name: "state", arg: "FILE", help: ["keep the world in FILE (loaded at start, written after every change)"] },
  {
    name: "volumes-disabled",
    sets: whenGiven("volumesEnabled", false),
    help: ["volume create fails with 403 BLOCK_VOLUME_DISABLED, as in production"],
  },
  {
    name: "billing",
    arg: "STATE",
    sets: textSwitch("billing"),
    help: ["ok | insufficient_balance | not_initialized | suspended (default ok)"],
  },
  {
    name: "capacity-gb",
    arg: "N",
    sets: numberSwitch("capacityGb"),
    help: [`total volume GB a user can reserve (default ${DEFAULT_SWITCHES.capacityGb})`],
  },
  {
    name: "provisioning-ms",
    arg: "N",
    sets: numberSwitch("volumeProvisioningMs"),
    help: [
      `time until a new volume reads running; negative = never (default ${DEFAULT_SWITCHES.volumeProvisioningMs})`,
    ],
  },
  {
    name: "service-start-ms",
    arg: "N",
    sets: numberSwitch("serviceStartMs"),
    help: [
      "time a container or database reads provisioning after create, and a container",
      "after a rollout (a PATCH of image, env or http_port), a start or a restart",
      `(default ${DEFAULT_SWITCHES.serviceStartMs})`,
    ],
  },
  {
    name: "crashing-image-tags",
    arg: "TAG[,TAG...]",
    sets: listSwitch("crashingImageTags"),
    help: [
      "containers whose image has one of these tags fail to start: they read failed,",
      "not running, and their logs say why (default none)",
    ],
  },
  {
    name: "link-env-in-consumer",
    sets: whenGiven("linkEnvInConsumer", true),
    help: [
      "a new service link also writes its injected_env into the consumer's env",
      "(default: only the link record carries them)",
    ],
  },
  {
    name: "apps-require-env",
    arg: "NAME[,NAME...]",
    sets: listSwitch("appsRequireEnv"),
    help: [
      "container apps fail to start while one of these variables is missing from their",
      "env and from what their links inject; the log names it (default none)",
    ],
  },
  {
    name: "link-restarts-consumer",
    sets: whenGiven("linkRestartsConsumer", true),
    help: [
      "a new service link restarts its consumer app (default: the app reads the",
      "variables on its next start or restart)",
    ],
  },
  {
    name: "normalizes-unicode",
    sets: whenGiven("normalizesUnicode", true),
    help: [
      "store a container's env and display_name in Unicode NFC, whatever form",
      "they were sent in (default: as sent)",
    ],
  },
  {
    name: "error-shape",
    arg: "SHAPE",
    sets: textSwitch("errorShape"),
    help: ["code ({code,message}) | error ({error,request_id}) (default code)"],
  },
  {
    name: "rate-limit",
    arg: "N",
    sets: numberSwitch("rateLimitPerSecond"),
    help: ["requests per second before 429 RATE_LIMITED; 0 = unlimited (default 0)"],
  },
  {
    name: "max-body-bytes",
    arg: "N",
    sets: numberSwitch("maxRequestBodyBytes"),
    help: [
      "an API request with a larger body is answered 413 PAYLOAD_TOO_LARGE",
      `(default ${DEFAULT_SWITCHES.maxRequestBodyBytes})`,
    ],
  },
  {
    name: "max-header-bytes",
    arg: "N",
    help: [
      "a request whose request line and headers are larger is answered 431",
      `(default ${DEFAULT_MAX_HEADER_BYTES}, Node's)`,
    ],
  },
  { name: "quiet", help: ["do not print one line per request"] },
  { name: "help", help: ["show this help"] },
];

/** The switches the flags set (undefined where a flag was not given). */
export function switchesOf(values: Record<string, string | boolean | undefined>): Partial<Switches> {
  const switches: Record<string, unknown> = {};
  for (const flag of FLAGS) {
    if (flag.sets) switches[flag.sets.switch] = flag.sets.from(values[flag.name] as string | undefined, flag.name);
  }
  return switches as Partial<Switches>;
}

/** Usage and flags, one per line; a long flag has its help on the lines below it. */
export function helpText(): string {
  const column = 25;
  const lines = FLAGS.flatMap((flag) => {
    const usage = `  --${flag.name}${flag.arg ? ` ${flag.arg}` : ""}`;
    const indent = " ".repeat(column);
    if (usage.length + 3 > column) return [usage, ...flag.help.map((line) => indent + line)];
    return [usage.padEnd(column) + flag.help[0], ...flag.help.slice(1).map((line) => indent + line)];
  });
  return `Usage: node dist/simulator.js [flags]

An offline simulator of the Container Hosting Service API.

${lines.join("\n")}

The admin API is under /_sim/ (see docs/simulator.md).`;
}
