// Lookups: functions that read what exists without managing it, derived from each resource's
// declaration. `get<TypeName>` takes an `id` or a `name` (exactly one) and reads through the
// resource's own lifecycle, so it returns what the resource would record, with the same secrets,
// and a wrong kind says which kind it is; `get<Plural>` lists through the resource's `list`.
import {
  InputError,
  type FunctionDeclaration,
  type Listed,
  type ListLookup,
  type ResourceDeclaration,
} from "../framework/declare";
import type { JsonSchema, TypeReader } from "../framework/jsonSchema";
import type { FieldFlags, FlagsOf } from "../framework/spec";
import { exactlyOneOf } from "../framework/validators";
import { orGone, projectOf, type Context } from "../resources/common";

const STRING = (description: string): JsonSchema => ({ type: "string", description });

/** A lookup's `projectId`: the resource's own flag, as an argument (nothing to replace). */
function projectArgument(resource: ResourceDeclaration): Record<string, FieldFlags> {
  if (resource.scope !== "project") return {};
  const { configDefault, validate } = (resource.flags as Record<string, FieldFlags>).projectId;
  return { projectId: { configDefault, validate } };
}

const projectSchema = (resource: ResourceDeclaration, description: string): Record<string, JsonSchema> =>
  resource.scope === "project" ? { projectId: STRING(description) } : {};

/** `get<TypeName>`: by id, or by name through `findByName` (or `list`), then the lifecycle's read. */
function byIdOrName(
  resource: ResourceDeclaration,
  noun: string,
): FunctionDeclaration<{ id?: string; name?: string; projectId?: string }, Listed, any> {
  const lookup = resource.lookups!.byIdOrName!;
  const findByName =
    lookup.findByName ??
    (async (ctx: Context, name: string, projectId?: string) =>
      (await resource.list!(ctx, projectId)).find((r) => r.name === name)?.id);
  const example = resource.examples[0];
  return {
    name: `get${resource.typeName}`,
    description: `Looks up an existing ${noun} by \`id\` or by \`name\` (exactly one), without managing it.`,
    args: { id: {}, name: {}, ...projectArgument(resource) } as FlagsOf<{
      id?: string;
      name?: string;
      projectId?: string;
    }>,
    argsSchema: () => ({
      type: "object",
      properties: {
        id: STRING("The id the API assigned."),
        name: STRING("The name it was given."),
        ...projectSchema(resource, "The project to look in."),
      },
    }),
    rules: [exactlyOneOf("id", "name")],
    result: { resource },
    // The name of one made elsewhere: the resource's example leaves `name` to the provider, so its name in the program.
    examples: example
      ? [
          {
            title: `A ${noun} by its name`,
            args: { name: example.inputs.name ?? example.name },
            show: lookup.show ?? firstOutput(resource),
          },
        ]
      : [],
    async invoke(ctx, args) {
      const project = resource.scope === "project" ? projectOf(ctx, {}, args) : undefined;
      // A project the user cannot see answers 404 to the list: nothing found there, said the same way.
      const id = args.id ?? (await orGone(() => findByName(ctx, args.name!, project)));
      const found = id && (await resource.lifecycle.read(ctx, { id, projectId: project }, { outputs: {}, inputs: {} }));
      if (!id || !found) {
        const what = args.id ? `id ${args.id}` : `name "${args.name}"`;
        throw new InputError(
          `no ${noun} with ${what}${project ? ` in project ${project}` : ""} (or it belongs to another user)`,
        );
      }
      return { ...found, id };
    },
  };
}

/** `get<Plural>`: every one in a project (or the user's), kept where each filter argument matches. */
function listing(
  resource: ResourceDeclaration,
  lookup: ListLookup<any>,
): FunctionDeclaration<Record<string, string | undefined>, Record<string, Listed[]>, any> {
  const filters = lookup.filters ?? [];
  const items = lookup.items ?? resource.list!;
  return {
    name: lookup.name,
    description: lookup.description,
    args: {
      ...Object.fromEntries(
        filters.map((f) => [f, { validate: (resource.flags as Record<string, FieldFlags>)[f].validate }]),
      ),
      ...projectArgument(resource),
    },
    argsSchema: (readType: TypeReader) => {
      const properties = readType(resource.typeName).properties ?? {};
      const filter = (f: string) => ({
        ...properties[f],
        description: `Only those whose \`${f}\` is this. ${properties[f]?.description ?? ""}`.trim(),
      });
      return {
        type: "object",
        properties: {
          ...Object.fromEntries(filters.map((f) => [f, filter(f)])),
          ...projectSchema(resource, "The project to list."),
        },
      };
    },
    result: { resource, list: lookup.key },
    examples: [{ title: "Listing them all", args: {}, show: lookup.key }],
    async invoke(ctx, args) {
      const all = await items(ctx, resource.scope === "project" ? projectOf(ctx, {}, args) : undefined);
      const kept = all.filter((item) =>
        filters.every((f) => args[f] === undefined || (item as Record<string, unknown>)[f] === args[f]),
      );
      return { [lookup.key]: kept };
    },
  };
}

/** The first output property of a resource (what a lookup's example shows), else its first property. */
function firstOutput(resource: ResourceDeclaration): string {
  const flags = Object.entries(resource.flags as Record<string, FieldFlags>);
  return (flags.find(([, f]) => f.output) ?? flags[0])[0];
}

/** Every lookup the resources declare: one by id or name per kind that has one, and the lists. */
export function lookupsOf(resources: ResourceDeclaration[]): FunctionDeclaration[] {
  return resources.flatMap((resource) => [
    ...(resource.lookups?.byIdOrName ? [byIdOrName(resource, resource.lookups.byIdOrName.noun)] : []),
    ...(resource.lookups?.list ? [listing(resource, resource.lookups.list)] : []),
  ]);
}
