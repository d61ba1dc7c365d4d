// How a resource plugs into the framework: its declaration (interface + flags) and its
// lifecycle. The server adapter calls these; resources never see gRPC.
import type { HostingClient } from "../api/client";
import { Field, FlagsOf, PropertyType, ResourceSpec, inputFields } from "./spec";
import type { PropertyMap, PropertyValue } from "./values";

export interface ProviderConfig {
  baseUrl: string;
  token: string;
  projectId?: string;
}

/** How long a create, update or delete may take when the program sets no customTimeouts. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 10 * 60 * 1000;

/** What a lifecycle call may use: the API, the configuration, cancellation and the display. */
export interface OperationContext {
  client: HostingClient;
  config: ProviderConfig;
  signal: AbortSignal;
  /** Milliseconds this operation may take (the engine's customTimeouts, or our default). */
  timeoutMs: number;
  /** Progress on the resource's line in the Pulumi display. */
  progress(message: string): void;
  warn(message: string): void;
}

/** Where a resource lives: its API id and, for project-scoped resources, its project. */
export interface ResourceAddress {
  id: string;
  projectId?: string;
}

export interface Lifecycle<T> {
  create(ctx: OperationContext, inputs: T): Promise<{ id: string; outputs: Partial<T> }>;
  /** The live outputs, or undefined when the resource is gone. */
  read(ctx: OperationContext, address: ResourceAddress, state: { outputs: Partial<T>; inputs: Partial<T> }): Promise<Partial<T> | undefined>;
  update(ctx: OperationContext, address: ResourceAddress, olds: Partial<T>, news: T, oldInputs: Partial<T>): Promise<Partial<T>>;
  delete(ctx: OperationContext, address: ResourceAddress, outputs: Partial<T>): Promise<void>;
}

export interface ResourceDeclaration<T> {
  token: string;
  /** The interface in this file that declares the properties (types, optionality, docs). */
  typeName: string;
  flags: FlagsOf<T>;
  projectScoped: boolean;
  deleteBeforeReplace?: boolean;
  /** Splits an id into the API ids it stands for (VolumeAttachment's `<volumeId>:<containerId>`). */
  lifecycle: Lifecycle<T>;
}

export interface ResourceDefinition<T = any> extends ResourceDeclaration<T> {
  spec(): ResourceSpec;
}

/** A create that succeeded but whose resource is not ready: it must stay in state. */
export class PartialFailure extends Error {
  constructor(message: string, readonly id: string, readonly outputs: PropertyMap) {
    super(message);
    this.name = "PartialFailure";
  }
}

// ---- binding declarations to the generated schema (types and docs come from there) ----

export interface SchemaProperty {
  type?: string;
  $ref?: string;
  additionalProperties?: SchemaProperty;
  description?: string;
}
export interface SchemaObject {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
  inputProperties?: Record<string, SchemaProperty>;
  requiredInputs?: string[];
}
export interface PackageSchema {
  types?: Record<string, SchemaObject>;
  resources: Record<string, SchemaObject>;
  functions?: Record<string, { description?: string; inputs?: SchemaObject; outputs?: SchemaObject }>;
  provider: SchemaObject;
}

export function propertyType(schema: PackageSchema, property: SchemaProperty): PropertyType {
  if (property.$ref) {
    const token = property.$ref.replace(/^#\/types\//, "");
    const object = schema.types?.[token];
    if (!object) throw new Error(`schema has no type ${token}`);
    const properties = Object.fromEntries(
      Object.entries(object.properties ?? {}).map(([name, p]) => [name, propertyType(schema, p)]),
    );
    return { kind: "object", token, properties };
  }
  switch (property.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { kind: property.type };
    case "object":
      return { kind: "map", values: propertyType(schema, property.additionalProperties ?? { type: "string" }) };
    default:
      throw new Error(`unsupported schema type ${JSON.stringify(property)}`);
  }
}

/** The fields of an object (resource or provider): inputs from inputProperties, outputs from properties. */
export function fieldsFromSchema(
  schema: PackageSchema,
  object: SchemaObject,
  flags: Record<string, Field | Omit<Field, "name" | "type" | "required" | "description"> | undefined>,
): Field[] {
  const inputs = object.inputProperties ?? {};
  const all = { ...object.properties, ...inputs };
  return Object.entries(all).map(([name, property]) => ({
    ...(flags[name] ?? {}),
    name,
    type: propertyType(schema, property),
    required: (object.requiredInputs ?? []).includes(name),
    description: property.description ?? "",
    output: !(name in inputs),
  }));
}

export function bindResource<T>(declaration: ResourceDeclaration<T>, loadSchema: () => PackageSchema): ResourceDefinition<T> {
  let spec: ResourceSpec | undefined;
  return {
    ...declaration,
    spec() {
      if (!spec) {
        const schema = loadSchema();
        const object = schema.resources[declaration.token];
        if (!object) throw new Error(`schema.json has no resource ${declaration.token}; run \`make schema\``);
        spec = {
          token: declaration.token,
          description: object.description ?? "",
          fields: fieldsFromSchema(schema, object, declaration.flags as Record<string, any>),
          deleteBeforeReplace: declaration.deleteBeforeReplace,
        };
      }
      return spec;
    },
  };
}

/**
 * The inputs that a read implies, normalized as Check would leave them: on refresh, the
 * properties the user had set (and those Check fills in); on import, every input the API
 * returns. Properties the API never returns keep their old input.
 */
export function inputsFromOutputs(spec: ResourceSpec, outputs: PropertyMap, oldInputs?: PropertyMap): PropertyMap {
  const importing = !oldInputs || Object.keys(oldInputs).length === 0;
  const inputs: PropertyMap = {};
  for (const field of inputFields(spec)) {
    const filledByCheck = field.default !== undefined || field.configDefault !== undefined;
    const wanted = importing || filledByCheck || oldInputs?.[field.name] !== undefined;
    if (!wanted) continue;
    const value: PropertyValue | undefined = field.notReturned ? oldInputs?.[field.name] : outputs[field.name];
    if (value !== undefined && value !== null) inputs[field.name] = value;
  }
  return inputs;
}

/**
 * `<id>` or `<projectId>/<id>`: the second form is how users import from another project.
 * Resources outside projects (Registry) accept the same form and ignore the prefix.
 */
export function parseResourceId(id: string, projectScoped: boolean): ResourceAddress {
  const slash = id.indexOf("/");
  if (slash < 0) return { id };
  const address = id.slice(slash + 1);
  return projectScoped ? { projectId: id.slice(0, slash), id: address } : { id: address };
}
