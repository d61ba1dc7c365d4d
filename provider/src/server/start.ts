// The second stage: the gRPC server, the codec and the engine log. main.ts loads this module only
// after it has printed the port (see there), and hands it the connections the engine made in the
// meantime.
//
// The provider itself (server/provider.ts: its declarations, the API client) is the third stage,
// a bundle of its own with its own code cache: Handshake and GetPluginInfo, the engine's first
// calls, need only the capabilities and the version, so they are answered as soon as gRPC is up,
// and the provider is loaded right after (or by the first call that needs it), while the engine
// goes on with its own work. A stage's code cache is read whole, so keeping the provider out of
// this one is what makes the first answer quick (docs/performance.md, row 1). The codec
// (protobufjs) loads with this stage: it reads the first request, and it is a fraction of the
// size of google-protobuf and the Pulumi stubs, which this stage no longer loads at all.
import * as grpc from "@grpc/grpc-js";
import type { Socket } from "node:net";
import * as protobufjs from "protobufjs/minimal";
import { version } from "../../../package.json";
import { connectEngineLog } from "./engineLog";
import { SERVER_OPTIONS } from "./grpcOptions";
import { CAPABILITIES, PROVIDER_METHODS, resourceProviderService, type AnswerOf, type RequestOf } from "./methods";
import { handshakeProblems } from "./protocol";
import type { HostingProviderService } from "./provider";
import { Secrets } from "../redact";
import { UnrecordedCreates, unrecordedFolder } from "./unrecorded";

/**
 * How long a SIGINT or SIGTERM keeps gRPC open for the calls in flight to answer the engine. The
 * engine sends Cancel, closes the connection, interrupts the plugin and kills it 5 s later
 * (pkg/resource/plugin/plugin.go), so keeping it longer cannot help. The process itself stays
 * until the calls have ended (their waits end at once; a write in flight answers within its
 * request timeout): a create whose engine is gone keeps what it made then (unrecorded.ts).
 */
const SHUTDOWN_GRACE_MS = 4_000;
/** How long after answering Handshake or GetPluginInfo the provider starts loading unless a call asks for it first. */
const PRELOAD_AFTER_MS = 10;

/**
 * The modules the third stage takes from this one instead of bundling its own copies: the build
 * leaves exactly these external in it (scripts/bundles.mjs `SHARED_WITH_PROVIDER`), and
 * test/server/start.test.ts checks the two lists agree. One copy of each: grpc-js checks its own
 * classes, and the third stage writes errors' details with the codec, on protobufjs.
 */
export const SHARED_WITH_PROVIDER: Record<string, unknown> = {
  "@grpc/grpc-js": grpc,
  "protobufjs/minimal": protobufjs,
};

export interface StartOptions {
  engineAddress: string | undefined;
  verbose: boolean;
  /** Loads the third stage (server/provider.ts), giving it `shared` for the modules it leaves external. */
  loadProvider(shared: Record<string, unknown>): Promise<typeof import("./provider")>;
  /** What every call answers when the third stage cannot be loaded (main.ts words it, and says it on stderr once). */
  loadFailure(err: unknown): string;
  /**
   * How often to ask the engine that started the plugin whether it is still there (engineLog.ts `watch`), and what
   * ends the plugin once it is not (main.ts: the shutdown a SIGTERM starts). Without it, nothing is asked (this
   * stage run in-process by a test).
   */
  engineCheck?: { intervalMs: number; gone(why: string): void };
}

export interface RunningProvider {
  /** Serve gRPC on a connection accepted by main.ts's listener (paused until now). */
  serve(socket: Socket): void;
  /**
   * Stop waiting (waits end as partial failures that keep the id), let the calls in flight
   * answer the engine so that nothing created goes unrecorded, then call `done`. `unheard`: the
   * engine can hear no answer any more (it closed its connection before its SIGINT, or it is gone),
   * so a create that ends now keeps what it made for the next run (unrecorded.ts).
   */
  shutdown(done: () => void, unheard?: boolean): void;
}

