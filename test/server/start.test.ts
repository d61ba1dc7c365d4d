// The second stage in-process: gRPC served on a listener's connections, with a third stage that
// the test controls (when it loads, whether it builds), as main.ts hands them over.
import * as grpc from "@grpc/grpc-js";
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { CAPABILITIES, type AnswerOf, type RequestOf } from "../../provider/src/server/methods";
import { SHARED_WITH_PROVIDER, startProvider, type RunningProvider } from "../../provider/src/server/start";
import { version } from "../../package.json";
import { until } from "../grpc/until";

const ROOT = join(__dirname, "..", "..");

/** A stand-in for server/provider.ts: counts what the second stage asks of it. */
function fakeThirdStage(behaviour: { throwOnBuild?: string; throwInCheck?: string } = {}) {
  const seen = { built: 0, cancelAll: 0, checks: 0, handshakes: [] as Array<RequestOf<"handshake">> };
  class HostingProviderService {
    constructor() {
      if (behaviour.throwOnBuild) throw new Error(behaviour.throwOnBuild);
      seen.built++;
    }
    cancelAll() {
      seen.cancelAll++;
    }
    settled() {
      return Promise.resolve();
    }
    answersUnheard() {}
    async handshake(request: RequestOf<"handshake">) {
      seen.handshakes.push(request);
      return {};
    }
    implementation() {
      return {
        check: (_call: unknown, callback: grpc.sendUnaryData<AnswerOf<"check">>) => {
          seen.checks++;
          if (behaviour.throwInCheck) throw new Error(behaviour.throwInCheck);
          callback(null, {});
        },
      };
    }
  }
  return { seen, stage: { HostingProviderService } as unknown as typeof import("../../provider/src/server/provider") };
}

interface Rig {
  provider: RunningProvider;
  client: InstanceType<typeof provrpc.ResourceProviderClient>;
  loads: number;
  /** Lets the third stage's load finish. */
  release(): void;
  /** Closes the client and the listener; and shuts the provider down, unless the test did. */
  close(shutDown?: boolean): Promise<void>;
}

