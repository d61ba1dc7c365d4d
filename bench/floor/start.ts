// The floor: a second stage that loads what every call of the plugin needs (grpc-js, node:http2,
// the Pulumi protobuf stubs) and nothing of the provider. Built beside the plugin's own first stage
// and code-cached the same way (lib.ts `floorPlugins`), it measures what gRPC on Node.js costs
// before the provider does anything:
//   GetPluginInfo      answers the version (row 1: spawn → first answer)
//   Read, Check, Diff  answer every request with the same reply, given as bytes in
//                      BENCH_FLOOR_REPLIES (JSON: method → base64), never decoding or encoding a
//                      message (rows 2 and 7: carrying a refresh's messages; row 5: a preview's)
// Every other method, and one without a reply, is UNIMPLEMENTED.
import * as grpc from "@grpc/grpc-js";
import type { Socket } from "node:net";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { version } from "../../package.json";
import { SERVER_OPTIONS } from "../../provider/src/server/grpcOptions";
import type { RunningProvider, StartOptions } from "../../provider/src/server/start";

const passThrough = (bytes: Buffer) => bytes;
const REPLYING = ["read", "check", "diff"] as const;

export function startProvider(_options: StartOptions): RunningProvider {
  const server = new grpc.Server(SERVER_OPTIONS);
  const replies: Record<string, string> = JSON.parse(process.env.BENCH_FLOOR_REPLIES ?? "{}");
  const definition: Record<string, grpc.MethodDefinition<any, any>> = {
    getPluginInfo: provrpc.ResourceProviderService.getPluginInfo,
  };
  const implementation: grpc.UntypedServiceImplementation = {
    getPluginInfo: (_call: unknown, callback: grpc.sendUnaryData<plugproto.PluginInfo>) => {
      const info = new plugproto.PluginInfo();
      info.setVersion(version);
      callback(null, info);
    },
  };
  for (const method of REPLYING.filter((m) => replies[m] !== undefined)) {
    const reply = Buffer.from(replies[method], "base64");
    definition[method] = {
      ...provrpc.ResourceProviderService[method],
      requestDeserialize: passThrough,
      responseSerialize: passThrough,
    };
    implementation[method] = (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => callback(null, reply);
  }
  server.addService(definition as grpc.ServiceDefinition, implementation);
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  return {
    serve(socket: Socket) {
      injector.injectConnection(socket);
      socket.resume();
    },
    shutdown(done) {
      server.tryShutdown(() => done());
    },
  };
}
