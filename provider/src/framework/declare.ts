// How resources and functions plug into the framework. A resource is one declaration: an
// interface named by `typeName`, a flags table, where it lives, its lifecycle, how it is listed,
// the lookups and export it takes part in, and its examples. Everything else (Check, Diff,
// previews, the schema, the lookup functions, hosting-export's file, the docs' examples) derives
// from the declarations. The framework knows nothing of the API: lifecycles reach it as `C`.
import { notAnId, notAnIdMessage } from "../ids";
import type { StateMigration } from "./migrations";
import type { SharedPoll } from "./polling";
import type { JsonSchema, TypeReader } from "./jsonSchema";
import type { Checked, FieldFlags, FlagsOf, ObjectRule } from "./spec";
import type { PropertyMap, PropertyValue } from "./values";

/** How long a create, update or delete may take when the program sets no customTimeouts. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 10 * 60 * 1000;

/** What a lifecycle call may use: the API, the provider's settings, cancellation and the display. */
export interface OperationContext<C> {
  client: C;
  /** The provider's configuration, resolved (`projectId`, …). */
  config: PropertyMap;
  /** Aborted by Cancel, SIGTERM and the operation's deadline. */
  signal: AbortSignal;
  /** Milliseconds this operation may take (the engine's customTimeouts, or our default). */
  operationTimeoutMs: number;
  /** Progress on the resource's line in the Pulumi display. */
  progress(message: string): void;
  warn(message: string): void;
  /** The text with every secret the provider knows (the token, secret inputs) blanked out. */
  redact(text: string): string;
  /**
   * The provider's one poll loop for `key` (the volumes of a project): waits on the same source
   * share its reads. Made with `fetch` on first use; `fetch`'s signal ends when no wait is left for its answer.
   */
  sharedPoll<T>(key: string, fetch: (signal: AbortSignal) => Promise<T>): SharedPoll<T>;
  /**
   * A create's resource exists from here on (its POST was answered): whatever fails after this,
   * the framework records it with these outputs as a partial failure, so that it is never
   * orphaned. `refreshFirst: false` where a Read could not tell what is left to do (see PartialFailure).
   */
  made(id: string, outputs: PropertyMap, refreshFirst?: boolean): void;
  /**
   * What a create's POST is sent with: the signal, and, when an earlier create of this resource made a record the
   * engine was never told of (server/unrecorded.ts), its id, which the API client takes back (calling `adopted`)
   * rather than making another.
   */
  creating: { signal: AbortSignal; adopt?: string; adopted?(): void };
}

/**
 * Where a resource lives. `project`: in a project, with a `projectId` input that defaults to the
 * provider's (ids import as `<projectId>/<id>`); `user`: the user's own, outside projects.
 */
export type Scope = "project" | "user";

/** Where a resource is: its API id and, for project resources, its project. */
export interface ResourceAddress {
  id: string;
  projectId?: string;
}

/**
 * `<id>` or `<projectId>/<id>`: the second form is how users import from another project.
 * Resources outside projects accept the same form and ignore the prefix.
 */
export function parseResourceId(id: string, scope: Scope): ResourceAddress {
  const slash = id.indexOf("/");
  if (slash < 0) return { id };
  const address = id.slice(slash + 1);
  return scope === "project" ? { projectId: id.slice(0, slash), id: address } : { id: address };
}

/**
 * Where a resource is, from the id the engine sends (`<id>` or `<projectId>/<id>`), each part refused unless it can
 * only be an id: an id is data, never a path (`<project>/..` must not reach the project itself). An id of parts (a
 * VolumeAttachment's `<volumeId>:<containerId>`) is checked part by part; the project in front, which a resource
 * outside projects ignores, must still be one.
 */
export function resourceAddress(id: string, scope: Scope): ResourceAddress {
  const address = parseResourceId(id, scope);
  const slash = id.indexOf("/");
  const parts: Array<[string, string]> = [
    ...address.id.split(":").map((part): [string, string] => [part, "id"]),
    ...(slash >= 0 ? [[id.slice(0, slash), "project id"] as [string, string]] : []),
  ];
  for (const [part, what] of parts) {
    const why = notAnId(part);
    if (why) throw new InputError(notAnIdMessage(what, part, why));
  }
  return address;
}

