// ServiceOptions.rateController: a plugin built with another admission control (the benchmark's
// window-plus-pause plugin) gets it in the API client that Configure makes.
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Outcome, Ticket } from "../../provider/src/api/rateControl";
import { decode } from "../../provider/src/server/codec";
import { ConfigureRequest, CreateRequest } from "../../provider/src/server/messages";
import { closeSharedDispatcher } from "../../provider/src/api/http";
import { HostingProviderService } from "../../provider/src/server/provider";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
  await closeSharedDispatcher();
});

test("Configure's client admits every request through the admission control the options make", async () => {
  const outcomes: Outcome[] = [];
  let made = 0;
  const service = new HostingProviderService({
    version: "0.0.0",
    engine: { log: async () => undefined, attach: () => undefined, close: () => undefined },
    rateController: () => {
      made++;
      return {
        acquire: async (): Promise<Ticket> => ({ epoch: 0, windowLimited: false }),
        settle: (_ticket, outcome) => void outcomes.push(outcome),
        snapshot: () => ({}),
      };
    },
  });
  const configure = new provproto.ConfigureRequest();
  configure.setArgs(Struct.fromJavaScript({ baseUrl: sim.url, token: ALICE.token, projectId: ALICE.projects[0] }));
  await service.configure(decode(ConfigureRequest, configure.serializeBinary()));

  const create = new provproto.CreateRequest();
  create.setUrn("urn:pulumi:test::hosting-tests::hosting:index:Registry::reg");
  create.setType("hosting:index:Registry");
  create.setProperties(Struct.fromJavaScript({ name: "reg", host: "ghcr.io", username: "ci" }));
  await service.create(decode(CreateRequest, create.serializeBinary()));

  expect(made).toBe(1);
  expect(outcomes.length).toBeGreaterThan(0);
  expect(outcomes.every((o) => o.kind === "success")).toBe(true);
  expect(outcomes.length).toBe(sim.control.requests().length);
});
