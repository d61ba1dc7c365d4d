// Runs SDK code against pulumi.runtime.setMocks and records what it sends to the engine:
// the full RegisterResource / ReadResource / Invoke requests, not just the mock's view of them,
// so version, replaceOnChanges, additionalSecretOutputs and secret markers can be checked.
import * as pulumi from "@pulumi/pulumi";

/** The value Pulumi's wire format uses to mark a secret. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface Registration {
  kind: "register" | "read";
  type: string;
  name: string;
  /** Inputs as plain values (secrets unwrapped). */
  inputs: Record<string, unknown>;
  /** Top-level inputs that travelled as secrets. */
  secretInputs: string[];
  version: string;
  /** Where the engine may download the plugin from (the schema's pluginDownloadURL). */
  pluginDownloadURL: string;
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  /** Provider reference (`<urn>::<id>`), empty for the default provider. */
  provider: string;
  /** URNs of the resources it depends on (dependsOn and inputs from their outputs). */
  dependencies: string[];
  /** The id asked for by `get` (read). */
  id?: string;
}

export interface Invocation {
  token: string;
  args: Record<string, unknown>;
  version: string;
  pluginDownloadURL: string;
}

export interface MockEngine {
  registrations: Registration[];
  invocations: Invocation[];
  /** The registration of the resource with this logical name. */
  registration(name: string): Registration;
}

const isSecretValue = (v: unknown): v is { value: unknown } =>
  typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;

function plain(struct: Record<string, unknown>) {
  const inputs: Record<string, unknown> = {};
  const secretInputs: string[] = [];
  for (const [key, value] of Object.entries(struct)) {
    if (isSecretValue(value)) secretInputs.push(key);
    inputs[key] = isSecretValue(value) ? value.value : value;
  }
  return { inputs, secretInputs: secretInputs.sort() };
}

/**
 * Installs mocks whose resources echo their inputs plus `outputs(type, name)` and whose
 * functions answer `call(token, args)`; returns the record of everything sent.
 */
export async function startMockEngine(
  options: {
    project?: string;
    outputs?: (type: string, name: string) => Record<string, unknown>;
    call?: (token: string, args: Record<string, unknown>) => Record<string, unknown>;
  } = {},
): Promise<MockEngine> {
  const engine: MockEngine = {
    registrations: [],
    invocations: [],
    registration(name) {
      const found = engine.registrations.find((r) => r.name === name);
      if (!found)
        throw new Error(
          `no resource named ${name} was registered; saw ${engine.registrations.map((r) => r.name).join(", ")}`,
        );
      return found;
    },
  };
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({
        id: args.id || `${args.name}-id`,
        state: { ...args.inputs, ...(options.outputs?.(args.type, args.name) ?? {}) },
      }),
      call: (args) => options.call?.(args.token, args.inputs) ?? {},
    },
    options.project ?? "sdk-tests",
    "test",
    false,
  );
  const monitor = pulumi.runtime.getMonitor() as any;
  const wrap = (method: string, record: (req: any) => void) => {
    const original = monitor[method].bind(monitor);
    monitor[method] = (req: any, callback: any) => {
      record(req);
      return original(req, callback);
    };
  };
  /** What a registration or a read sends, as the tests compare it. */
  const recorded = (
    kind: "register" | "read",
    req: any,
    properties: Record<string, unknown>,
    replaceOnChanges: string[],
  ) => ({
    kind,
    type: req.getType(),
    name: req.getName(),
    ...plain(properties),
    version: req.getVersion(),
    pluginDownloadURL: req.getPlugindownloadurl(),
    replaceOnChanges: [...replaceOnChanges].sort(),
    additionalSecretOutputs: [...req.getAdditionalsecretoutputsList()].sort(),
    provider: req.getProvider(),
    dependencies: [...req.getDependenciesList()].sort(),
  });
  wrap("registerResource", (req) =>
    engine.registrations.push(
      recorded("register", req, req.getObject()?.toJavaScript() ?? {}, req.getReplaceonchangesList()),
    ),
  );
  wrap("readResource", (req) =>
    engine.registrations.push({
      ...recorded("read", req, req.getProperties()?.toJavaScript() ?? {}, []),
      id: req.getId(),
    }),
  );
  wrap("invoke", (req) =>
    engine.invocations.push({
      token: req.getTok(),
      args: req.getArgs()?.toJavaScript() ?? {},
      version: req.getVersion(),
      pluginDownloadURL: req.getPlugindownloadurl(),
    }),
  );
  return engine;
}

/** The value of an output, once the (mock) engine has resolved it. */
export function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/** Waits until a resource's registration has been answered. */
export async function registered(resource: pulumi.Resource): Promise<void> {
  await outputValue(resource.urn);
}