/**
 * The verbs of a resource. Inputs arrive checked, with defaults filled in; what a lifecycle
 * returns are the live values (properties the API never returns are added by the framework).
 * Without `update`, every input must replace the resource (or be `fixedAfterCreate`): the binder
 * refuses a declaration with an input that would change in place with nothing to send it.
 */
export interface Lifecycle<T, C, In = T> {
  /**
   * `replacing`: the resource this create replaces, when this run's Diff said so (its state), or the engine's Check
   * did (its old inputs: a `replacementTrigger`, `replaceWith` or `deletedWith`). A targeted replacement (`pulumi up
   * --replace`, a taint) says nothing: its create looks like a new resource's.
   */
  create(
    ctx: OperationContext<C>,
    inputs: In,
    options?: { replacing?: Partial<T> },
  ): Promise<{ id: string; outputs: Partial<T> }>;
  /** The live outputs, or undefined when the resource is gone. */
  read(
    ctx: OperationContext<C>,
    address: ResourceAddress,
    state: { outputs: Partial<T>; inputs: Partial<T> },
  ): Promise<Partial<T> | undefined>;
  update?(
    ctx: OperationContext<C>,
    address: ResourceAddress,
    change: {
      olds: Partial<T>;
      news: In;
      oldInputs: Partial<T>;
      /**
       * `sent` with every `ignoreChanges` path inside `property` holding its value in `live`: for an update
       * that sends a whole map, what it keeps of the platform's map as read just before (a key ignored, and
       * changed outside Pulumi since the state last saw it, is kept, never sent back to the old input).
       */
      keepIgnored?<V extends PropertyValue>(property: string, live: V, sent: V): V;
    },
  ): Promise<Partial<T>>;
  /**
   * `successor`: the resource of the same URN that outlives this delete (plan.ts `successorOf`): the delete is of
   * the old one a replacement created before it deleted, which may share its id (`<volumeId>:<containerId>`).
   */
  delete(
    ctx: OperationContext<C>,
    address: ResourceAddress,
    outputs: Partial<T>,
    options?: { successor?: { id: string; outputs: Partial<T> } },
  ): Promise<void>;
  /**
   * What a replacement would destroy ("PostgreSQL database app-db and all its data (10 GB)"): a
   * change that replaces it then fails at preview (judge.ts); `pulumi up --replace`, `pulumi
   * destroy` and deleting it from the program still work.
   */
  dataAtStake?(olds: Partial<T>): string;
  /**
   * Rules that need the live world (ReadWriteOnce, the services `links` names), judged before any
   * write (judge.ts): at a preview's Create or Update, which a refusal fails, again just before the
   * real one, and before the delete that starts a delete-before-replace. The proposal's inputs may
   * hold unknowns at a preview (another resource's outputs): a rule judges what is known, and the
   * rest is judged before the real write. Returns why not (the rule, what it concerns, the fix) or
   * nothing.
   */
  judge?(ctx: OperationContext<C>, proposal: Proposal<T, In>): Promise<string | undefined>;
}

/** What an operation would do, for a lifecycle's `judge`. */
export interface Proposal<T, In> {
  /** `create`, the create of a `replacement`, or an `update`. */
  operation: "create" | "replacement" | "update";
  /** The checked inputs it works towards. */
  news: In;
  /**
   * The resource as it is: an update's, or the one a replacement replaces (detached or deleted first, for a
   * delete-before-replace).
   */
  olds?: Partial<T>;
  /** Its id, for an update or the resource a replacement replaces. */
  id?: string;
}

/** One resource as a list reads it: its properties (in the resource's terms) and its id. */
export type Listed<T = Record<string, unknown>> = Partial<T> & { id: string };

/**
 * A value in an example that is another resource's output (`consumerServiceId: web.id`): that
 * resource (by its type name) is declared first, from its own first example.
 */
export interface ExampleReference {
  reference: string;
  output: string;
}

