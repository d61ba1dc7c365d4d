// The ResourceProvider methods this provider implements, named as grpc-js names them. The second
// stage (start.ts) hands exactly these to the provider once it is loaded, and leaves the others
// to grpc-js, which answers UNIMPLEMENTED at once (the engine's Handshake probe among them);
// provider.ts must implement every one (its `implementation()` is typed by this list).
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
