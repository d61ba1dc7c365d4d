// The service's own answers to the engine's first calls, in-process (the gRPC suite drives the rest).
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { decode } from "../../provider/src/server/codec";
import { ProviderHandshakeRequest } from "../../provider/src/server/messages";
import { CAPABILITIES } from "../../provider/src/server/methods";
import { HostingProviderService } from "../../provider/src/server/provider";

function service() {
  const attached: string[] = [];
  const provider = new HostingProviderService({
    version: "1.2.3",
    engine: { log: async () => undefined, attach: (address) => void attached.push(address), close: () => undefined },
  });
  return { provider, attached };
}

test("Handshake: what the engine said is kept for the calls after it, its address is where the log goes, and the answer is the capabilities", async () => {
  const { provider, attached } = service();
  expect(provider.engineProtocol).toBeUndefined();
  const request = new provproto.ProviderHandshakeRequest();
  request.setEngineAddress("127.0.0.1:50051");
  request.setRootDirectory("/plugins/hosting");
  request.setProgramDirectory("/plugins/hosting/bin");
  request.setConfigureWithUrn(true);
  request.setSupportsRefreshBeforeUpdate(true);
  request.setInvokeWithPreview(true);
  const answer = await provider.handshake(decode(ProviderHandshakeRequest, request.serializeBinary()));
  expect(answer).toEqual(CAPABILITIES);
  expect(provider.engineProtocol).toMatchObject({
    engineAddress: "127.0.0.1:50051",
    rootDirectory: "/plugins/hosting",
    programDirectory: "/plugins/hosting/bin",
    configureWithUrn: true,
    supportsRefreshBeforeUpdate: true,
    invokeWithPreview: true,
  });
  expect(attached).toEqual(["127.0.0.1:50051"]);
});

test("a Handshake without an engine address leaves the log where it is", async () => {
  const { provider, attached } = service();
  await provider.handshake(
    decode(ProviderHandshakeRequest, new provproto.ProviderHandshakeRequest().serializeBinary()),
  );
  expect(provider.engineProtocol).toMatchObject({ engineAddress: "", supportsRefreshBeforeUpdate: false });
  expect(attached).toEqual([]);
});

test("GetPluginInfo answers the version it was given", async () => {
  expect(await service().provider.getPluginInfo({})).toEqual({ version: "1.2.3" });
});