/** A secret in an example: the program reads it from its stack config (`config.requireSecret(key)`). */
export interface ExampleSecret {
  secretConfig: string;
  /** What tests and the soak send in its place. */
  sample: string;
}

export type ExampleValue =
  | PropertyValue
  | ExampleReference
  | ExampleSecret
  | ExampleValue[]
  | { [key: string]: ExampleValue };

export interface ResourceExample {
  /** What the example shows: "An app", "A database with its size". */
  title: string;
  /** The resource's name in the program (`new hosting.Container("web", …)`). */
  name: string;
  inputs: Record<string, ExampleValue>;
  /** An in-place change of the same resource (tests and the soak apply it; every input of some kinds replaces). */
  update?: Record<string, ExampleValue>;
  /** Resource options, as the program writes them (`{ customTimeouts: { create: "20m" } }`). */
  options?: Record<string, PropertyValue>;
}

export const referenceTo = (typeName: string, output = "id"): ExampleReference => ({ reference: typeName, output });
export const secretConfig = (key: string, sample: string): ExampleSecret => ({ secretConfig: key, sample });
export const isReference = (value: unknown): value is ExampleReference =>
  typeof value === "object" && value !== null && "reference" in value;
export const isExampleSecret = (value: unknown): value is ExampleSecret =>
  typeof value === "object" && value !== null && "secretConfig" in value;

/** `get<Plural>`: every resource of its collection in a scope, optionally filtered by some of their properties. */
export interface ListLookup<T> {
  /** `getContainers`. */
  name: string;
  /** The result's property that holds the items (`services`). */
  key: string;
  description: string;
  /** Arguments that keep only the items whose property of that name equals them. */
  filters?: Array<keyof T & string>;
  /** The items, when they are more than the resource's own `list` (the containers list holds databases too). */
  items?(ctx: OperationContext<any>, projectId: string | undefined): Promise<Array<Listed<T>>>;
}

/** `get<TypeName>`: one resource by `id` or by `name`. */
export interface IdOrNameLookup {
  /** What the lookup calls the kind: "Postgres database". */
  noun: string;
  /** The result's property its example shows (by default the resource's first output). */
  show?: string;
  /**
   * The id of the resource with this name, when `list` is not where to look: in a collection of
   * several kinds, whatever holds the name, so that a lookup of the wrong kind says which it is.
   */
  findByName?(ctx: OperationContext<any>, name: string, projectId: string | undefined): Promise<string | undefined>;
}

export interface ResourceDeclaration<T = any, C = any, F extends FlagsOf<T> = FlagsOf<T>> {
  /** The interface that declares the properties; the token is `<package>:index:<typeName>`. */
  typeName: string;
  flags: F;
  scope: Scope;
  /** The id's form when it is not the API's own id (`<volumeId>:<containerId>`): import takes this. */
  idFormat?: string;
  deleteBeforeReplace?: boolean;
  lifecycle: Lifecycle<T, C, Checked<T, F>>;
  /**
   * Why the live resource is not finished (its last rollout failed, it is not ready yet), or
   * nothing when it is; `recorded` is how the state last had it (nothing on an import). A read of
   * an unfinished resource answers as a partial failure that asks to be refreshed before the next
   * update, so that the engine keeps it failed through a refresh and the next `pulumi up` retries it.
   */
  unfinished?(live: Partial<T>, recorded: Partial<T>): string | undefined;
  /**
   * Every resource of this kind in a project (or the user's), in its terms, with its id: lookups and hosting-export
   * read through it.
   */
  list?(ctx: OperationContext<C>, projectId: string | undefined): Promise<Array<Listed<T>>>;
  /** The lookup functions it has: `get<TypeName>` (through `list` and the lifecycle's read), `get<Plural>`. */
  lookups?: { byIdOrName?: IdOrNameLookup; list?: ListLookup<T> };
  /** hosting-export adopts what `list` finds. */
  export?: ExportDeclaration<T, C>;
  /** The first is the one the docs, the tests and the soak use. */
  examples: ResourceExample[];
  /**
   * How a state an earlier release recorded becomes this release's, for each property that changed
   * meaning since (migrations.ts): applied in order to the recorded outputs and inputs the engine
   * sends back, before anything reads them.
   */
  migrations?: StateMigration[];
}

