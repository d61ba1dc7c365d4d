// The one binding of declarations to the generated schema (schema.json, bundled with the
// plugin): property types and docs come from there, behaviour from the flags. Resources, the
// provider's configuration and functions all bind the same way, on first use.
import {
  providerToken,
  tokenOf,
  type FunctionDeclaration,
  type PackageDeclaration,
  type ResourceDeclaration,
} from "./declare";
import type { ObjectTypeSpec, PackageSpec, PropertySpec, ResourceSpec } from "./packageSchema";
import { inputFields, type Field, type FieldFlags, type ObjectSpec, type PropertyType } from "./spec";

export interface BoundResource {
  declaration: ResourceDeclaration;
  spec: ObjectSpec;
}

export interface BoundFunction {
  declaration: FunctionDeclaration;
  args: ObjectSpec;
  result: ObjectSpec;
}

export interface BoundPackage {
  resource(token: string): BoundResource | undefined;
  function(token: string): BoundFunction | undefined;
  provider(): ObjectSpec;
}

export function propertyType(schema: PackageSpec, property: PropertySpec): PropertyType {
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
    case "array":
      return { kind: "array", items: propertyType(schema, property.items ?? { type: "string" }) };
    case "object":
      return { kind: "map", values: propertyType(schema, property.additionalProperties ?? { type: "string" }) };
    default:
      throw new Error(`unsupported schema type ${JSON.stringify(property)}`);
  }
}

/** The fields of a schema object: inputs from `inputProperties`, the rest are outputs. */
export function fieldsOf(
  schema: PackageSpec,
  object: ResourceSpec,
  flags: Record<string, FieldFlags | undefined>,
): Field[] {
  const inputs = object.inputProperties ?? {};
  const required = new Set(object.requiredInputs ?? []);
  return Object.entries({ ...object.properties, ...inputs }).map(([name, property]) => ({
    ...flags[name],
    name,
    type: propertyType(schema, property),
    required: required.has(name),
    description: property.description ?? "",
    output: !(name in inputs),
  }));
}

/** A function's result properties carry the secrets of what they come from. */
function resultFlags(fn: FunctionDeclaration): Record<string, FieldFlags> {
  if ("flags" in fn.result) return fn.result.flags;
  const flags = fn.result.resource.flags as Record<string, FieldFlags>;
  const secrets: Record<string, FieldFlags> = {};
  for (const [name, f] of Object.entries(flags)) {
    const paths = [...(f.secret ? [""] : []), ...(f.secretSubfields ?? []).map((sub) => `.${sub}`)];
    if (paths.length === 0) continue;
    if (!fn.result.list) secrets[name] = { secret: f.secret, secretSubfields: f.secretSubfields };
    else {
      const list = (secrets[fn.result.list] ??= { secretSubfields: [] });
      list.secretSubfields!.push(...paths.map((p) => `[].${name}${p}`));
    }
  }
  return secrets;
}

const asOutputs = (object: ObjectTypeSpec | undefined): ResourceSpec => ({
  properties: object?.properties ?? {},
  inputProperties: {},
});
const asInputs = (object: ObjectTypeSpec | undefined): ResourceSpec => ({
  properties: {},
  inputProperties: object?.properties ?? {},
  requiredInputs: object?.required ?? [],
});

export function bindPackage(pkg: PackageDeclaration, loadSchema: () => PackageSpec): BoundPackage {
  let provider: ObjectSpec | undefined;
  const missing = (what: string): never => {
    throw new Error(`schema.json has no ${what}; run \`make schema\``);
  };
  /** A declaration found by its token, bound on first use, once. */
  function binder<D, B>(
    declared: D[],
    tokenOfDeclared: (d: D) => string,
    bind: (declaration: D, schema: PackageSpec, token: string) => B,
  ) {
    const bound = new Map<string, B>();
    return (token: string): B | undefined => {
      // Looked up first: every call of every resource asks, and the search below builds a token per declaration.
      const known = bound.get(token);
      if (known !== undefined) return known;
      const declaration = declared.find((d) => tokenOfDeclared(d) === token);
      if (!declaration) return undefined;
      const fresh = bind(declaration, loadSchema(), token);
      bound.set(token, fresh);
      return fresh;
    };
  }
  return {
    resource: binder(
      pkg.resources,
      (r) => tokenOf(pkg, r.typeName),
      (declaration, schema, token) => {
        const object = schema.resources?.[token] ?? missing(`resource ${token}`);
        const fields = fieldsOf(schema, object, declaration.flags);
        const spec = { token, fields, deleteBeforeReplace: declaration.deleteBeforeReplace };
        const silent = silentlyUpdated(spec, declaration);
        if (silent) throw new Error(silent);
        return { declaration, spec };
      },
    ),
    function: binder(
      pkg.functions,
      (fn) => tokenOf(pkg, fn.name),
      (declaration, schema, token) => {
        const fn = schema.functions?.[token] ?? missing(`function ${token}`);
        return {
          declaration,
          args: { token, fields: fieldsOf(schema, asInputs(fn.inputs), declaration.args), rules: declaration.rules },
          result: { token, fields: fieldsOf(schema, asOutputs(fn.outputs), resultFlags(declaration)) },
        };
      },
    ),
    provider() {
      if (!provider) {
        const schema = loadSchema();
        const object = schema.provider ?? missing("provider");
        provider = {
          token: providerToken(pkg),
          fields: fieldsOf(schema, { ...object, requiredInputs: requiredConfig(schema) }, pkg.config.flags),
        };
      }
      return provider;
    },
  };
}

/**
 * A resource without an `update` of its own has nothing to send when an input changes in place:
 * the engine would record the new inputs over the old outputs while the service keeps the old
 * value. So every input of such a resource replaces it, or is refused a change (`fixedAfterCreate`).
 * Why a declaration breaks that rule, naming the inputs and the two ways out; nothing when it keeps it.
 */
export function silentlyUpdated(
  spec: ObjectSpec,
  declaration: Pick<ResourceDeclaration, "typeName" | "lifecycle">,
): string | undefined {
  if (declaration.lifecycle.update) return undefined;
  const inPlace = inputFields(spec)
    .filter((f) => !f.replaceOnChange && !f.fixedAfterCreate)
    .map((f) => f.name);
  if (inPlace.length === 0) return undefined;
  const several = inPlace.length > 1;
  const these = several ? `inputs ${inPlace.join(", ")}` : `input ${inPlace[0]}`;
  return `${spec.token} (${declaration.typeName}) has no lifecycle.update, but its ${these} would update in place: when ${several ? "they change" : "it changes"}, nothing would be sent and the state would claim the change. Give the lifecycle an update that sends it, or flag ${several ? "each" : "it"} replaceOnChange (or fixedAfterCreate, when the API cannot change it at all).`;
}

/** The configuration keys that are not optional (`config.defaults` lists the optional ones). */
const requiredConfig = (schema: PackageSpec) =>
  Object.keys(schema.config?.variables ?? {}).filter((name) => !(schema.config?.defaults ?? []).includes(name));
