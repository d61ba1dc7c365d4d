// The first stage's pure parts (provider/src/startup.ts): which Node.js will do, how often the engine's health is
// asked, and how the start-up failure travels in gRPC's grpc-message header.
import {
  ENGINE_CHECK_INTERVAL_MS,
  argumentError,
  encodeGrpcMessage,
  engineCheckInterval,
  nodeFloor,
  nodeTooOld,
  startFailureMessage,
  startedByHand,
  versionAtLeast,
} from "../../provider/src/startup";

const pkg = require("../../package.json");

test("the floor is package.json's engines.node (undici needs 20.18.1)", () => {
  expect(pkg.engines.node).toBe(">=20.18.1");
  expect(nodeFloor(pkg.engines.node)).toBe("20.18.1");
  expect(nodeFloor(" >= v22.1.0 ")).toBe("22.1.0");
  for (const range of ["^20.18.1", "20.x", ">=20", ">=20.18.1 <23", ""])
    expect(() => nodeFloor(range)).toThrow(/engines\.node must be ">=X\.Y\.Z"/);
});

test.each([
  ["v20.18.1", "20.18.1", true],
  ["v20.18.0", "20.18.1", false],
  ["v20.20.2", "20.18.1", true],
  ["v20.9.0", "20.18.1", false], // numeric, not textual: 9 < 18
  ["v21.0.0", "20.18.1", true],
  ["v19.99.99", "20.18.1", false],
  ["v18.20.4", "20.18.1", false],
  ["v22.0.0-nightly2024", "20.18.1", true],
  ["20.18.1", "20.18.1", true],
  ["v100.0.0", "20.18.1", true],
])("versionAtLeast(%s, %s) is %s", (version, floor, expected) => {
  expect(versionAtLeast(version, floor)).toBe(expected);
});

test("a version that is not one is an error, not a pass", () => {
  expect(() => versionAtLeast("twenty", "20.18.1")).toThrow(/not a Node\.js version/);
});

test("an old Node.js gets a reason that names both versions and the way out", () => {
  const reinstall = `pulumi plugin rm resource hosting ${pkg.version} --yes, then pulumi plugin install resource hosting ${pkg.version} --server ${pkg.pulumi.pluginDownloadURL}`;
  expect(nodeTooOld("v20.20.2")).toBeUndefined();
  const reason = nodeTooOld("v18.19.0", ">=20.18.1", "/usr/bin/node")!;
  expect(reason).toBe(
    `it needs Node.js 20.18.1 or newer, and the node that runs it (/usr/bin/node) is v18.19.0. Put a newer Node.js first on PATH, or install the plugin's single executable, which needs none: ${reinstall}`,
  );
  expect(startFailureMessage(reason, true)).toBe(`pulumi-resource-hosting could not start: ${reason}`);
  // Any other failure: the installation is broken, and reinstalling mends it.
  expect(startFailureMessage("ENOENT: no such file or directory, open '/x/pulumi-resource-hosting.server.js'")).toBe(
    `pulumi-resource-hosting could not start: ENOENT: no such file or directory, open '/x/pulumi-resource-hosting.server.js'. Reinstall the plugin: ${reinstall} (or make install in a checkout of pulumi-hosting)`,
  );
});

test.each([
  // left as they are
  ["plain text", "plain text"],
  ["~ and space", "~ and space"],
  // percent-encoded: %, control characters, and anything not ASCII (as UTF-8)
  ["100% sure", "100%25 sure"],
  ["line\nbreak", "line%0Abreak"],
  ["tab\there", "tab%09here"],
  ["naïve", "na%C3%AFve"],
])("grpc-message percent-encodes %j", (message, encoded) => {
  expect(encodeGrpcMessage(message)).toBe(encoded);
  expect(decodeURIComponent(encoded)).toBe(message);
});

test.each([
  // The engine: pipes, with its address, or (Handshake) without one.
  ["the engine, with its address", "127.0.0.1:5000", false, false, false],
  ["the engine speaking Handshake, with no address", undefined, false, false, false],
  // A person: a terminal on stdin or on stderr, and no address.
  ["a person in a terminal", undefined, true, true, true],
  ["a person with stderr sent to a file", undefined, true, false, true],
  ["a person piping something in", undefined, false, true, true],
  ["a person who passed an address by hand", "127.0.0.1:5000", true, true, false],
])("started by hand? %s", (_, address, stdinTTY, stderrTTY, expected) => {
  expect(startedByHand(address, { isTTY: stdinTTY }, { isTTY: stderrTTY })).toBe(expected);
});

test("argument errors are one line with balanced quotes, whatever node's parseArgs said", () => {
  const error = (code: string, message: string) => Object.assign(new TypeError(message), { code });
  expect(
    argumentError(
      error(
        "ERR_PARSE_ARGS_UNKNOWN_OPTION",
        `Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"`,
      ),
    ),
  ).toBe(
    `unknown option "--bogus": the plugin takes --logtostderr, -v=N, --tracing URL, --version and --help, then the engine's address`,
  );
  expect(argumentError(error("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", "Option '--v <value>' argument missing"))).toBe(
    'option "-v" needs a value: -v=N',
  );
  expect(argumentError(error("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", "Option '--help' does not take an argument"))).toBe(
    'option "--help" takes no value',
  );
  expect(argumentError(new TypeError('unexpected argument "x": the only argument is the engine\'s address'))).toBe(
    'unexpected argument "x": the only argument is the engine\'s address',
  );
});

test.each([
  [undefined, ENGINE_CHECK_INTERVAL_MS],
  ["", ENGINE_CHECK_INTERVAL_MS],
  ["300", 300_000],
  [" 0.2 ", 200],
  ["0.0001", 1],
  ["86400", 86_400_000],
])("HOSTING_ENGINE_CHECK_SECONDS=%j checks the engine every %i ms", (value, ms) => {
  expect(engineCheckInterval({ HOSTING_ENGINE_CHECK_SECONDS: value })).toEqual({ ms });
});

test.each(["0", "-5", "soon", "5s", "Infinity", "NaN", "86401", " "])(
  "HOSTING_ENGINE_CHECK_SECONDS=%j will not do: the reason names the variable and what would",
  (value) => {
    expect(engineCheckInterval({ HOSTING_ENGINE_CHECK_SECONDS: value })).toEqual({
      ms: ENGINE_CHECK_INTERVAL_MS,
      problem: `HOSTING_ENGINE_CHECK_SECONDS is ${JSON.stringify(value)}: give the seconds between the plugin's checks that the engine is still there, a number greater than 0 and at most 86400 (the default is 5), or unset it`,
    });
  },
);