export interface ExportDeclaration<T, C> {
  /** What generated names call the kind where a name is shared (`web-container`, `web-volume`). */
  word: string;
  /** The name of one that has no name of its own, from the names of what it connects (`data-on-worker`). */
  name?(listed: Listed<T>, names: ExportNames): string;
  /**
   * Whether another exported resource takes it in on import (a Container's `links` holds the app's
   * http links): then it is left out of the file, so that nothing is imported twice.
   */
  heldBy?(listed: Listed<T>, found: Readonly<Record<string, ReadonlyArray<Listed>>>): boolean;
  /** What its collection holds that no resource manages (services of an unknown type): left out, and said. */
  strays?(
    ctx: OperationContext<C>,
    projectId: string | undefined,
  ): Promise<Array<{ id: string; name: string; type: string }>>;
}

/** What an export name may draw on: the names of the other resources, and every resource of its own kind. */
export interface ExportNames {
  nameOf(id: string): string;
  siblings: ReadonlyArray<Listed>;
}

/** A function's result: an interface of its own (`<Name>Result`), or a resource's properties (lookups). */
export type ResultDeclaration =
  | { flags: Record<string, FieldFlags> }
  | { resource: ResourceDeclaration; list?: string };

export interface FunctionExample {
  title: string;
  args: Record<string, ExampleValue>;
  /** The result's property the example exports. */
  show: string;
}

export interface FunctionDeclaration<A = any, R = any, C = any> {
  /** `getContainer`: the token is `<package>:index:getContainer`, the arguments' interface `GetContainerArgs`. */
  name: string;
  description: string;
  args: FlagsOf<A>;
  /**
   * The arguments' types and docs: by default the interface `<Name>Args` (`GetContainerLogsArgs`);
   * a lookup derived from a resource builds them from that resource's properties.
   */
  argsSchema?(readType: TypeReader): JsonSchema;
  rules?: ObjectRule[];
  result: ResultDeclaration;
  examples: FunctionExample[];
  invoke(ctx: OperationContext<C>, args: A): Promise<R>;
}

const upperFirst = (name: string) => name[0].toUpperCase() + name.slice(1);
export const argsTypeName = (fn: { name: string }) => `${upperFirst(fn.name)}Args`;
export const resultTypeName = (fn: { name: string }) => `${upperFirst(fn.name)}Result`;

/** A package: its name, what it holds, and the tokens that follow from them. */
export interface PackageDeclaration {
  /** The Pulumi package name (`hosting`). */
  name: string;
  /** What the registry shows: schema.json's displayName, description, keywords, license and publisher. */
  about: { displayName: string; description: string; keywords: string[]; license: string; publisher: string };
  /** The Node.js SDK's npm name, as schema.json's `language.nodejs` names it and the examples import it. */
  nodejsPackage: string;
  resources: ResourceDeclaration[];
  functions: FunctionDeclaration[];
  /** The provider's configuration, declared as an interface and flags like a resource. */
  config: { typeName: string; flags: Record<string, FieldFlags> };
}

export const tokenOf = (pkg: { name: string }, name: string) => `${pkg.name}:index:${name}`;
export const providerToken = (pkg: { name: string }) => `pulumi:providers:${pkg.name}`;
/** The object type of a list function's items: `getContainers` → `<package>:index:getContainersItem`. */
export const itemTypeToken = (pkg: { name: string }, fn: { name: string }) => tokenOf(pkg, `${fn.name}Item`);

/** A request the program or the user got wrong (a malformed id, an id of another kind): nothing was done. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** An operation that acted but did not finish: the resource exists and must stay in state. */
export class PartialFailure extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: PropertyMap,
    /**
     * Whether the engine is to refresh it before the next update (the default). Not when `outputs`
     * know what a Read cannot tell (a link made whose variables no restart has carried into the app
     * yet): a refresh would erase it, and the next update would not finish the work.
     */
    readonly refreshFirst = true,
  ) {
    super(message);
    this.name = "PartialFailure";
  }
}
