// The ResourceProvider methods this provider implements, named as grpc-js names them. The second
// stage (start.ts) hands these to the provider once it is loaded, except two it answers itself:
// GetPluginInfo (the engine's first call, before the provider is loaded) and Cancel (noted, and
// applied to the provider whenever it exists). grpc-js answers every other method UNIMPLEMENTED at
// once (the engine's Handshake probe among them). provider.ts implements every one of the list
// (its `implementation()` is typed by it), so that it can also be served whole, with no second
// stage (bench/windowPlugin.ts).
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
