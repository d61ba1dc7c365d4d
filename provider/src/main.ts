// pulumi-resource-hosting: started by the Pulumi engine as
//   pulumi-resource-hosting [--logtostderr] [-v=N] [--tracing ...] <engine address>
// It serves pulumirpc.ResourceProvider on a loopback port and prints that port as the only
// line on stdout; everything else goes to stderr or to the engine's log. A person who runs it
// with --version or --help gets the version or one screen of usage instead (the engine never
// passes either), and it exits without listening; one who starts it in a terminal with no engine
// address is told, on stderr, that the engine starts it and how to attach one to debug it.
//
// Start-up is on the path of every `pulumi preview`, so this file needs nothing but Node's
// built-ins: it listens, prints the port, and only then loads the gRPC server (server/start.ts,
// the second stage), which answers the engine's first call and then loads the provider
// (server/provider.ts, the third stage); see startup.ts for how, and for the V8 code caches that
// make it quick. Connections the engine opens meanwhile are accepted paused and handed to gRPC
// once it is loaded, so no byte is lost and no call fails; the engine's first call simply waits
// for the load, which overlaps with the engine's own work.
//
// If the second stage cannot start (a file missing beside the executable, a Node.js too old),
// the plugin keeps its port and answers every call with the reason and what to do, so that the
// engine shows it (it shows a plugin's stderr only at debug level); the reason also goes to stderr.
// If the third stage cannot load, the second answers every call the same way (server/start.ts).
//
// The same file is the main script of the single executable (`make package`), where the second
// and third stages are embedded instead of beside it.
import { writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { isAddress } from "./server/protocol";
import type { RunningProvider } from "./server/start";
import {
  PROVIDER,
  SERVER,
  argumentError,
  byHandHint,
  engineCheckInterval,
  startedByHand,
  usage,
  informationRequested,
  loadStage,
  nodeTooOld,
  prefetchStage,
  serveFailure,
  startFailureMessage,
  type LoadedStage,
  type SecondStage,
  type ThirdStage,
} from "./startup";

/**
 * What the engine may pass (provider_plugin.go `buildPluginArguments`), and the build's flag; anything else is refused.
 */
function cli() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: true,
    // --code-cache-out is for the build only (scripts/code-cache.mjs): on exit, write V8 code caches of the second
    // stage (there) and, if it was loaded, of the third (beside it).
    options: {
      logtostderr: { type: "boolean" },
      v: { type: "string" },
      tracing: { type: "string" },
      "code-cache-out": { type: "string" },
      version: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  // The engine's address (host:port) is the one argument that is not a flag, and comes last.
  if (positionals.length > 1 || (positionals.length === 1 && !isAddress(positionals[0]))) {
    const unexpected = positionals.find((p) => !isAddress(p)) ?? positionals[0];
    throw new TypeError(
      `unexpected argument ${JSON.stringify(unexpected)}: the only argument is the engine's address (host:port)`,
    );
  }
  // The engine passes `-v=9`, which parseArgs reads as the short option v with the value "=9".
  const verbosity = Number(String(values.v ?? "0").replace(/^=/, "")) || 0;
  const codeCacheOut = typeof values["code-cache-out"] === "string" ? values["code-cache-out"] : undefined;
  return {
    engineAddress: positionals.at(-1),
    verbose: verbosity > 0 && values.logtostderr === true,
    codeCacheOut,
    information: informationRequested(values),
  };
}

/**
 * How long a plugin that has shut down waits at most for its last answers to leave before it exits: a connection the
 * engine keeps open (or a keep-alive connection to the API) would hold it otherwise.
 */
const EXIT_FLUSH_MS = 1_000;

/** The command line, or the usage and exit 2: a plugin started wrongly must not serve forever. */
function cliOrExit(): ReturnType<typeof cli> {
  try {
    return cli();
  } catch (err) {
    process.stderr.write(`pulumi-resource-hosting: ${argumentError(err as Error)}\n\n${usage()}`);
    process.exit(2);
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

async function main() {
  const { codeCacheOut, information, ...options } = cliOrExit();
  if (information !== undefined) {
    process.stdout.write(information);
    return;
  }
  const checkInterval = engineCheckInterval(process.env);
  // Why the plugin cannot serve, saying what to do: a Node.js too old, a setting that will not do.
  const unusable = nodeTooOld(process.version) ?? checkInterval.problem;
  // Read while we listen and print the port (nothing to read for a plugin that cannot serve).
  const files = unusable ? undefined : prefetchStage(__dirname, SERVER);
  // pauseOnConnect: nothing is read from a connection until gRPC (or the failure server) owns it.
  const listener = createServer({ pauseOnConnect: true });
  let serve: ((socket: Socket) => void) | undefined;
  const waiting: Socket[] = [];
  listener.on("connection", (socket) => (serve ? serve(socket) : waiting.push(socket)));
  const port = await listen(listener);
  process.stdout.write(`${port}\n`);
  if (startedByHand(options.engineAddress, process.stdin, process.stderr))
    process.stderr.write(`${byHandHint(port)}\n`);

  let provider: RunningProvider | undefined;
  let writeCodeCache = () => {};
  /** `unheard`: the engine can no longer hear an answer (see RunningProvider.shutdown). */
  const shutdown = (unheard = false) => {
    listener.close();
    const exit = () => {
      writeCodeCache();
      // Not process.exit() at once: HTTP/2 hands the last answers to their sockets on a later turn of the event loop,
      // and an exit before then loses them. The process ends when nothing is left to do, or EXIT_FLUSH_MS after.
      process.exitCode = 0;
      setTimeout(() => process.exit(0), EXIT_FLUSH_MS).unref();
    };
    // Not loaded (yet, or ever): no call can be in flight, so there is nothing to wait for.
    if (!provider) exit();
    else provider.shutdown(exit, unheard);
  };
  // The engine closes its connection to a plugin, then sends it SIGINT (plugin.go `Close`, `Kill`).
  process.on("SIGINT", () => shutdown(true));
  process.on("SIGTERM", () => shutdown());
  // A closed terminal or a supervisor's hang-up ends it the same way: what is in flight is recorded as it is.
  process.on("SIGHUP", () => shutdown(true));
  // The build's training run ends by closing stdin: Windows has no SIGTERM to handle.
  if (codeCacheOut) process.stdin.on("end", () => shutdown()).resume();

  // Let the port line leave before the (synchronous) load begins.
  await new Promise((resolve) => setImmediate(resolve));
  const started = performance.now();
  let failure = unusable;
  if (files) {
    try {
      const loaded = await loadStage<SecondStage>(files);
      let third: LoadedStage<ThirdStage> | undefined;
      const loadProvider = async (shared: Record<string, unknown>) => {
        const loading = performance.now();
        // Read only now: before the first answer, even reading it would slow that answer down.
        third = await loadStage<ThirdStage>(prefetchStage(__dirname, PROVIDER), shared);
        if (options.verbose)
          process.stderr.write(
            `hosting: provider loaded in ${(performance.now() - loading).toFixed(1)} ms (code cache ${third.cache})\n`,
          );
        return third.stage;
      };
      const loadFailure = (err: unknown) => {
        const message = startFailureMessage(err instanceof Error ? err.message : String(err));
        process.stderr.write(`${message}\n`);
        return message;
      };
      // The engine gone (the CLI killed): the same end as a SIGTERM's, with no one left to answer.
      const gone = (why: string) => {
        if (options.verbose) {
          process.stderr.on("error", () => undefined); // its reader may be gone with the engine
          process.stderr.write(
            `hosting: the engine stopped answering (${why}): cancelling what is in flight and exiting\n`,
          );
        }
        shutdown(true);
      };
      const engineCheck = { intervalMs: checkInterval.ms, gone };
      provider = loaded.stage.startProvider({ ...options, loadProvider, loadFailure, engineCheck });
      serve = (socket) => provider!.serve(socket);
      if (options.verbose) {
        process.stderr.write(
          `hosting: started in ${(performance.now() - started).toFixed(1)} ms after the port line (code cache ${loaded.cache})\n`,
        );
      }
      if (codeCacheOut) {
        writeCodeCache = () => {
          writeFileSync(codeCacheOut, loaded.createCachedData());
          // The third stage's beside the second's, when the training run loaded it.
          if (third) writeFileSync(join(dirname(codeCacheOut), PROVIDER.cache), third.createCachedData());
        };
      }
    } catch (err) {
      provider = undefined;
      failure = err instanceof Error ? err.message : String(err);
    }
  }
  if (failure) {
    const message = startFailureMessage(failure, failure === unusable);
    process.stderr.write(`${message}\n`);
    serve = serveFailure(message);
  }
  for (const socket of waiting.splice(0)) serve!(socket);
}

main().catch((err) => {
  process.stderr.write(`pulumi-resource-hosting: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
