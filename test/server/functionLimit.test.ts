// A function's time limit (INVOKE_TIMEOUT_MS, shortened here through ServiceOptions) ends the call
// when it runs past it, whatever it was doing, and says which limit it was.
import * as grpc from "@grpc/grpc-js";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { decode } from "../../provider/src/server/codec";
import { ConfigureRequest, InvokeRequest } from "../../provider/src/server/messages";
import { HostingProviderService } from "../../provider/src/server/provider";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

// The limit is far below the fault's latency, and the call that must answer has a limit of its own far above
// anything a loaded machine takes, so that no figure here is a guess at the machine's speed.
const LIMIT_MS = 1_000;
const FAULT_LATENCY_MS = 8_000;
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  // The request the limit gave up on is still held by the simulator; it ends before the API client is closed.
  await new Promise((resolve) => setTimeout(resolve, FAULT_LATENCY_MS + 500));
  await sim.close();
  await closeSharedDispatcher();
});

const invoke = (tok: string, args: Record<string, unknown>) => {
  const request = new provproto.InvokeRequest();
  request.setTok(tok);
  request.setArgs(Struct.fromJavaScript(args as any));
  return decode(InvokeRequest, request.serializeBinary());
};

const configured = async (functionTimeoutMs: number) => {
  const service = new HostingProviderService({
    version: "0.0.0",
    engine: { log: async () => undefined, attach: () => undefined, close: () => undefined },
    functionTimeoutMs,
  });
  const configure = new provproto.ConfigureRequest();
  configure.setArgs(Struct.fromJavaScript({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] }));
  await service.configure(decode(ConfigureRequest, configure.serializeBinary()));
  return service;
};

test("a list function answers within its limit", async () => {
  const service = await configured(60_000);
  expect(await service.invoke(invoke("hosting:index:getContainers", {}))).toMatchObject({ return: { services: [] } });
});

test("a list function still waiting for the API at its limit answers DEADLINE_EXCEEDED, naming the limit", async () => {
  const service = await configured(LIMIT_MS);
  sim.control.injectFault({ kind: "latency", method: "GET", path: "/containers$", latencyMs: FAULT_LATENCY_MS });

  const started = Date.now();
  const failure = await service.invoke(invoke("hosting:index:getContainers", {})).then(
    () => undefined,
    (err) => err,
  );
  expect(failure).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
  expect(failure.message).toContain("did not finish within 1s (the time a function may take)");
  // It gave up at its limit, not when the API answered.
  expect(Date.now() - started).toBeLessThan(FAULT_LATENCY_MS);
  service.cancelAll();
});
