// pulumi-resource-hosting: started by the Pulumi engine as
//   pulumi-resource-hosting [--logtostderr] [-v=N] [--tracing ...] <engine address>
// It serves pulumirpc.ResourceProvider on a loopback port and prints that port as the only
// line on stdout; everything else goes to stderr or to the engine's log.
//
// Start-up is on the path of every `pulumi preview`, so this file needs nothing but Node's
// built-ins: it listens, prints the port, and only then loads the gRPC server and the
// provider (server/start.ts, the bulk of the bundle). Connections the engine opens
// meanwhile are accepted paused and handed to gRPC once it is loaded, so no byte is lost
// and no call fails; the engine's first call simply waits for the load, which now overlaps
// with the engine's own work instead of preceding the port line.
import { createServer, type Server, type Socket } from "node:net";
import { parseArgs } from "node:util";
import type { RunningProvider } from "./server/start";

function cli() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    strict: false,
    allowPositionals: true,
    options: { logtostderr: { type: "boolean" }, v: { type: "string" }, tracing: { type: "string" } },
  });
  // The engine passes `-v=9`, which parseArgs reads as the short option v with the value "=9".
  const verbosity = Number(String(values.v ?? "0").replace(/^=/, "")) || 0;
  return { engineAddress: positionals.at(-1), verbose: verbosity > 0 && values.logtostderr === true };
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
  const options = cli();
  // pauseOnConnect: nothing is read from a connection until gRPC owns it.
  const listener = createServer({ pauseOnConnect: true });
  let provider: RunningProvider | undefined;
  const waiting: Socket[] = [];
  listener.on("connection", (socket) => (provider ? provider.serve(socket) : waiting.push(socket)));
  const port = await listen(listener);
  process.stdout.write(`${port}\n`);

  const shutdown = () => {
    listener.close();
    // Not loaded yet: no call can be in flight, so there is nothing to wait for.
    if (!provider) process.exit(0);
    provider.shutdown(() => process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  // Let the port line leave before the (synchronous) load begins.
  await new Promise((resolve) => setImmediate(resolve));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startProvider } = require("./server/start") as typeof import("./server/start");
  provider = startProvider(options);
  for (const socket of waiting.splice(0)) provider.serve(socket);
}

main().catch((err) => {
  process.stderr.write(`pulumi-resource-hosting: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
