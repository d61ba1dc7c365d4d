// The plugin with the window-plus-pause admission control (windowPause.ts) in place of the
// adaptive RateController, for row 10 only; bundled by lib.ts's `bundledPlugin`. Started as the
// engine starts the plugin: prints its port, serves the same ResourceProvider service, stops
// on SIGTERM.   BENCH_WINDOW: the in-flight window (default 6, the adaptive control's start).
import * as grpc from "@grpc/grpc-js";
import { version } from "../package.json";
import { resourceProviderService } from "../provider/src/server/methods";
import { connectEngineLog } from "../provider/src/server/engineLog";
import { SERVER_OPTIONS } from "../provider/src/server/grpcOptions";
import { HostingProviderService } from "../provider/src/server/provider";
import { WindowPause } from "./windowPause";

async function main() {
  const window = process.env.BENCH_WINDOW ? Number(process.env.BENCH_WINDOW) : undefined;
  const service = new HostingProviderService({
    version,
    engine: connectEngineLog(process.argv.at(-1)),
    rateController: () => new WindowPause(window),
  });
  const server = new grpc.Server(SERVER_OPTIONS);
  server.addService(resourceProviderService(), service.implementation());
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? rej(err) : res(p))),
  );
  process.stdout.write(`${port}\n`);
  process.on("SIGTERM", () => {
    service.cancelAll();
    server.tryShutdown(() => process.exit(0));
  });
}

main().catch((err) => {
  process.stderr.write(`window plugin: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
