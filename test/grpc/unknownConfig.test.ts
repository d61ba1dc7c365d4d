// A provider whose settings come from another resource's outputs has values not known yet at preview
// (plain or secret-wrapped). Pulumi's engine then sends CheckConfig but no Configure, and answers Check,
// Diff and the previews for the provider itself (provider_plugin.go `Configure`; test/e2e/engineCalls):
// this plays an engine that configures it anyway. That must never crash the plugin: Check, Diff and the
// previews work without the API, and whatever needs the API says which setting it waits for.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ALICE } from "../../simulator/src";
import { DIFF_SOME, Plugin, UNKNOWN, secret, type GrpcFailure } from "./engine";
import { CONTAINER, PROJECT } from "./fixture";

const IMAGE = "registry.example.com/team/web:1.0.0";

describe.each([
  ["the token, plain", { baseUrl: "http://127.0.0.1:9", token: UNKNOWN, projectId: PROJECT }, "hosting:token"],
  ["the token, secret", { baseUrl: "http://127.0.0.1:9", token: secret(UNKNOWN), projectId: PROJECT }, "hosting:token"],
  [
    "the base URL, secret",
    { baseUrl: secret(UNKNOWN), token: secret(ALICE.token), projectId: PROJECT },
    "hosting:baseUrl",
  ],
  [
    "the project and the base URL",
    { baseUrl: UNKNOWN, token: ALICE.token, projectId: UNKNOWN },
    "hosting:baseUrl, hosting:projectId",
  ],
])("Configure with %s not known yet", (_name, config, keys) => {
  let plugin: Plugin;
  beforeAll(async () => {
    plugin = await Plugin.start();
  });
  afterAll(() => plugin.stop());

  test("CheckConfig and Configure answer, and the plugin keeps running", async () => {
    expect((await plugin.checkConfig(config)).failures).toEqual([]);
    await expect(plugin.configure(config)).resolves.toMatchObject({ acceptsecrets: true, supportspreview: true });
    expect(plugin.stderr).not.toMatch(/TypeError/);
  });

  test("Check, Diff and a create's preview work without the API", async () => {
    const checked = await plugin.check(CONTAINER, "web", { name: "web", image: IMAGE });
    expect(checked.failures).toEqual([]);
    const preview = await plugin.create(CONTAINER, "web", checked.inputs, { preview: true });
    expect(preview.properties).toMatchObject({ name: "web", image: IMAGE, status: UNKNOWN });
    const diff = await plugin.diff(
      CONTAINER,
      "web",
      "id-1",
      { ...checked.inputs, image: "registry.example.com/team/web:0.9.0" },
      checked.inputs,
      checked.inputs,
    );
    expect(diff.changes).toBe(DIFF_SOME);
  });

  test("what needs the API says which setting it waits for", async () => {
    const err = (await plugin
      .read(CONTAINER, "web", "00000000-0000-4000-8000-000000000001")
      .catch((e) => e)) as GrpcFailure;
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toBe(
      `the provider's ${keys} ${keys.includes(",") ? "are" : "is"} not known yet: ${keys.includes(",") ? "they come" : "it comes"} from another resource's outputs, which a preview does not have. This call needs the API; it runs once ${keys} ${keys.includes(",") ? "are" : "is"} known, at \`pulumi up\`.`,
    );
    const invoked = await plugin.invoke("hosting:index:getContainers", {}).catch((e) => e as GrpcFailure);
    // A function whose project is not known yet is not run at all (its result is unknown, as any preview's).
    if (keys.includes("projectId")) expect(invoked).toEqual({ return: {}, failures: [] });
    else expect("code" in invoked ? invoked.code : undefined).toBe(grpc.status.FAILED_PRECONDITION);
    expect(await plugin.call("getPluginInfo", new Empty())).toBeDefined();
  });
});
