// What `hosting-export` writes, as a pure function of what each resource's `list` found: one
// `pulumi import --file` entry per resource (its type, a Pulumi name derived from its API name,
// and the id the provider's Read accepts), and what the user must add by hand. No value beyond
// types, names and ids goes into the file: never a secret, never a property.
import { tokenOf, type ExportDeclaration, type Listed, type Scope } from "../framework/declare";
import type { FieldFlags } from "../framework/spec";

/** A resource kind hosting-export adopts, as its declaration says. */
export interface ExportKind {
  typeName: string;
  scope: Scope;
  flags: Record<string, FieldFlags>;
  export: ExportDeclaration<any, any>;
}

/** What the file is made from. */
export interface World {
  /** The exported project. */
  projectId: string;
  /** What each kind's `list` found, by type name. */
  found: Record<string, ReadonlyArray<Listed>>;
  /** What the project holds that no resource manages (services of an unknown type). */
  strays?: ReadonlyArray<{ id: string; name: string; type: string }>;
}

/** One entry of the `pulumi import --file` format (pkg/cmd/pulumi/operations/import.go). */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
  /** The plugin version to import with: the one this command ships with, as the SDK pins it. */
  version?: string;
  /** Where the engine downloads that plugin when it is missing, as the SDK sends it. */
  pluginDownloadURL?: string;
}

export interface ImportFile {
  resources: ImportEntry[];
}

export interface ExportPlan {
  file: ImportFile;
  /** Entries per resource type, in the file's order. */
  counts: Array<{ type: string; count: number }>;
  /** Secret inputs the API never returns (a registry's password): the user sets them after importing. */
  secretsToSet: Array<{ name: string; apiName: string; typeName: string; property: string }>;
  /** What no resource of this provider manages: left out of the file. */
  skipped: Array<{ id: string; name: string; type: string }>;
}

/**
 * Words a generated program cannot use as a variable in one of Pulumi's languages (keywords of
 * TypeScript, Python, Go, C# and Java), or that it already uses itself (`pulumi`, `hosting`, Go's
 * `ctx`). A resource whose name is one of them gets its kind as a suffix: `new-container`.
 */
const RESERVED = new Set(
  "abstract and any arguments as assert async await base bool boolean break byte case catch chan char checked class config const constructor continue ctx debugger decimal declare def default defer del delegate delete do double elif else enum err error eval event except explicit export extends extern false fallthrough final finally fixed float for foreach from func function get global go goto hosting if implements implicit import in instanceof int interface internal is lambda let lock long map match module namespace native new nil none nonlocal not null number object of operator or out output override package params pass private protected public pulumi raise range readonly ref require resource return sbyte sealed select self set short sizeof stackalloc static strictfp string struct super switch symbol synchronized this throw throws transient true try type typeof uint ulong unchecked undefined unsafe ushort using var virtual void volatile while with yield".split(
    " ",
  ),
);

/**
 * A readable Pulumi name from an API name: lowercase letters, digits and single dashes, starting
 * with a letter (`Web_API` → `web-api`). The platform's names are DNS labels already, so this
 * keeps them as they are, except for runs of dashes; anything else is mangled to that form, and
 * what starts without a letter gets `fallback` (the kind) in front.
 */
export function pulumiName(apiName: string, fallback: string): string {
  const name = apiName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents off the letters they were on: Ä → A
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (name === "") return fallback;
  return /^[a-z]/.test(name) ? name : `${fallback}-${name}`;
}

/**
 * What a name becomes as a variable, in any language's style (`webApi`, `web_api`, `WebApi`):
 * two names with the same key would be one variable somewhere, so keys are kept unique.
 */
const identifierKey = (name: string) => name.replace(/-/g, "");

/**
 * The id the provider's Read accepts. Project resources carry their project (`<projectId>/<id>`),
 * so the file imports into a stack whatever its default project is; Read answers with the bare
 * id, which is what state keeps, and the generated code holds no ids.
 */