async function rig(stage: ReturnType<typeof fakeThirdStage>["stage"], failures: string[] = []): Promise<Rig> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { loads: 0 };
  const provider = startProvider({
    engineAddress: undefined,
    verbose: false,
    loadProvider: async () => {
      state.loads++;
      await gate;
      return stage;
    },
    loadFailure: (err) => {
      const message = `could not start: ${err instanceof Error ? err.message : String(err)}`;
      failures.push(message);
      return message;
    },
  });
  const listener: Server = createServer({ pauseOnConnect: true }, (socket) => provider.serve(socket));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as { port: number }).port;
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    provider,
    client,
    get loads() {
      return state.loads;
    },
    release,
    close: async (shutDown = true) => {
      client.close();
      if (shutDown) await new Promise<void>((resolve) => provider.shutdown(resolve));
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

const call = <T>(client: Rig["client"], method: "cancel" | "check" | "handshake" | "getPluginInfo", request: unknown) =>
  new Promise<{ err: grpc.ServiceError | null; response?: T }>((resolve) =>
    (client as unknown as Record<string, (r: unknown, cb: (e: grpc.ServiceError | null, r?: T) => void) => void>)[
      method
    ](request, (err, response) => resolve({ err, response })),
  );

describe("the second stage (server/start.ts)", () => {
  test("shares exactly the modules the build leaves external to the third stage (scripts/bundles.mjs)", () => {
    const external = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { SHARED_WITH_PROVIDER } from ${JSON.stringify(join(ROOT, "scripts", "bundles.mjs"))}; console.log(JSON.stringify(SHARED_WITH_PROVIDER))`,
      ],
      { encoding: "utf8" },
    );
    expect(Object.keys(SHARED_WITH_PROVIDER).sort()).toEqual((JSON.parse(external) as string[]).sort());
  });

  test("a Cancel before the provider exists is answered without loading it, and applies to it once built", async () => {
    const third = fakeThirdStage();
    const r = await rig(third.stage);
    try {
      expect((await call<Empty>(r.client, "cancel", new Empty())).err).toBeNull();
      expect(r.loads).toBe(0);
      const checked = call(r.client, "check", new provproto.CheckRequest());
      r.release();
      expect((await checked).err).toBeNull();
      expect(third.seen).toEqual({ built: 1, cancelAll: 1, checks: 1, handshakes: [] });
    } finally {
      await r.close();
    }
  });

  test("Handshake is answered at once with the capabilities, without the provider, which is told what the engine said once built", async () => {
    const third = fakeThirdStage();
    const r = await rig(third.stage);
    try {
      const request = new provproto.ProviderHandshakeRequest();
      request.setEngineAddress("127.0.0.1:50051");
      request.setRootDirectory("/plugins/hosting");
      request.setConfigureWithUrn(true);
      request.setSupportsRefreshBeforeUpdate(true);
      request.setInvokeWithPreview(true);
      const { err, response } = await call<provproto.ProviderHandshakeResponse>(r.client, "handshake", request);
      expect(err).toBeNull();
      expect(response!.toObject()).toEqual({
        acceptSecrets: CAPABILITIES.acceptSecrets,
        acceptResources: CAPABILITIES.acceptResources,
        acceptOutputs: CAPABILITIES.acceptOutputs,
        supportsAutonamingConfiguration: CAPABILITIES.supportsAutonamingConfiguration,
        // Newer engines' capabilities (byte strings, outputs in Check, Invoke, Call): this plugin takes none.
        acceptsByteString: false,
        acceptsOutputsInCheck: false,
        acceptsOutputsInInvoke: false,
        acceptsOutputsInCall: false,
      });
      expect(CAPABILITIES).toMatchObject({ acceptSecrets: true, supportsAutonamingConfiguration: true });
      expect(third.seen.built).toBe(0);
      // The answer starts the provider's load, as GetPluginInfo's does.
      await until(() => r.loads > 0, "the provider's load after Handshake");
      r.release();
      await until(() => third.seen.built > 0, "the provider built");
      expect(third.seen.handshakes).toEqual([
        {
          engineAddress: "127.0.0.1:50051",
          rootDirectory: "/plugins/hosting",
          programDirectory: undefined,
          configureWithUrn: true,
          supportsViews: false,
          supportsRefreshBeforeUpdate: true,
          invokeWithPreview: true,
          mapperTarget: undefined,
          loaderTarget: undefined,
          resolverTarget: undefined,
        },
      ]);
      // A Handshake to a provider already built reaches it at once.
      request.setEngineAddress("127.0.0.1:50052");
      expect((await call(r.client, "handshake", request)).err).toBeNull();
      expect(third.seen.handshakes.map((h) => h.engineAddress)).toEqual(["127.0.0.1:50051", "127.0.0.1:50052"]);
    } finally {
      await r.close();
    }
  });

  test("a Handshake with a field that cannot be right is refused naming it, and nothing of it reaches the provider", async () => {
    const third = fakeThirdStage();
    const r = await rig(third.stage);
    try {
      const request = new provproto.ProviderHandshakeRequest();
      request.setEngineAddress("127.0.0.1:1\nx");
      const { err } = await call(r.client, "handshake", request);
      expect(err).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      expect(err!.details).toMatch(/^Handshake\.engine_address: "127\.0\.0\.1:1\\nx" is not an address to dial: give /);
      r.release();
      expect((await call(r.client, "check", new provproto.CheckRequest())).err).toBeNull();
      expect(third.seen).toMatchObject({ built: 1, handshakes: [] });
    } finally {
      await r.close();
    }
  });

  test("GetPluginInfo is answered at once with the version, without the provider", async () => {
    const third = fakeThirdStage();
    const r = await rig(third.stage);
    try {
      const { err, response } = await call<plugproto.PluginInfo>(r.client, "getPluginInfo", new Empty());
      expect(err).toBeNull();
      expect(response!.getVersion()).toBe(version);
      expect(third.seen.built).toBe(0);
    } finally {
      r.release();
      await r.close();
    }
  });

  test("a shutdown while the provider loads cancels it once built", async () => {
    const third = fakeThirdStage();
    const r = await rig(third.stage);
    const checked = call(r.client, "check", new provproto.CheckRequest());
    await until(() => r.loads > 0, "the provider's load"); // the Check's arrival started it
    expect(r.loads).toBe(1);
    const stopped = new Promise<void>((resolve) => r.provider.shutdown(resolve));
    r.release();
    expect((await checked).err).toBeNull();
    await stopped;
    expect(third.seen.cancelAll).toBeGreaterThanOrEqual(1);
    await r.close(false);
  });

  test("a provider that throws while it is built: every call answers why, as for a load that failed", async () => {
    const failures: string[] = [];
    const r = await rig(fakeThirdStage({ throwOnBuild: "no provider today" }).stage, failures);
    r.release();
    try {
      for (let i = 0; i < 2; i++) {
        const { err } = await call(r.client, "check", new provproto.CheckRequest());
        expect([err?.code, err?.details]).toEqual([
          grpc.status.FAILED_PRECONDITION,
          "could not start: no provider today",
        ]);
      }
      expect(failures).toEqual(["could not start: no provider today"]);
    } finally {
      await r.close();
    }
  });

  test("a method that throws is answered INTERNAL with its reason, not left hanging", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const r = await rig(fakeThirdStage({ throwInCheck: "check broke" }).stage);
    r.release();
    try {
      const { err } = await call(r.client, "check", new provproto.CheckRequest());
      expect([err?.code, err?.details]).toEqual([grpc.status.INTERNAL, "check: check broke"]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await r.close();
    }
  });
});
