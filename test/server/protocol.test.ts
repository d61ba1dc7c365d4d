// What the engine says of itself (server/protocol.ts), checked field by field: each field that cannot be right is named
// with what would be right; what the engine sends passes.
import { attachProblems, configureProblems, handshakeProblems, isAddress } from "../../provider/src/server/protocol";

describe("an address to dial", () => {
  test.each([
    ["127.0.0.1:50051", true],
    ["localhost:1", true],
    ["[::1]:65535", true],
    ["engine.internal:443", true],
    ["127.0.0.1:1\nx", false],
    ["127.0.0.1", false],
    ["127.0.0.1:0", false],
    ["127.0.0.1:65536", false],
    ["127.0.0.1: 1", false],
    ["unix:///tmp/engine.sock", false],
    ["", false],
  ])("%j: %s", (address, ok) => {
    expect(isAddress(address)).toBe(ok);
  });
});

const handshake = {
  engineAddress: "127.0.0.1:50051",
  rootDirectory: "/home/me/.pulumi/plugins/resource-hosting-v1.0.0",
  programDirectory: "/home/me/.pulumi/plugins/resource-hosting-v1.0.0",
  mapperTarget: "127.0.0.1:50052",
  loaderTarget: "127.0.0.1:50053",
  resolverTarget: undefined,
};

describe("Handshake", () => {
  test("what the engine sends, booting the plugin or attaching to it (no directories), passes", () => {
    expect(handshakeProblems(handshake)).toEqual([]);
    expect(handshakeProblems({ engineAddress: "127.0.0.1:1", rootDirectory: "", programDirectory: "" })).toEqual([]);
    expect(handshakeProblems({ ...handshake, rootDirectory: "C:\\Users\\me\\plugins" })).toEqual([]);
  });

  test.each([
    ["engineAddress", "127.0.0.1:1\nx", "Handshake.engine_address"],
    ["engineAddress", "localhost", "Handshake.engine_address"],
    ["rootDirectory", "plugins/hosting", "Handshake.root_directory"],
    ["programDirectory", "/plugins/\u0000", "Handshake.program_directory"],
    ["mapperTarget", "127.0.0.1:0", "Handshake.mapper_target"],
    ["loaderTarget", "loader", "Handshake.loader_target"],
    ["resolverTarget", "::1:50051\r", "Handshake.resolver_target"],
  ])("%s %j is named as %s, with what would be right", (field, value, name) => {
    const problems = handshakeProblems({ ...handshake, [field]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(`^${name}: ${JSON.stringify(JSON.stringify(value)).slice(1, -1)} is not an? `),
    );
    expect(problems[0]).toMatch(/: give /);
  });
});

test("Attach: an address to dial", () => {
  expect(attachProblems({ address: "127.0.0.1:50051" })).toEqual([]);
  expect(attachProblems({ address: "" })).toEqual(["Attach.address: empty: give the engine's address, host:port"]);
  expect(attachProblems({ address: "x\n" })[0]).toMatch(/^Attach\.address: "x\\n" is not an address to dial: give /);
});

const configure = {
  variables: { "hosting:config:baseUrl": "https://api.example.com" },
  acceptSecrets: true,
  acceptResources: true,
  sendsOldInputs: true,
  sendsOldInputsToDelete: true,
  id: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  urn: "urn:pulumi:dev::shop::pulumi:providers:hosting::default_1_0_0",
  name: "default_1_0_0",
  type: "pulumi:providers:hosting",
};

describe("Configure", () => {
  test("what the engine sends passes; an engine without Handshake may say false, and leave the URN out", () => {
    expect(configureProblems(configure, true)).toEqual([]);
    const older = { variables: {}, acceptSecrets: false, acceptResources: false, sendsOldInputs: false };
    expect(configureProblems({ ...older, sendsOldInputsToDelete: false }, false)).toEqual([]);
    const parented = "urn:pulumi:dev::shop::my:index:Component$pulumi:providers:hosting::p";
    expect(configureProblems({ ...configure, urn: parented, name: "p" }, true)).toEqual([]);
  });

  test.each([
    [{ variables: { baseUrl: "x" } }, 'Configure.variables: the key "baseUrl" is not a configuration key: give '],
    [{ acceptSecrets: false }, "Configure.accept_secrets: false, but an engine that sent Handshake must send true"],
    [{ acceptResources: false }, "Configure.accept_resources: false, but an engine that sent Handshake must send true"],
    [{ sendsOldInputs: false }, "Configure.sends_old_inputs: false, but"],
    [{ sendsOldInputsToDelete: false }, "Configure.sends_old_inputs_to_delete: false, but"],
    [{ urn: "default" }, 'Configure.urn: "default" is not a URN: give urn:pulumi:<stack>::<project>::'],
    [
      { urn: "urn:pulumi:dev::shop::pulumi:providers:aws::default", name: "default" },
      'Configure.urn: "urn:pulumi:dev::shop::pulumi:providers:aws::default" names the type "pulumi:providers:aws"',
    ],
    [{ name: "other" }, 'Configure.name: "other" is not the name the URN gives ("default_1_0_0")'],
    [{ type: "pulumi:providers:aws" }, 'Configure.type: "pulumi:providers:aws" is not this provider\'s type: give '],
    [{ id: "a\nb" }, 'Configure.id: "a\\nb" holds a control character'],
  ])("%j: %s", (change, problem) => {
    const problems = configureProblems({ ...configure, ...change }, true);
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(problem)).toBe(true);
  });
});
