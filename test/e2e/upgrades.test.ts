// Upgrades under the real CLI (issue 42, item 3): every stack an earlier release wrote, as
// test/upgrades/states/<schema version>/ records it (docs/development.md, "When a field changes
// meaning"), is loaded with `pulumi stack import`, and its program then previews with no changes
// (`preview --expect-no-changes`) against the world it was recorded with, reading and writing nothing
// it should not. The fixtures are found by listing the directory (test/upgrades/fixtures.ts), so a new
// one is covered without editing this file; each runs twice, from its state as created (stack.json)
// and as refreshed (refreshed.json).
//
// A fixture holds each resource's state, not the engine's checkpoint, so the checkpoint is built here
// as the engine writes one (version 3): the stack resource; the default provider, as the program's
// SDK asks for it today (this plugin's version: the fixture records the resources' states, and the
// plugin those were written by is not here to load); each resource with its urn, id, inputs, outputs,
// parent, provider and dependencies, and its secrets in the form `stack import` takes in plain text
// (`{"4dabf…": "1b47…", "plaintext": "<JSON>"}`, what `stack export --show-secrets` shows), which the
// import encrypts with the stack's passphrase. The program is program.json as an inline program of the
// SDK's classes, an input that holds another resource's id given as that resource's `id` output.
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "@hosting/pulumi";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { fixtures, type Fixture, type Recorded } from "../upgrades/fixtures";
import { useE2E } from "./harness";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG] === SECRET_SIG;

/** A recorded value as a checkpoint holds it: each secret as its plaintext, which `stack import` encrypts. */
function checkpointValue(value: unknown): unknown {
  if (isSecret(value)) return { [SIG]: SECRET_SIG, plaintext: JSON.stringify(value.value) };
  if (Array.isArray(value)) return value.map(checkpointValue);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, checkpointValue(v)]));
  return value;
}

/** The ids a value holds, at any depth (references are recorded as ids). */
const idsIn = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : typeof value === "object" && value !== null && !isSecret(value)
      ? Object.values(value).flatMap(idsIn)
      : [];

const { version: VERSION, pluginDownloadURL } = require("../../schema.json") as {
  version: string;
  pluginDownloadURL: string;
};

/**
 * The name the engine gives the default provider the SDK's resources ask for (pkg/resource/deploy/providers
 * provider.go `DefaultName`): its version's parts and its download URL as a QName (`tokens.IntoQName`).
 */
const DEFAULT_PROVIDER = `default_${VERSION.replace(/[.+-]/g, "_")}_${pluginDownloadURL
  .split("/")
  .filter(Boolean)
  .map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, "_"))
  .join("/")}`;

/**
 * The engine's checkpoint (`stack import`'s format) of `states`, as a program of `project` would have left
 * it: the resources added to `empty`, the export of the stack before it had any (its secrets provider).
 */
function checkpoint(
  empty: pulumi.automation.Deployment,
  project: string,
  stack: string,
  states: Record<string, Recorded>,
  providerInputs: object,
): pulumi.automation.Deployment {
  const urnOf = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
  const stackUrn = urnOf("pulumi:pulumi:Stack", `${project}-${stack}`);
  const provider = { urn: urnOf("pulumi:providers:hosting", DEFAULT_PROVIDER), id: randomUUID() };
  const urnById = new Map(Object.entries(states).map(([name, state]) => [state.id, urnOf(state.type, name)]));
  const resources = Object.entries(states).map(([name, state]) => ({
    urn: urnOf(state.type, name),
    custom: true,
    id: state.id,
    type: state.type,
    inputs: checkpointValue(state.inputs),
    outputs: checkpointValue(state.outputs),
    parent: stackUrn,
    provider: `${provider.urn}::${provider.id}`,
    dependencies: [...new Set(idsIn(state.inputs).filter((id) => urnById.has(id)))].map((id) => urnById.get(id)),
    ...(state.initErrors ? { initErrors: state.initErrors } : {}),
    ...(state.refreshBeforeUpdate ? { refreshBeforeUpdate: true } : {}),
  }));
  return {
    version: 3,
    deployment: {
      ...empty.deployment,
      resources: [
        { urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack" },
        {
          urn: provider.urn,
          custom: true,
          id: provider.id,
          type: "pulumi:providers:hosting",
          inputs: { __internal: { pluginDownloadURL }, ...providerInputs, version: VERSION },
          outputs: { ...providerInputs, version: VERSION },
        },
        ...resources,
      ],
    },
  };
}

/** program.json as a program: each resource of the SDK's class, with another resource's id as its `id` output. */
function programOf(fixture: Fixture, states: Record<string, Recorded>): pulumi.automation.PulumiFn {
  return async () => {
    const made = new Map<string, pulumi.Output<string>>();
    const input = (value: unknown): unknown => {
      if (isSecret(value)) return pulumi.secret(value.value);
      if (typeof value === "string") return made.get(value) ?? value;
      if (Array.isArray(value)) return value.map(input);
      if (typeof value === "object" && value !== null)
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, input(v)]));
      return value;
    };
    for (const [name, inputs] of Object.entries(fixture.program)) {
      const { type, id } = states[name];
      const Resource = (hosting as unknown as Record<string, new (n: string, a: unknown) => pulumi.CustomResource>)[
        type.split(":").pop()!
      ];
      made.set(id, new Resource(name, input(inputs)).id);
    }
  };
}

const cases = fixtures().flatMap((fixture) =>
  (["stack", "refreshed"] as const).map((file) => ({
    fixture,
    file,
    name: `schema version ${fixture.version}, ${file}.json`,
  })),
);

describe.each(cases)("$name", ({ fixture, file }) => {
  const e2e = useE2E({ world: join(fixture.dir, "simulator.json"), simulator: { volumeProvisioningMs: 0 } });
  const states = fixture[file];

  test("loaded with `pulumi stack import`, previews its program with no changes, reading the platform only", async () => {
    const project = `upgrade-v${fixture.version}-${file}`;
    const stack = await e2e.stack(project, "dev", programOf(fixture, states));
    // Every resource of the state is on the platform the fixture recorded.
    for (const state of Object.values(states)) expect(e2e.recordOf(state.id)).toBeDefined();

    const config = e2e.providerConfig;
    const providerInputs = {
      baseUrl: config["hosting:baseUrl"].value,
      projectId: config["hosting:projectId"].value,
      token: { [SIG]: SECRET_SIG, plaintext: JSON.stringify(config["hosting:token"].value) },
    };
    const empty = await stack.exportStack();
    await stack.importStack(checkpoint(empty, project, stack.name, states, providerInputs));
    const exported = await e2e.cli(["stack", "export", "--stack", "dev"], { cwd: stack.workspace.workDir });
    expect(exported.code).toBe(0);
    // Imported as recorded: every resource under its id, its secrets encrypted.
    const imported = JSON.parse(exported.stdout).deployment.resources;
    expect(imported.filter((r: any) => r.type.startsWith("hosting:index:")).map((r: any) => r.id)).toEqual(
      Object.values(states).map((s) => s.id),
    );
    expect(exported.stdout).not.toContain('"plaintext"');

    const world = e2e.sim.control.snapshot();
    e2e.sim.control.clearRequests();
    const preview = await stack.preview({ expectNoChanges: true, diff: true });
    expect(preview.changeSummary).toEqual({ same: Object.keys(states).length + 1 });
    expect(e2e.sim.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(e2e.sim.control.snapshot()).toEqual(world);
  });
});
