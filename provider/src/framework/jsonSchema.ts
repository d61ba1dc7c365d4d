// The JSON Schema of a declaring interface, as typescript-json-schema produces it: what the
// declarations (declare.ts) and the schema builder (schema.ts) both speak, so neither imports the other for it.

/** The JSON Schema that typescript-json-schema produces for one interface. */
export interface JsonSchema {
  description?: string;
  type?: string;
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  definitions?: Record<string, JsonSchema>;
}

export type TypeReader = (typeName: string) => JsonSchema;
