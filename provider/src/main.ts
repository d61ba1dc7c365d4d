// pulumi-resource-hosting: started by the Pulumi engine as
//   pulumi-resource-hosting [--logtostderr] [-v=N] [--tracing ...] <engine address>
// It serves pulumirpc.ResourceProvider on a loopback port and prints that port as the only
// line on stdout; everything else goes to stderr or to the engine's log.
import * as grpc from "@grpc/grpc-js";
import { parseArgs } from "node:util";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { version } from "../../package.json";
import { connectEngineLog } from "./server/engineLog";
import { HostingProviderService } from "./server/provider";

/** The engine raises gRPC's message limit to 400 MiB for large states; so do we. */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;
/** How long a SIGTERM waits for in-flight operations to answer the engine. */
const SHUTDOWN_GRACE_MS = 30_000;

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

async function main() {
  const { engineAddress, verbose } = cli();
  const engine = connectEngineLog(engineAddress);
  const secrets = new Set<string>();
  const redact = (text: string) => [...secrets].reduce((out, secret) => out.split(secret).join("[secret]"), text);
  const service = new HostingProviderService({
    version,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    schemaText: () => JSON.stringify(require("../../schema.json")),
    engine,
    debug: verbose ? (line) => process.stderr.write(`hosting: ${redact(line)}\n`) : undefined,
    onSecret: (secret) => secrets.add(secret),
  });

  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  server.addService(provrpc.ResourceProviderService, service.implementation(redact));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);

  const shutdown = () => {
    // Stop waiting (volume waits end as partial failures that keep the id), let the calls in
    // flight answer the engine so that nothing created goes unrecorded, then exit.
    service.cancelAll();
    const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
    force.unref();
    server.tryShutdown(() => {
      engine.close();
      process.exit(0);
    });
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err) => {
  process.stderr.write(`pulumi-resource-hosting: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
