// The package's resources driven in-process, without the plugin: a lifecycle's context on a real
// HostingClient, and every resource's first example (the one the docs show) made through its own
// lifecycle, what it refers to first, its inputs checked and filled in as Check fills them. For tests
// that need one of every kind in a world (the list contract, a throwaway kind's probe) and whose
// subject is not the gRPC protocol (test/grpc/examples.test.ts drives the same examples through it).
import type { HostingClient } from "../../provider/src/api/client";
import { bindPackage } from "../../provider/src/framework/bind";
import { checkInputs } from "../../provider/src/framework/check";
import {
  isExampleSecret,
  isReference,
  tokenOf,
  type ExampleValue,
  type ResourceDeclaration,
} from "../../provider/src/framework/declare";
import type { PackageSpec } from "../../provider/src/framework/packageSchema";
import { SharedPoll } from "../../provider/src/framework/polling";
import type { PropertyMap } from "../../provider/src/framework/values";
import { hostingPackage } from "../../provider/src/package";
import type { Context } from "../../provider/src/resources/common";

/** A lifecycle's context: the client, the provider's project, no deadline to speak of, a silent display. */
export function contextFor(client: HostingClient, projectId: string): Context {
  const polls = new Map<string, SharedPoll<any>>();
  const signal = new AbortController().signal;
  return {
    client,
    config: { projectId },
    signal,
    operationTimeoutMs: 60_000,
    progress: () => undefined,
    warn: () => undefined,
    redact: (text) => text,
    sharedPoll: <T>(key: string, fetch: (signal: AbortSignal) => Promise<T>) => {
      if (!polls.has(key)) polls.set(key, new SharedPoll(fetch));
      return polls.get(key) as SharedPoll<T>;
    },
    made: () => undefined,
    creating: { signal },
  };
}

/** One made resource: its id and the outputs its create returned. */
export interface Made {
  id: string;
  outputs: Record<string, unknown>;
}

/**
 * Every resource's first example, made in the package's order (each refers only to resources declared before it), by
 * type name. References become the ids made; secrets their samples.
 */
export async function makeEveryExample(ctx: Context, schema: PackageSpec): Promise<Map<string, Made>> {
  const bound = bindPackage(hostingPackage, () => schema);
  const made = new Map<string, Made>();
  const value = (v: ExampleValue): unknown => {
    if (isReference(v)) return made.get(v.reference)?.outputs[v.output] ?? made.get(v.reference)?.id;
    if (isExampleSecret(v)) return v.sample;
    return v;
  };
  for (const resource of hostingPackage.resources as ResourceDeclaration[]) {
    const news = Object.fromEntries(Object.entries(resource.examples[0].inputs).map(([k, v]) => [k, value(v)]));
    const { spec } = bound.resource(tokenOf(hostingPackage, resource.typeName))!;
    // As the engine's Check: an example that leaves `name` out is named from its name in the program.
    const naming = { logicalName: resource.examples[0].name, randomSeed: new Uint8Array(), olds: {} };
    const checked = checkInputs(spec, news as PropertyMap, {
      packageName: hostingPackage.name,
      config: ctx.config,
      naming,
    });
    if (checked.failures.length > 0)
      throw new Error(`${resource.typeName}'s first example fails Check: ${JSON.stringify(checked.failures)}`);
    const created = await resource.lifecycle.create(ctx, checked.inputs);
    made.set(resource.typeName, { id: created.id, outputs: created.outputs as Record<string, unknown> });
  }
  return made;
}
