// The plugin driven through grpc-go, the gRPC library of the real engine, where the rest of the suite
// uses grpc-js: the engine's dial the moment the port line is out, its Handshake and older probe, a
// Container's whole lifecycle, a state over gRPC's default 4 MB limit, and the status details the
// engine reads (a partial failure's ErrorResourceInitFailed, ConfigureErrorMissingKeys). Skipped,
// saying why, without Go and grpc-go.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { version } from "../../package.json";
import { Plugin, initFailure, missingKeys, type GrpcFailure } from "./engine";
import { CONTAINER_LIFECYCLE, describeLifecycle, useFixture } from "./fixture";
import { GoEngine, goEngineMissing } from "./goEngine";

// Builds the stand-in (once per process), before any plugin starts.
const missing = goEngineMissing();
if (missing) console.log(`the plugin through grpc-go: skipped, because ${missing}`);
const withGo = missing ? describe.skip : describe;

/** A fresh plugin, and the stand-in dialled to it the moment its port line is out. */
async function withGoEngine(run: (plugin: Plugin, go: GoEngine) => Promise<void>) {
  const plugin = await Plugin.start({ handshake: false }); // the stand-in's Handshake is the first call
  try {
    const go = await GoEngine.dial(plugin.port);
    try {
      await run(plugin, go);
    } finally {
      await go.close();
    }
  } finally {
    await plugin.stop();
  }
}

withGo("the plugin through grpc-go, the engine's gRPC library", () => {
  test("dialled the moment the port line is out, as the engine dials: Handshake is answered at once (never UNAVAILABLE) with the capabilities, the older probe is answered, and calls work", () =>
    withGoEngine(async (plugin, go) => {
      // Today's engine: Handshake first; UNAVAILABLE would make it retry, and any code but OK or UNIMPLEMENTED would
      // fail the plugin.
      const handshake = new provproto.ProviderHandshakeRequest();
      handshake.setEngineAddress(plugin.engine.address);
      handshake.setConfigureWithUrn(true);
      handshake.setSupportsRefreshBeforeUpdate(true);
      handshake.setInvokeWithPreview(true);
      const shaken = await go.call("handshake", handshake);
      expect(shaken.code).toBe(grpc.status.OK);
      expect(provproto.ProviderHandshakeResponse.deserializeBinary(shaken.response!).toObject()).toEqual({
        acceptSecrets: true,
        acceptResources: true,
        acceptOutputs: false,
        supportsAutonamingConfiguration: true,
        // Newer engines' capabilities (byte strings, outputs in Check, Invoke, Call): this plugin takes none.
        acceptsByteString: false,
        acceptsOutputsInCheck: false,
        acceptsOutputsInInvoke: false,
        acceptsOutputsInCall: false,
      });
      // Older engines (and today's for other plugin kinds): a call of "" with no message; anything but UNAVAILABLE
      // means alive.
      const probe = await go.probe();
      expect(probe.code).not.toBe(grpc.status.UNAVAILABLE);
      expect(probe.code).not.toBe(grpc.status.OK);
      plugin.useTransport(go.transport());
      const info = await plugin.call<plugproto.PluginInfo>("getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(version);
    }));

  test("missing configuration reaches grpc-go as ConfigureErrorMissingKeys, which the engine turns into its config message", () =>
    withGoEngine(async (plugin, go) => {
      plugin.useTransport(go.transport());
      const err = (await plugin.configure({ baseUrl: "http://127.0.0.1:9" }).catch((e) => e)) as GrpcFailure;
      expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(missingKeys(err)).toEqual(["hosting:token"]);
    }));

  describe("against the simulator", () => {
    const fixture = useFixture({ goEngine: true });

    describeLifecycle("web", fixture, CONTAINER_LIFECYCLE);

    test("a message over gRPC's default 4 MB limit goes both ways (the engine raises it to 400 MB, and so does the plugin)", async () => {
      // 5 MB of env: over what the provider sends to the API (Check says so, naming it), and Check's answer
      // carries the inputs back, so 5 MB crosses gRPC in each direction.
      const big = "x".repeat(5 * 1024 * 1024);
      const { inputs, failures } = await fixture.plugin.check("hosting:index:Container", "big", {
        name: "big",
        image: "registry.example.com/team/web:1.0.0",
        env: { BIG: big },
      });
      expect(failures).toEqual([
        { property: "env", reason: expect.stringMatching(/^env\.BIG is 5,242,880 bytes; it may be at most 32 KiB/) },
      ]);
      expect((inputs.env as Record<string, string>).BIG).toHaveLength(big.length);
    });

    test("a wait that outlasts its timeout reaches grpc-go as a partial failure whose ErrorResourceInitFailed keeps the volume's id", async () => {
      fixture.sim.control.setSwitches({ volumeProvisioningMs: -1 });
      try {
        const { inputs } = await fixture.plugin.check("hosting:index:Volume", "stuck", { name: "stuck", sizeGb: 5 });
        const err = (await fixture.plugin
          .create("hosting:index:Volume", "stuck", inputs, { timeout: 1 })
          .catch((e) => e)) as GrpcFailure;
        const volume = fixture.sim.control.snapshot().volumes.find((v) => v.name === "stuck");
        expect(initFailure(err)).toMatchObject({
          id: volume!.id,
          properties: { name: "stuck", status: "provisioning" },
          reasons: [expect.stringMatching(/gave up waiting/)],
        });
      } finally {
        fixture.sim.control.setSwitches({ volumeProvisioningMs: 300 });
      }
    });
  });
});
