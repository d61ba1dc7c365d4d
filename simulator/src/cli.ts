// `node dist/simulator.js [flags]`: run the simulator as a standalone server.
import { parseArgs } from "node:util";
import { FLAGS, DEFAULT_PORT, helpText, numberFlag, switchesOf } from "./flags";
import { DEFAULT_USERS, startSimulator } from "./index";
import { checkMaxHeaderBytes } from "./server";
import { checkSwitches } from "./switches";
import type { SimulatorOptions } from "./types";

const HELP = helpText();

function optionsFromArgs(args: string[]): SimulatorOptions & { help?: boolean; quiet?: boolean } {
  const options = Object.fromEntries(
    FLAGS.map((flag) => [flag.name, { type: flag.arg ? "string" : "boolean" } as const]),
  );
  const { values } = parseArgs({ args, strict: true, options });
  const text = (name: string) => values[name] as string | undefined;
  const switches = checkSwitches(switchesOf(values));
  const maxHeaderBytes = numberFlag("max-header-bytes", text("max-header-bytes"));
  return {
    ...switches,
    port: numberFlag("port", text("port")) ?? DEFAULT_PORT,
    host: text("host"),
    stateFile: text("state"),
    maxHeaderBytes: maxHeaderBytes === undefined ? undefined : checkMaxHeaderBytes(maxHeaderBytes),
    help: values.help as boolean | undefined,
    quiet: values.quiet as boolean | undefined,
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
