// The ResourceProvider methods this provider implements, named as grpc-js names them, each with
// its request's and its answer's message (messages.ts, read and written by codec.ts): every handler
// takes a plain request and gives a plain answer. The second stage (start.ts) hands them to the
// provider once it is loaded, except three it answers itself: Handshake and GetPluginInfo (the
// engine's first calls, before the provider is loaded) and Cancel (noted, and applied to the
// provider whenever it exists). grpc-js answers every other method UNIMPLEMENTED. provider.ts
// implements every one of the list (its `implementation()` is typed by it), so that it can also
// be served whole, with no second stage (bench/windowPlugin.ts).
import type * as grpc from "@grpc/grpc-js";
import * as codec from "./codec";
import * as messages from "./messages";

export const PROVIDER_METHODS = {
  handshake: { request: messages.ProviderHandshakeRequest, answer: messages.ProviderHandshakeResponse },
  getPluginInfo: { request: messages.Empty, answer: messages.PluginInfo },
  getSchema: { request: messages.GetSchemaRequest, answer: messages.GetSchemaResponse },
  cancel: { request: messages.Empty, answer: messages.Empty },
  attach: { request: messages.PluginAttach, answer: messages.Empty },
  checkConfig: { request: messages.CheckRequest, answer: messages.CheckResponse },
  diffConfig: { request: messages.DiffRequest, answer: messages.DiffResponse },
  configure: { request: messages.ConfigureRequest, answer: messages.ConfigureResponse },
  check: { request: messages.CheckRequest, answer: messages.CheckResponse },
  diff: { request: messages.DiffRequest, answer: messages.DiffResponse },
  create: { request: messages.CreateRequest, answer: messages.CreateResponse },
  read: { request: messages.ReadRequest, answer: messages.ReadResponse },
  update: { request: messages.UpdateRequest, answer: messages.UpdateResponse },
  delete: { request: messages.DeleteRequest, answer: messages.Empty },
  invoke: { request: messages.InvokeRequest, answer: messages.InvokeResponse },
} as const;

export type ProviderMethod = keyof typeof PROVIDER_METHODS;
/** A method's request, as codec.ts reads it. */
export type RequestOf<M extends ProviderMethod> = codec.Message<(typeof PROVIDER_METHODS)[M]["request"]>;
/** A method's answer, as codec.ts writes it (a field left out is proto3's default). */
export type AnswerOf<M extends ProviderMethod> = Partial<codec.Message<(typeof PROVIDER_METHODS)[M]["answer"]>>;

/**
 * What this provider accepts, in Handshake's answer and again in Configure's (an engine that did
 * not shake hands reads them there; one that did ignores Configure's): secrets and resource
 * references (provider.proto: a provider that implements Handshake must accept both; marshal.ts
 * takes a reference's id), but not output values, and the engine's autonaming options in Check.
 */
export const CAPABILITIES = {
  acceptSecrets: true,
  acceptResources: true,
  acceptOutputs: false,
  supportsAutonamingConfiguration: true,
} as const satisfies AnswerOf<"handshake">;

/** What the engine said of itself in Handshake, kept for the calls after it (absent: an engine without Handshake). */
export type EngineProtocol = Pick<
  RequestOf<"handshake">,
  | "engineAddress"
  | "rootDirectory"
  | "programDirectory"
  | "configureWithUrn"
  | "supportsRefreshBeforeUpdate"
  | "invokeWithPreview"
>;

/** `/pulumirpc.ResourceProvider/CheckConfig` for `checkConfig`: the method's path, as provider.proto names it. */
export const pathOf = (method: ProviderMethod) =>
  `/pulumirpc.ResourceProvider/${method[0].toUpperCase()}${method.slice(1)}`;

/** The service definition grpc-js serves: every method of the list, its messages read and written by codec.ts. */
export function resourceProviderService(): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [method, { request, answer }] of Object.entries(PROVIDER_METHODS) as Array<
    [ProviderMethod, { request: codec.Schema; answer: codec.Schema }]
  >) {
    definition[method] = {
      path: pathOf(method),
      requestStream: false,
      responseStream: false,
      requestSerialize: (message) => codec.encode(request, message as never),
      requestDeserialize: (bytes) => codec.decode(request, bytes),
      responseSerialize: (message) => codec.encode(answer, message as never),
      responseDeserialize: (bytes) => codec.decode(answer, bytes),
    };
  }
  return definition;
}
