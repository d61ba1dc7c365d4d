// The parts of the Pulumi package schema (reference/pulumi-package-metaschema.json) this
// project writes and reads: one set of types for the schema builder, the runtime binding and
// the SDK generator.

export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  default?: unknown;
  defaultInfo?: { environment?: string[] };
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type?: "object";
  description?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
}

export interface ResourceSpec extends ObjectTypeSpec {
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
  /** What `get(name, id, state)` may pass: with it, Pulumi's generators emit `<Name>State` and the state parameter. */
  stateInputs?: ObjectTypeSpec;
}

export interface FunctionSpec {
  description?: string;
  inputs?: ObjectTypeSpec;
  outputs?: ObjectTypeSpec;
}

export interface PackageSpec {
  name: string;
  displayName?: string;
  version: string;
  description?: string;
  keywords?: string[];
  license?: string;
  publisher?: string;
  homepage?: string;
  repository?: string;
  pluginDownloadURL?: string;
  config?: { variables?: Record<string, PropertySpec>; defaults?: string[] };
  provider?: ResourceSpec;
  types?: Record<string, ObjectTypeSpec>;
  resources?: Record<string, ResourceSpec>;
  functions?: Record<string, FunctionSpec>;
  language?: {
    nodejs?: {
      packageName?: string;
      packageDescription?: string;
      readme?: string;
      dependencies?: Record<string, string>;
      typescriptVersion?: string;
      respectSchemaVersion?: boolean;
    };
    python?: {
      packageName?: string;
      readme?: string;
      requires?: Record<string, string>;
      pyproject?: { enabled?: boolean };
      respectSchemaVersion?: boolean;
    };
    go?: { importBasePath?: string; generateResourceContainerTypes?: boolean; respectSchemaVersion?: boolean };
    csharp?: { packageReferences?: Record<string, string>; rootNamespace?: string; respectSchemaVersion?: boolean };
    java?: { basePackage?: string; buildFiles?: string; dependencies?: Record<string, string> };
  };
}