export function startProvider(options: StartOptions): RunningProvider {
  const { engineAddress, verbose, loadProvider, loadFailure, engineCheck } = options;
  const engine = connectEngineLog(engineAddress);
  // Once the engine is gone, nothing the plugin does can be recorded: nothing more is said to it, and the plugin
  // ends (engineCheck.gone), cancelling every operation in flight as a Cancel does.
  const watchEngine = () => {
    if (!engineCheck) return;
    engine.watch(engineCheck.intervalMs, (why) => {
      engine.close();
      engineCheck.gone(why);
    });
  };
  if (engineAddress) watchEngine();
  const secrets = new Secrets();
  let service: HostingProviderService | undefined;
  // A Cancel (or a shutdown) that came before the provider was built still applies to it, and so
  // does what the engine said in Handshake.
  let cancelled = false;
  let handshake: RequestOf<"handshake"> | undefined;
  const debug = verbose ? (line: string) => process.stderr.write(`hosting: ${secrets.say(line)}\n`) : undefined;
  const build = ({ HostingProviderService }: typeof import("./provider")) => {
    service = new HostingProviderService({
      version,
      engine,
      debug,
      secrets,
      unrecorded: new UnrecordedCreates(unrecordedFolder(process.env), debug),
    });
    if (handshake) service.handshake(handshake).catch(() => undefined); // checked before it was kept
    if (cancelled) service.cancelAll();
    return service.implementation();
  };
  const early: EarlyAnswers = {
    handshake(request) {
      handshake = request;
      // An engine that started the plugin without passing its address gives it here, and is watched from now on. One
      // that attaches to a plugin started by hand (PULUMI_DEBUG_PROVIDERS) sends no root directory: that plugin
      // outlives the run, to serve the next one, as a Go provider in attach mode does.
      if (!engineAddress && request.engineAddress && request.rootDirectory !== undefined) {
        engine.attach(request.engineAddress);
        watchEngine();
      }
      service?.handshake(request).catch(() => undefined); // checked before it was kept
    },
    cancel() {
      cancelled = true;
      service?.cancelAll();
    },
  };
  let methods: Promise<grpc.UntypedServiceImplementation> | undefined;
  const loaded = () =>
    (methods ??= loadProvider(SHARED_WITH_PROVIDER)
      .then(build)
      .catch((err: unknown) => {
        throw new Error(loadFailure(err));
      }));

  const calls = new CallsInFlight();
  const server = new grpc.Server(SERVER_OPTIONS);
  server.addService(resourceProviderService(), calls.counted(lazily(loaded, early, (text) => secrets.say(text))));
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
    shutdown(done, unheard = false) {
      if (unheard) service?.answersUnheard();
      early.cancel();
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        engine.close();
        done();
      };
      const force = setTimeout(() => {
        server.forceShutdown();
        finish();
      }, SHUTDOWN_GRACE_MS);
      force.unref();
      // The calls end first (their waits at once; a write in flight when it answers), each answer handed to gRPC; then
      // gRPC closes each connection once what was written on it has gone (closing it first let a connection go with
      // an answer still to come; under Node.js 24 grpc-js's tryShutdown alone did not wait for a call on an injected
      // connection). A create whose engine is gone keeps what it made meanwhile (unrecorded.ts), rather than being
      // cut by the exit.
      void (service?.settled() ?? Promise.resolve()).then(() => calls.idle(() => server.tryShutdown(finish)));
    },
  };
}

/** The unary calls being answered, so that a shutdown waits for their answers before it ends the process. */
class CallsInFlight {
  private count = 0;
  private waiting: Array<() => void> = [];

  /** `implementation` with each method counted from its call to its answer. */
  counted(implementation: grpc.UntypedServiceImplementation): grpc.UntypedServiceImplementation {
    return Object.fromEntries(
      Object.entries(implementation).map(([name, method]) => [
        name,
        (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          this.count++;
          let answered = false;
          (method as grpc.handleUnaryCall<unknown, unknown>)(call, (...answer) => {
            callback(...answer);
            if (answered) return;
            answered = true;
            if (--this.count === 0) for (const resume of this.waiting.splice(0)) setImmediate(resume);
          });
        },
      ]),
    );
  }

  /** `then` once no call is in flight (at once if none is). */
  idle(then: () => void): void {
    if (this.count === 0) then();
    else this.waiting.push(then);
  }
}

/** What the second stage does with the calls it answers itself, for the provider, built or still to be. */
interface EarlyAnswers {
  handshake(request: RequestOf<"handshake">): void;
  cancel(): void;
}

type Answered<M extends keyof typeof PROVIDER_METHODS> = grpc.handleUnaryCall<RequestOf<M>, AnswerOf<M>>;

/**
 * The provider's methods (methods.ts), each handed to the provider once it is loaded; grpc-js
 * answers the others UNIMPLEMENTED. Handshake and GetPluginInfo, the engine's first calls,
 * answer at once and then start the load; a Cancel before the provider exists is noted without
 * loading it. If the load fails, every call answers why (FAILED_PRECONDITION, as main.ts's
 * failure server does), since the engine shows a plugin's stderr only at debug level.
 */
function lazily(
  loaded: () => Promise<grpc.UntypedServiceImplementation>,
  early: EarlyAnswers,
  /** Every text said to the engine: redacted and bounded, as the provider says its own. */
  say: (text: string) => string,
): grpc.UntypedServiceImplementation {
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(PROVIDER_METHODS)) {
    implementation[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      loaded()
        .then(
          (methods) => (methods[method] as grpc.handleUnaryCall<unknown, unknown>)(call, callback),
          (err: Error) => callback({ code: grpc.status.FAILED_PRECONDITION, details: say(err.message) }),
        )
        .catch((err: unknown) =>
          callback({
            code: grpc.status.INTERNAL,
            details: say(`${method}: ${err instanceof Error ? err.message : String(err)}`),
          }),
        );
  }
  // Not at once: the answer's frames leave over the next turns of the event loop (grpc-js sends
  // the message, then the trailers), and a load started before they have gone delays them by
  // the load (~18 ms measured, with setImmediate or a 0 ms timer; none with 10 ms). A call that
  // needs the provider sooner loads it itself. A failure is answered to the next call.
  const preload = () => setTimeout(() => loaded().catch(() => undefined), PRELOAD_AFTER_MS);
  const handshake: Answered<"handshake"> = (call, callback) => {
    // A request that cannot be right is refused whole, and nothing of it kept: its engine address dialled for the
    // engine log would end the process.
    const problems = handshakeProblems(call.request);
    if (problems.length > 0) return callback({ code: grpc.status.INVALID_ARGUMENT, details: say(problems.join("; ")) });
    early.handshake(call.request);
    callback(null, CAPABILITIES);
    preload();
  };
  const getPluginInfo: Answered<"getPluginInfo"> = (_call, callback) => {
    callback(null, { version });
    preload();
  };
  const cancel: Answered<"cancel"> = (_call, callback) => {
    early.cancel();
    callback(null, {});
  };
  return { ...implementation, handshake, getPluginInfo, cancel };
}