export function importId(scope: Scope, id: string, projectId: string): string {
  return scope === "user" ? id : `${projectId}/${id}`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const shortId = (id: string) =>
  id
    .replace(/[^a-z0-9]/gi, "")
    .slice(0, 8)
    .toLowerCase();

interface Draft {
  kind: ExportKind;
  id: string;
  /** The API's name, or what an attachment or a link is named after. */
  apiName: string;
  /** The name wanted before names are made unique. */
  wanted: string;
  /** Its kind's place in the package (what others refer to first). */
  order: number;
}

/**
 * Names unique across the file and stable across runs: they depend only on the records, in a
 * fixed order. A name several kinds want (a container and a volume both called `data`), or a
 * reserved word, gets the kind as a suffix (`data-container`, `data-volume`). Of several records
 * that still want one name (or names that are one variable, `web-api2` and `web-api-2`), the one
 * whose API name it is exactly keeps it (else the first by API name, then id); the others are
 * numbered `-2`, `-3`… past every name the records want.
 */
function uniqueNames(drafts: Draft[]): Map<Draft, string> {
  const kindsWanting = new Map<string, Set<string>>();
  for (const d of drafts) {
    const key = identifierKey(d.wanted);
    kindsWanting.set(key, (kindsWanting.get(key) ?? new Set()).add(d.kind.export.word));
  }
  const candidate = new Map(
    drafts.map((d) => {
      const shared = kindsWanting.get(identifierKey(d.wanted))!.size > 1;
      return [d, shared || RESERVED.has(d.wanted) ? `${d.wanted}-${d.kind.export.word}` : d.wanted];
    }),
  );
  const exact = (d: Draft) => (candidate.get(d) === d.apiName ? 0 : 1);
  const order = (a: Draft, b: Draft) =>
    exact(a) - exact(b) || a.order - b.order || compare(a.apiName, b.apiName) || compare(a.id, b.id);
  const sorted = [...drafts].sort(order);
  const names = new Map<Draft, string>();
  const taken = new Set<string>();
  // First every name goes to the first record that wants it; then the rest are numbered.
  for (const d of sorted) {
    const key = identifierKey(candidate.get(d)!);
    if (taken.has(key)) continue;
    taken.add(key);
    names.set(d, candidate.get(d)!);
  }
  for (const d of sorted) {
    if (names.has(d)) continue;
    const base = candidate.get(d)!;
    let name = `${base}-2`;
    for (let n = 3; taken.has(identifierKey(name)); n++) name = `${base}-${n}`;
    taken.add(identifierKey(name));
    names.set(d, name);
  }
  return names;
}

/** The secret inputs of a kind that the API never returns. */
const neverReturnedSecrets = (kind: ExportKind) =>
  Object.entries(kind.flags)
    .filter(([, f]) => f.secret && f.notReturned && !f.output)
    .map(([property]) => property);

/** The import file for a project's resources, and what to tell the user. */
export function planExport(
  pkg: { name: string },
  kinds: ExportKind[],
  world: World,
  options: { version?: string; pluginDownloadURL?: string } = {},
): ExportPlan {
  const named = kinds.flatMap((kind, order) =>
    (world.found[kind.typeName] ?? [])
      .filter((listed) => !kind.export.heldBy?.(listed, world.found))
      .map((listed) => ({ kind, order, listed })),
  );
  // A name of its own (its API name), for those that have one; the others are named after them.
  const apiNames = new Map(
    named.flatMap(({ kind, listed }) =>
      typeof listed.name === "string" ? [[listed.id, pulumiName(listed.name, kind.export.word)]] : [],
    ),
  );
  const nameOf = (id: string, unknown = "service") => apiNames.get(id) ?? `${unknown}-${shortId(id)}`;
  const drafts: Draft[] = named.map(({ kind, order, listed }) => {
    const own = typeof listed.name === "string" ? listed.name : undefined;
    const wanted =
      own !== undefined
        ? pulumiName(own, kind.export.word)
        : kind.export.name!(listed, { nameOf, siblings: world.found[kind.typeName] });
    return { kind, order, id: listed.id, apiName: own ?? wanted, wanted };
  });

  const names = uniqueNames(drafts);
  const ordered = [...drafts].sort(
    (a, b) => a.order - b.order || compare(names.get(a)!, names.get(b)!) || compare(a.id, b.id),
  );
  const resources = ordered.map((d) => ({
    type: tokenOf(pkg, d.kind.typeName),
    name: names.get(d)!,
    id: importId(d.kind.scope, d.id, world.projectId),
    ...(options.version ? { version: options.version } : {}),
    ...(options.pluginDownloadURL ? { pluginDownloadURL: options.pluginDownloadURL } : {}),
  }));
  const counts = kinds
    .map((k) => ({ type: k.typeName, count: drafts.filter((d) => d.kind === k).length }))
    .filter((c) => c.count > 0);
  const secretsToSet = ordered.flatMap((d) =>
    neverReturnedSecrets(d.kind).map((property) => ({
      name: names.get(d)!,
      apiName: d.apiName,
      typeName: d.kind.typeName,
      property,
    })),
  );
  const skipped = [...(world.strays ?? [])].sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id));
  return { file: { resources }, counts, secretsToSet, skipped };
}
