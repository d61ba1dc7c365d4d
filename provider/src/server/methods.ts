// The ResourceProvider methods this provider implements, named as grpc-js names them. The second
// stage (start.ts) hands these to the provider once it is loaded, except two it answers itself:
// GetPluginInfo (the engine's first call, before the provider is loaded) and Cancel (noted, and
// applied to the provider whenever it exists). grpc-js answers every other method UNIMPLEMENTED at
// once (the engine's Handshake probe among them). provider.ts implements every one of the list
// (its `implementation()` is typed by it), so that it can also be served whole, with no second
// stage (bench/windowPlugin.ts).
import type * as grpc from "@grpc/grpc-js";

export const PROVIDER_METHODS = [
  "getPluginInfo",
  "getSchema",
  "cancel",
  "attach",
  "checkConfig",
  "diffConfig",
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
  "invoke",
] as const;

export type ProviderMethod = (typeof PROVIDER_METHODS)[number];

/**
 * The methods whose messages carry properties, which codec.ts reads and writes instead of the stubs:
 * each one's request, and its answer too where "answer" is said (the others answer on the stubs).
 * Declared here, apart from the codec, so that the second stage can route them before it loads the
 * codec and protobufjs, which wait for the first such call (start-up answers without them).
 */
export const DIRECT_CODEC = {
  checkConfig: "answer",
  diffConfig: "request",
  check: "answer",
  diff: "request",
  create: "answer",
  read: "answer",
  update: "answer",
  delete: "request",
  invoke: "answer",
} as const satisfies Partial<Record<ProviderMethod, "request" | "answer">>;

export type DirectMethod = keyof typeof DIRECT_CODEC;

/** What the codec gives the service definition (codec.ts). */
export interface DirectCodec {
  decodeRequest(method: DirectMethod, bytes: Uint8Array): unknown;
  encodeAnswer(method: DirectMethod, message: unknown): Buffer;
}

/**
 * The stubs' service definition, with the codec in place of theirs for the methods of DIRECT_CODEC.
 * `codec` gives it when a call needs it: the second stage loads it with the first call that carries
 * properties.
 */
export function withDirectCodec(service: grpc.ServiceDefinition, codec: () => DirectCodec): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = { ...service };
  for (const [method, carries] of Object.entries(DIRECT_CODEC) as Array<[DirectMethod, "request" | "answer"]>) {
    definition[method] = {
      ...service[method],
      requestDeserialize: (bytes: Buffer) => codec().decodeRequest(method, bytes),
      ...(carries === "answer"
        ? { responseSerialize: (message: unknown) => codec().encodeAnswer(method, message) }
        : {}),
    };
  }
  return definition as grpc.ServiceDefinition;
}
