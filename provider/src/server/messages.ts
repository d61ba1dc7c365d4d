// The messages of pulumi/proto/pulumi/provider.proto (and plugin.proto, engine.proto, google's
// empty.proto and status.proto) that this provider reads or writes, field for field: each a
// schema that codec.ts reads and writes.

export const Empty = {} as const;

export const PluginInfo = { version: [1, "string"] } as const;

export const PluginAttach = { address: [1, "string"] } as const;

export const ProviderHandshakeRequest = {
  engineAddress: [1, "string"],
  rootDirectory: [2, "optionalString"],
  programDirectory: [3, "optionalString"],
  configureWithUrn: [4, "bool"],
  supportsViews: [5, "bool"],
  supportsRefreshBeforeUpdate: [6, "bool"],
  invokeWithPreview: [7, "bool"],
  mapperTarget: [8, "optionalString"],
  loaderTarget: [9, "optionalString"],
  resolverTarget: [10, "optionalString"],
} as const;

export const ProviderHandshakeResponse = {
  acceptSecrets: [1, "bool"],
  acceptResources: [2, "bool"],
  acceptOutputs: [3, "bool"],
  supportsAutonamingConfiguration: [4, "bool"],
} as const;

export const GetSchemaRequest = {
  version: [1, "int32"],
  subpackageName: [2, "string"],
  subpackageVersion: [3, "string"],
} as const;

export const GetSchemaResponse = { schema: [1, "string"] } as const;

export const ConfigureRequest = {
  variables: [1, "map", "string"],
  args: [2, "struct"],
  acceptSecrets: [3, "bool"],
  acceptResources: [4, "bool"],
  sendsOldInputs: [5, "bool"],
  sendsOldInputsToDelete: [6, "bool"],
  id: [7, "optionalString"],
  urn: [8, "optionalString"],
  name: [9, "optionalString"],
  type: [10, "optionalString"],
} as const;

export const ConfigureResponse = {
  acceptSecrets: [1, "bool"],
  supportsPreview: [2, "bool"],
  acceptResources: [3, "bool"],
  acceptOutputs: [4, "bool"],
  supportsAutonamingConfiguration: [5, "bool"],
} as const;

const CheckFailure = { property: [1, "string"], reason: [2, "string"] } as const;

const AutonamingOptions = {
  proposedName: [1, "string"],
  mode: [2, "enum", ["PROPOSE", "ENFORCE", "DISABLE"]],
} as const;

export const CheckRequest = {
  urn: [1, "string"],
  olds: [2, "struct"],
  news: [3, "struct"],
  randomSeed: [5, "bytes"],
  name: [6, "string"],
  type: [7, "string"],
  autonaming: [8, "message", AutonamingOptions],
} as const;

export const CheckResponse = { inputs: [1, "struct"], failures: [2, "repeated", CheckFailure] } as const;

export const DiffRequest = {
  id: [1, "string"],
  urn: [2, "string"],
  olds: [3, "struct"],
  news: [4, "struct"],
  ignoreChanges: [5, "strings"],
  oldInputs: [6, "struct"],
  name: [7, "string"],
  type: [8, "string"],
} as const;

const PropertyDiff = {
  kind: [1, "enum", ["ADD", "ADD_REPLACE", "DELETE", "DELETE_REPLACE", "UPDATE", "UPDATE_REPLACE"]],
  inputDiff: [2, "bool"],
} as const;

export const DiffResponse = {
  replaces: [1, "strings"],
  stables: [2, "strings"],
  deleteBeforeReplace: [3, "bool"],
  changes: [4, "enum", ["DIFF_UNKNOWN", "DIFF_NONE", "DIFF_SOME"]],
  diffs: [5, "strings"],
  detailedDiff: [6, "map", PropertyDiff],
  hasDetailedDiff: [7, "bool"],
} as const;

export const CreateRequest = {
  urn: [1, "string"],
  properties: [2, "struct"],
  timeout: [3, "double"],
  preview: [4, "bool"],
  name: [5, "string"],
  type: [6, "string"],
  resourceStatusAddress: [7, "string"],
  resourceStatusToken: [8, "string"],
} as const;

export const CreateResponse = {
  id: [1, "string"],
  properties: [2, "struct"],
  refreshBeforeUpdate: [3, "bool"],
} as const;

export const ReadRequest = {
  id: [1, "string"],
  urn: [2, "string"],
  properties: [3, "struct"],
  inputs: [4, "struct"],
  name: [5, "string"],
  type: [6, "string"],
  resourceStatusAddress: [7, "string"],
  resourceStatusToken: [8, "string"],
  oldViews: [9, "raws"],
  timeout: [10, "double"],
} as const;

export const ReadResponse = {
  id: [1, "string"],
  properties: [2, "struct"],
  inputs: [3, "struct"],
  refreshBeforeUpdate: [4, "bool"],
} as const;

export const UpdateRequest = {
  id: [1, "string"],
  urn: [2, "string"],
  olds: [3, "struct"],
  news: [4, "struct"],
  timeout: [5, "double"],
  ignoreChanges: [6, "strings"],
  preview: [7, "bool"],
  oldInputs: [8, "struct"],
  name: [9, "string"],
  type: [10, "string"],
  resourceStatusAddress: [11, "string"],
  resourceStatusToken: [12, "string"],
  oldViews: [13, "raws"],
} as const;

export const UpdateResponse = { properties: [1, "struct"], refreshBeforeUpdate: [2, "bool"] } as const;

export const DeleteRequest = {
  id: [1, "string"],
  urn: [2, "string"],
  properties: [3, "struct"],
  timeout: [4, "double"],
  oldInputs: [5, "struct"],
  name: [6, "string"],
  type: [7, "string"],
  resourceStatusAddress: [8, "string"],
  resourceStatusToken: [9, "string"],
  oldViews: [10, "raws"],
} as const;

export const InvokeRequest = { tok: [1, "string"], args: [2, "struct"], preview: [7, "bool"] } as const;

export const InvokeResponse = { return: [1, "struct"], failures: [2, "repeated", CheckFailure] } as const;

// The details of a failed call, in its google.rpc.Status (errors.ts).

export const ErrorResourceInitFailed = {
  id: [1, "string"],
  properties: [2, "struct"],
  reasons: [3, "strings"],
  inputs: [4, "struct"],
  refreshBeforeUpdate: [5, "bool"],
} as const;

const MissingKey = { name: [1, "string"], description: [2, "string"] } as const;

export const ConfigureErrorMissingKeys = { missingKeys: [1, "repeated", MissingKey] } as const;

const Any = { typeUrl: [1, "string"], value: [2, "bytes"] } as const;

export const Status = { code: [1, "int32"], message: [2, "string"], details: [3, "repeated", Any] } as const;

/** engine.proto's Log request (engineLog.ts). */
export const LogRequest = {
  severity: [1, "enum", ["DEBUG", "INFO", "WARNING", "ERROR"]],
  message: [2, "string"],
  urn: [3, "string"],
  streamId: [4, "int32"],
  ephemeral: [5, "bool"],
} as const;
