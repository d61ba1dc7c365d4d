// The shape of the state the engine keeps for each resource, read from a schema.json: every
// property, whether the program sets it (an input, recorded in inputs and outputs) or only the
// service does (an output), its type, and whether it is kept secret. Each fixture in states/
// records the shape it was recorded under; the provider's schema version is the number of the
// fixture whose shape it has, and a new shape needs a new fixture (`make record-state`).
import { propertyType } from "../../provider/src/framework/bind";
import type { PackageSpec, PropertySpec } from "../../provider/src/framework/packageSchema";
import type { PropertyType } from "../../provider/src/framework/spec";

/** Resource token → property → "input, string, secret". */
export type StateShape = Record<string, Record<string, string>>;

function typeText(type: PropertyType): string {
  switch (type.kind) {
    case "map":
      return `map of ${typeText(type.values)}`;
    case "array":
      return `list of ${typeText(type.items)}`;
    case "object":
      return `{ ${Object.entries(type.properties)
        .map(([name, t]) => `${name}: ${typeText(t)}`)
        .join(", ")} }`;
    default:
      return type.kind;
  }
}

const sorted = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));

export function stateShape(schema: PackageSpec): StateShape {
  return sorted(
    Object.entries(schema.resources ?? {}).map(([token, resource]) => {
      const inputs = resource.inputProperties ?? {};
      const properties: Record<string, PropertySpec> = { ...resource.properties, ...inputs };
      const shape = Object.entries(properties).map(([name, property]): [string, string] => {
        const secret = property.secret || resource.properties?.[name]?.secret;
        const kind = name in inputs ? "input" : "output";
        return [name, [kind, typeText(propertyType(schema, property)), ...(secret ? ["secret"] : [])].join(", ")];
      });
      return [token, sorted(shape)];
    }),
  );
}

/** What changed from one shape to another, one line a property: for the message that asks for a new fixture. */
export function shapeChanges(from: StateShape, to: StateShape): string[] {
  const changes: string[] = [];
  for (const token of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const [before, after] = [from[token] ?? {}, to[token] ?? {}];
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (before[name] === after[name]) continue;
      changes.push(`${token}.${name}: ${before[name] ?? "(none)"} → ${after[name] ?? "(none)"}`);
    }
  }
  return changes;
}
