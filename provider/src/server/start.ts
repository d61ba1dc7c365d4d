// Everything the plugin needs to answer the engine: the gRPC server, the ResourceProvider
// service and the engine log. main.ts loads this module only after it has printed the port
// (see there), and hands it the connections the engine made in the meantime.
import * as grpc from "@grpc/grpc-js";
import type { Socket } from "node:net";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { version } from "../../../package.json";
import { connectEngineLog } from "./engineLog";
import { SERVER_OPTIONS } from "./grpcOptions";
import { HostingProviderService } from "./provider";
import { Secrets } from "./secrets";

/**
 * How long a SIGINT or SIGTERM waits for the calls in flight to answer the engine. The engine
 * sends Cancel, closes the connection, interrupts the plugin and kills it 5 s later
 * (pkg/resource/plugin/plugin.go), so waiting longer than that cannot help.
 */
const SHUTDOWN_GRACE_MS = 4_000;

export interface StartOptions {
  engineAddress: string | undefined;
  verbose: boolean;
}

export interface RunningProvider {
  /** Serve gRPC on a connection accepted by main.ts's listener (paused until now). */
  serve(socket: Socket): void;
  /**
   * Stop waiting (waits end as partial failures that keep the id), let the calls in flight
   * answer the engine so that nothing created goes unrecorded, then call `done`.
   */
  shutdown(done: () => void): void;
}

export function startProvider({ engineAddress, verbose }: StartOptions): RunningProvider {
  const engine = connectEngineLog(engineAddress);
  const secrets = new Secrets();
  const service = new HostingProviderService({
    version,
    engine,
    debug: verbose ? (line) => process.stderr.write(`hosting: ${secrets.redact(line)}\n`) : undefined,
    secrets,
  });

  const server = new grpc.Server(SERVER_OPTIONS);
  server.addService(provrpc.ResourceProviderService, service.implementation());
  // The listening socket is main.ts's; grpc-js serves the connections it accepts, exactly as
  // it serves those of a port it bound itself (same HTTP/2 server options, same shutdown).
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());

  return {
    serve(socket) {
      injector.injectConnection(socket);
      // The listener accepts with pauseOnConnect, so nothing was read before HTTP/2 took the
      // socket over; reading starts now, into the HTTP/2 session.
      socket.resume();
    },
    shutdown(done) {
      service.cancelAll();
      const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
      force.unref();
      server.tryShutdown(() => {
        engine.close();
        done();
      });
    },
  };
}
