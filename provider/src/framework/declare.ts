// How resources and functions plug into the framework: a declaration (an interface named by
// `typeName`, plus its flags) and the code that acts (a lifecycle, or an invoke). Tokens derive
// from the names. The framework knows nothing of the API: the client reaches lifecycles as `C`.
import type { SharedPoll } from "./polling";
import type { Checked, FieldFlags, FlagsOf, ObjectRule } from "./spec";
import type { PropertyMap } from "./values";

export const PACKAGE = "hosting";
export const tokenOf = (name: string) => `${PACKAGE}:index:${name}`;
export const PROVIDER_TOKEN = `pulumi:providers:${PACKAGE}`;

/** How long a create, update or delete may take when the program sets no customTimeouts. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 10 * 60 * 1000;

/** What a lifecycle call may use: the API, the provider's defaults, cancellation and the display. */
export interface OperationContext<C> {
  client: C;
  /** The provider's default project, if it has one. */
  projectId?: string;
  /** Aborted by Cancel, SIGTERM and the operation's deadline. */
  signal: AbortSignal;
  /** Milliseconds this operation may take (the engine's customTimeouts, or our default). */
  timeoutMs: number;
  /** Progress on the resource's line in the Pulumi display. */
  progress(message: string): void;
  warn(message: string): void;
  /** The text with every secret the provider knows (the token, secret inputs) blanked out. */
  redact(text: string): string;
  /**
   * The provider's one poll loop for `key` (the volumes of a project): waits on the same source
   * share its reads. Made with `fetch` on first use.
   */
  sharedPoll<T>(key: string, fetch: () => Promise<T>): SharedPoll<T>;
}

/** Where a resource lives: its API id and, for project-scoped resources, its project. */
export interface ResourceAddress {
  id: string;
  projectId?: string;
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

/**
 * The verbs of a resource. Inputs arrive checked, with defaults filled in; what a lifecycle
 * returns are the live values (properties the API never returns are added by the framework).
 */
export interface Lifecycle<T, C, In = T> {
  create(ctx: OperationContext<C>, inputs: In): Promise<{ id: string; outputs: Partial<T> }>;
  /** The live outputs, or undefined when the resource is gone. */
  read(ctx: OperationContext<C>, address: ResourceAddress, state: { outputs: Partial<T>; inputs: Partial<T> }): Promise<Partial<T> | undefined>;
  update(ctx: OperationContext<C>, address: ResourceAddress, change: { olds: Partial<T>; news: In; oldInputs: Partial<T> }): Promise<Partial<T>>;
  delete(ctx: OperationContext<C>, address: ResourceAddress, outputs: Partial<T>): Promise<void>;
}

export interface ResourceDeclaration<T = any, C = any, F extends FlagsOf<T> = FlagsOf<T>> {
  /** The interface that declares the properties; the token is `hosting:index:<typeName>`. */
  typeName: string;
  flags: F;
  projectScoped: boolean;
  deleteBeforeReplace?: boolean;
  lifecycle: Lifecycle<T, C, Checked<T, F>>;
}

/** A function's result: an interface of its own (`<Name>Result`), or a resource's properties (lookups). */
export type ResultDeclaration =
  | { flags: Record<string, FieldFlags> }
  | { resource: ResourceDeclaration; list?: string };

export interface FunctionDeclaration<A = any, R = any, C = any> {
  /** `getContainer`: the token is `hosting:index:getContainer`, the arguments' interface `GetContainerArgs`. */
  name: string;
  description: string;
  args: FlagsOf<A>;
  rules?: ObjectRule[];
  result: ResultDeclaration;
  invoke(ctx: OperationContext<C>, args: A): Promise<R>;
}

const upperFirst = (name: string) => name[0].toUpperCase() + name.slice(1);
export const argsTypeName = (fn: FunctionDeclaration) => `${upperFirst(fn.name)}Args`;
export const resultTypeName = (fn: FunctionDeclaration) => `${upperFirst(fn.name)}Result`;
/** The object type of a list function's items: `getContainers` → `hosting:index:getContainersItem`. */
export const itemTypeToken = (fn: FunctionDeclaration) => tokenOf(`${fn.name}Item`);

/** A request the program or the user got wrong (a malformed id, an id of another kind): nothing was done. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** An operation that acted but did not finish: the resource exists and must stay in state. */
export class PartialFailure extends Error {
  constructor(message: string, readonly id: string, readonly outputs: PropertyMap) {
    super(message);
    this.name = "PartialFailure";
  }
}
