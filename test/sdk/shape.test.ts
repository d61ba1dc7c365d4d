// The shape Pulumi's Node.js generator gives an SDK, as a program meets it: title-cased object
// types, <Name>State and get(name, id, state) (schema.json's stateInputs), optional inputs that
// take undefined, an Output form of a function without arguments that takes none. Programs are
// typechecked against sdk/nodejs, as a user's would be.
import { typecheckAgainstSdk } from "./typecheck";

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "@hosting/pulumi";

const item: hosting.types.output.GetVolumesItem = { id: "vol-1", name: "data" };
const state: hosting.VolumeState = { name: "data", sizeGb: 20 };
const found: hosting.Volume = hosting.Volume.get("data", "vol-1", state);
const connection: hosting.types.input.DatabaseConnectionArgs | undefined = undefined;
const pg: hosting.PostgresState = { connection };
const volume = new hosting.Volume("v", {
  name: "v",
  sizeGb: 1,
  projectId: pulumi.output<string | undefined>(undefined),
});
const registries: pulumi.Output<hosting.GetRegistriesResult> = hosting.getRegistriesOutput();
const ok: boolean = hosting.Volume.isInstance(found) && hosting.Provider.isInstance(undefined);
export const out = { item, pg, volume: volume.id, registries, ok };
`;

test("a program using the names and signatures Pulumi's generator writes typechecks", async () => {
  expect(await typecheckAgainstSdk({ "index.ts": program })).toBe("");
});

test("the types say what a lookup takes and returns", async () => {
  const typed = `
import * as hosting from "@hosting/pulumi";
export async function lookups() {
    const registry = await hosting.getRegistry({ id: "r" });
    // @ts-expect-error the API never returns a registry's password, and the result has none
    void registry.password;
    // @ts-expect-error a registry is the user's, not a project's
    void hosting.getRegistry({ name: "ghcr", projectId: "p" });
    // @ts-expect-error a name is a string
    void hosting.getContainer({ name: 42 });
    const links = (await hosting.getServiceLinks({ consumerServiceId: "c" })).links;
    const injected: { [key: string]: string } | undefined = links[0].injectedEnv;
    // @ts-expect-error a service link has no name
    void links[0].name;
    return injected;
}
`;
  expect(await typecheckAgainstSdk({ "index.ts": typed })).toBe("");
});

test(
  "the names it does not write do not exist: lower-case object types, " + "an argument to getRegistriesOutput",
  async () => {
    const wrong = `
import * as hosting from "@hosting/pulumi";
export const item: hosting.types.output.getVolumesItem | undefined = undefined;
export const registries = hosting.getRegistriesOutput({ projectId: "p" });
`;
    const said = await typecheckAgainstSdk({ "index.ts": wrong });
    expect(said).toMatch(/index\.ts\(3,\d+\): error TS2724: .*'getVolumesItem'.*Did you mean 'GetVolumesItem'/);
    expect(said).toMatch(/index\.ts\(4,\d+\): error TS2353: .*projectId/);
  },
);
