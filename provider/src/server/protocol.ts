// What the engine says of itself (Handshake, Configure, Attach), checked field by field before the
// plugin acts on any of it: a field that cannot be right is answered INVALID_ARGUMENT, naming the
// field as provider.proto spells it and what would be right, and nothing of the call is kept. An
// engine address holding a newline was answered "ok", then ended the process (grpc-js: "Could not
// parse target name") when the engine log dialled it. Imports nothing: the second stage (start.ts)
// answers Handshake before the provider is loaded, and main.ts checks its command line with it.

/** `127.0.0.1:34567`, `localhost:34567`, `[::1]:34567`: how the engine gives an address to dial. */
export const ENGINE_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** An address the plugin can dial: host:port, the port 1-65535. */
export function isAddress(value: string): boolean {
  const port = ENGINE_ADDRESS.exec(value)?.[2];
  return port !== undefined && Number(port) >= 1 && Number(port) <= 65535;
}

/** The message's fields these checks read: Handshake's, Configure's and Attach's, as codec.ts decodes them. */
interface HandshakeFields {
  engineAddress: string;
  rootDirectory?: string;
  programDirectory?: string;
  mapperTarget?: string;
  loaderTarget?: string;
  resolverTarget?: string;
}

interface ConfigureFields {
  variables: Record<string, string>;
  acceptSecrets: boolean;
  acceptResources: boolean;
  sendsOldInputs: boolean;
  sendsOldInputsToDelete: boolean;
  id?: string;
  urn?: string;
  name?: string;
  type?: string;
}

/** The provider's type, as the engine names it in Configure (`pulumi:providers:<package>`). */
const PROVIDER_TYPE = "pulumi:providers:hosting";

const quoted = (value: string) => JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);

/** A control character (C0, DEL, C1): a line break, a NUL. */
const CONTROL = /\p{Cc}/u;

/** An address field: empty (none given) or host:port. */
function addressProblem(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "" || isAddress(value)) return undefined;
  return `${field}: ${quoted(value)} is not an address to dial: give host:port (a host name or IP address, and a port from 1 to 65535), e.g. 127.0.0.1:50051`;
}

/** A directory field: empty (the engine attached to a plugin it did not start) or an absolute path. */
function directoryProblem(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(value) && !value.includes("\u0000")) return undefined;
  return `${field}: ${quoted(value)} is not a directory: give an absolute path with no NUL character, or leave it empty`;
}

/** What is wrong with a Handshake request, one problem per field (none: it may be kept). */
export function handshakeProblems(request: HandshakeFields): string[] {
  return [
    addressProblem("Handshake.engine_address", request.engineAddress),
    directoryProblem("Handshake.root_directory", request.rootDirectory),
    directoryProblem("Handshake.program_directory", request.programDirectory),
    addressProblem("Handshake.mapper_target", request.mapperTarget),
    addressProblem("Handshake.loader_target", request.loaderTarget),
    addressProblem("Handshake.resolver_target", request.resolverTarget),
  ].filter((problem) => problem !== undefined);
}

/** What is wrong with Attach's address. */
export const attachProblems = (request: { address: string }): string[] =>
  [request.address === "" ? "Attach.address: empty: give the engine's address, host:port" : undefined]
    .concat(addressProblem("Attach.address", request.address))
    .filter((problem) => problem !== undefined);

/**
 * What is wrong with Configure's fields besides its settings (the provider's configuration checks `args` and
 * `variables`' values). `shookHands`: the engine sent Handshake first, and then must say it accepts secrets and
 * resources and sends old inputs (provider.proto: "*Must* be true if the caller has previously called Handshake").
 */
export function configureProblems(request: ConfigureFields, shookHands: boolean): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(request.variables)) {
    if (!/^[^:]+:config:.+$/s.test(key) || CONTROL.test(key))
      problems.push(
        `Configure.variables: the key ${quoted(key)} is not a configuration key: give <package>:config:<key>, e.g. hosting:config:baseUrl`,
      );
  }
  if (shookHands) {
    const promised = {
      accept_secrets: request.acceptSecrets,
      accept_resources: request.acceptResources,
      sends_old_inputs: request.sendsOldInputs,
      sends_old_inputs_to_delete: request.sendsOldInputsToDelete,
    };
    for (const [field, value] of Object.entries(promised))
      if (!value)
        problems.push(`Configure.${field}: false, but an engine that sent Handshake must send true (provider.proto)`);
  }
  if (request.urn !== undefined) {
    // urn:pulumi:<stack>::<project>::<parent type$>pulumi:providers:hosting::<name>
    const parts = request.urn.split("::");
    const type = parts[2]?.split("$").pop();
    if (!request.urn.startsWith("urn:pulumi:") || parts.length < 4 || CONTROL.test(request.urn))
      problems.push(
        `Configure.urn: ${quoted(request.urn)} is not a URN: give urn:pulumi:<stack>::<project>::${PROVIDER_TYPE}::<name>`,
      );
    else if (type !== PROVIDER_TYPE)
      problems.push(
        `Configure.urn: ${quoted(request.urn)} names the type ${quoted(type ?? "")}: this is ${PROVIDER_TYPE}`,
      );
    else if (request.name !== undefined && request.name !== parts.slice(3).join("::"))
      problems.push(
        `Configure.name: ${quoted(request.name)} is not the name the URN gives (${quoted(parts.slice(3).join("::"))})`,
      );
  }
  if (request.type !== undefined && request.type !== PROVIDER_TYPE)
    problems.push(`Configure.type: ${quoted(request.type)} is not this provider's type: give ${PROVIDER_TYPE}`);
  for (const [field, value] of [
    ["name", request.name],
    ["id", request.id],
  ] as const) {
    if (value !== undefined && CONTROL.test(value))
      problems.push(
        `Configure.${field}: ${quoted(value)} holds a control character (a line break, a NUL): give it as the engine recorded it`,
      );
  }
  return problems;
}
