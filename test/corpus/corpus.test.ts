// The bad-input corpus: what a user might type, and the failure that must answer it at preview,
// naming the property and saying what would be right: Check's (or CheckConfig's), or for a change
// the API cannot make, the update's preview. None of these may reach the API: the simulator must
// see zero requests.
import { hostingPackage } from "../../provider/src/package";
import { ALICE, startSimulator, type Simulator } from "../../simulator/src";
import { Plugin, secret, type GrpcFailure } from "../grpc/engine";

const PROJECT = ALICE.projects[0];
const UUID = "0b5f6a5e-2a3c-4a51-9d0e-0c1f3c2b1a00";
const UUID2 = "7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6";
const IMAGE = "registry.example.com/acme/web:1.4.2";

interface Case {
  /** What the user typed, in words. */
  typed: string;
  /** Resource type (without `hosting:index:`), or "config" for the provider's configuration. */
  type: string;
  /** The program's inputs: only the bad property differs from a valid resource. */
  inputs: Record<string, unknown>;
  /** The resource's name in the program (`r` unless said): what an autonamed resource is named from. */
  logicalName?: string;
  /** The resource as state has it (an update: refused at the update's preview). */
  olds?: Record<string, unknown>;
  /** The property the failure must name. */
  property: string;
  /** What the reason must say (the remedy, or what is wrong and what is right). */
  says: RegExp;
}

const container = (bad: Record<string, unknown>) => ({ name: "web", image: IMAGE, ...bad });
const database = (bad: Record<string, unknown>) => ({ name: "db", ...bad });
const registry = (bad: Record<string, unknown>) => ({ name: "ghcr", host: "ghcr.io", ...bad });
const volume = (bad: Record<string, unknown>) => ({ name: "data", sizeGb: 10, ...bad });
const attachment = (bad: Record<string, unknown>) => ({
  volumeId: UUID,
  containerId: UUID2,
  mountPath: "/data",
  ...bad,
});
const link = (bad: Record<string, unknown>) => ({ consumerServiceId: UUID, providerServiceId: UUID2, ...bad });
const config = (bad: Record<string, unknown>) => ({
  baseUrl: "https://api.example.com",
  token: secret("t0ken-value"),
  ...bad,
});
const drop = (key: string, value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

const IMAGE_FORM = /<registry_host>\/<namespace>\/<repo>:<tag>, e\.g\. "registry\.example\.com\/team\/app:1\.4\.2"/;
const NAME_FORM = /lowercase letters, digits and dashes/;

const CASES: Case[] = [
  // ---- Container: image ----
  {
    typed: "an image with no tag",
    type: "Container",
    inputs: container({ image: "registry.example.com/acme/web" }),
    property: "image",
    says: /has no tag/,
  },
  {
    typed: "the tag `latest`",
    type: "Container",
    inputs: container({ image: "registry.example.com/acme/web:latest" }),
    property: "image",
    says: /"latest"/,
  },
  {
    typed: "a digest with no tag",
    type: "Container",
    inputs: container({ image: `registry.example.com/acme/web@sha256:${"a".repeat(64)}` }),
    property: "image",
    says: /digest but no tag.*by tag/,
  },
  {
    typed: "uppercase letters in the repository",
    type: "Container",
    inputs: container({ image: "registry.example.com/Acme/Web:1.0.0" }),
    property: "image",
    says: /uppercase/,
  },
  {
    typed: "a trailing space",
    type: "Container",
    inputs: container({ image: `${IMAGE} ` }),
    property: "image",
    says: /whitespace/,
  },
  {
    typed: "a space inside",
    type: "Container",
    inputs: container({ image: "registry.example.com/acme/my app:1.0" }),
    property: "image",
    says: /whitespace/,
  },
  {
    typed: "no registry host (Docker Hub shorthand)",
    type: "Container",
    inputs: container({ image: "acme/web:1.0.0" }),
    property: "image",
    says: /names no registry host/,
  },
  {
    typed: "a bare image name",
    type: "Container",
    inputs: container({ image: "nginx:1.25" }),
    property: "image",
    says: /names no registry host/,
  },
  {
    typed: "an empty image",
    type: "Container",
    inputs: container({ image: "" }),
    property: "image",
    says: /must not be empty/,
  },
  {
    typed: "a URL with a scheme",
    type: "Container",
    inputs: container({ image: "https://registry.example.com/acme/web:1.0.0" }),
    property: "image",
    says: IMAGE_FORM,
  },
  {
    typed: "a number instead of an image",
    type: "Container",
    inputs: container({ image: 42 }),
    property: "image",
    says: /must be a string/,
  },
  {
    typed: "no image at all",
    type: "Container",
    inputs: drop("image", container({})),
    property: "image",
    says: /image is required/,
  },
  // ---- Container: name ----
  {
    typed: "an empty name",
    type: "Container",
    inputs: container({ name: "" }),
    property: "name",
    says: /must not be empty.*e\.g\. "web"/,
  },
  {
    typed: "a 64-character name",
    type: "Container",
    inputs: container({ name: "a".repeat(64) }),
    property: "name",
    says: /64 characters long; use at most 63/,
  },
  {
    typed: "uppercase letters in a name",
    type: "Container",
    inputs: container({ name: "Web" }),
    property: "name",
    says: NAME_FORM,
  },
  {
    typed: "an underscore in a name",
    type: "Container",
    inputs: container({ name: "web_api" }),
    property: "name",
    says: NAME_FORM,
  },
  {
    typed: "a name starting with a digit",
    type: "Container",
    inputs: container({ name: "1web" }),
    property: "name",
    says: /starting with a letter/,
  },
  {
    typed: "a name ending with a dash",
    type: "Container",
    inputs: container({ name: "web-" }),
    property: "name",
    says: /not ending with a dash/,
  },
  {
    typed: "a space in a name",
    type: "Container",
    inputs: container({ name: "my app" }),
    property: "name",
    says: NAME_FORM,
  },
  {
    typed: "a dot in a name",
    type: "Container",
    inputs: container({ name: "web.api" }),
    property: "name",
    says: NAME_FORM,
  },
  {
    typed: "no name, and a resource name that cannot become one",
    type: "Container",
    logicalName: "123",
    inputs: drop("name", container({})),
    property: "name",
    says: /name is required here: no valid name can be made from the resource's name "123" .*; set name in the program/,
  },
  // ---- Container: port, sizes ----
  {
    typed: "port 0",
    type: "Container",
    inputs: container({ httpPort: 0 }),
    property: "httpPort",
    says: /from 1 to 65535/,
  },
  {
    typed: "port 65536",
    type: "Container",
    inputs: container({ httpPort: 65536 }),
    property: "httpPort",
    says: /from 1 to 65535/,
  },
  {
    typed: "a negative port",
    type: "Container",
    inputs: container({ httpPort: -80 }),
    property: "httpPort",
    says: /from 1 to 65535/,
  },
  {
    typed: "a fractional port",
    type: "Container",
    inputs: container({ httpPort: 80.5 }),
    property: "httpPort",
    says: /whole number/,
  },
  {
    typed: "the port as a string",
    type: "Container",
    inputs: container({ httpPort: "8080" }),
    property: "httpPort",
    says: /must be an integer/,
  },
  {
    typed: "negative replicas",
    type: "Container",
    inputs: container({ replicas: -1 }),
    property: "replicas",
    says: /greater than zero/,
  },
  {
    typed: "zero replicas",
    type: "Container",
    inputs: container({ replicas: 0 }),
    property: "replicas",
    says: /greater than zero/,
  },
  {
    typed: "fractional replicas",
    type: "Container",
    inputs: container({ replicas: 1.5 }),
    property: "replicas",
    says: /whole number/,
  },
  {
    typed: "negative CPU",
    type: "Container",
    inputs: container({ cpuMilli: -250 }),
    property: "cpuMilli",
    says: /greater than zero/,
  },
  {
    typed: "fractional memory",
    type: "Container",
    inputs: container({ memoryMb: 0.5 }),
    property: "memoryMb",
    says: /whole number/,
  },
  {
    typed: "negative storage",
    type: "Container",
    inputs: container({ storageGb: -1 }),
    property: "storageGb",
    says: /greater than zero/,
  },
  // ---- Container: env ----
  {
    typed: "an env key with `=`",
    type: "Container",
    inputs: container({ env: { "A=B": "1" } }),
    property: "env",
    says: /"A=B" is not valid.*use a name such as "LOG_LEVEL"/,
  },
  {
    typed: "an empty env key",
    type: "Container",
    inputs: container({ env: { "": "x" } }),
    property: "env",
    says: /empty variable name.*such as "LOG_LEVEL"/,
  },
  {
    typed: "an env key with a space",
    type: "Container",
    inputs: container({ env: { "MY VAR": "1" } }),
    property: "env",
    says: /use a name such as/,
  },
  {
    typed: "an env key of 300 characters (quoted cut short)",
    type: "Container",
    inputs: container({ env: { ["K".repeat(300)]: "1" } }),
    property: "env",
    says: /^env variable name "K{40}…" is 300 bytes; a name may be at most 253 bytes \(the platform keeps /,
  },
  {
    typed: "an env key starting with a digit",
    type: "Container",
    inputs: container({ env: { "1X": "y" } }),
    property: "env",
    says: /use a name such as/,
  },
  {
    typed: "a number as an env value",
    type: "Container",
    inputs: container({ env: { PORT: 8080 } }),
    property: "env",
    says: /env\.PORT must be a string/,
  },
  {
    typed: "a boolean as an env value",
    type: "Container",
    inputs: container({ env: { DEBUG: true } }),
    property: "env",
    says: /env\.DEBUG must be a string/,
  },
  {
    typed: "a nested object as an env value",
    type: "Container",
    inputs: container({ env: { A: { b: "1" } } }),
    property: "env",
    says: /env\.A must be a string/,
  },
  {
    typed: "env as a list of KEY=value strings",
    type: "Container",
    inputs: container({ env: ["A=1"] }),
    property: "env",
    says: /must be a map of strings/,
  },
  // ---- Container: other ----
  {
    typed: 'public as the string "yes"',
    type: "Container",
    inputs: container({ public: "yes" }),
    property: "public",
    says: /must be a boolean/,
  },
  {
    typed: 'running as the string "false"',
    type: "Container",
    inputs: container({ running: "false" }),
    property: "running",
    says: /must be a boolean/,
  },
  {
    typed: "an unknown property (ports)",
    type: "Container",
    inputs: container({ ports: [80] }),
    property: "ports",
    says: /not a property of hosting:index:Container; valid properties are .*httpPort/,
  },
  {
    typed: "a misspelt property (imge)",
    type: "Container",
    inputs: container({ imge: IMAGE }),
    property: "imge",
    says: /valid properties are .*image/,
  },
  {
    typed: "an output set as an input (status)",
    type: "Container",
    inputs: container({ status: "running" }),
    property: "status",
    says: /output computed by the service and cannot be set/,
  },
  {
    typed: "a project name instead of its id",
    type: "Container",
    inputs: container({ projectId: "my-project" }),
    property: "projectId",
    says: /not an id; use the UUID/,
  },
  // ---- Managed databases ----
  {
    typed: "an underscore and capitals in a database name",
    type: "Postgres",
    inputs: database({ name: "Orders_DB" }),
    property: "name",
    says: NAME_FORM,
  },
  {
    typed: "negative storage",
    type: "Mysql",
    inputs: database({ storageGb: -5 }),
    property: "storageGb",
    says: /greater than zero/,
  },
  {
    typed: "fractional memory",
    type: "Redis",
    inputs: database({ memoryMb: 1.5 }),
    property: "memoryMb",
    says: /whole number/,
  },
  {
    typed: "a resize of an existing database",
    type: "Postgres",
    inputs: database({ cpuMilli: 1000 }),
    olds: database({ cpuMilli: 500 }),
    property: "cpuMilli",
    says: /cannot resize a managed PostgreSQL database.*--replace/,
  },
  {
    typed: "a bigger disk for an existing database",
    type: "Mysql",
    inputs: database({ storageGb: 20 }),
    olds: database({ storageGb: 10 }),
    property: "storageGb",
    says: /cannot resize.*under a new name/,
  },
  {
    typed: "an engine version the API does not take",
    type: "Mysql",
    inputs: database({ version: "8.0" }),
    property: "version",
    says: /not a property of hosting:index:Mysql; valid properties are/,
  },
  {
    typed: "no name, and a resource name with no letter",
    type: "Redis",
    logicalName: "42-42",
    inputs: {},
    property: "name",
    says: /name is required here: no valid name can be made from the resource's name "42-42"/,
  },
  {
    typed: "a 100-character name",
    type: "Redis",
    inputs: database({ name: "r".repeat(100) }),
    property: "name",
    says: /use at most 63/,
  },
  // ---- Registry ----
  {
    typed: "a host with a scheme",
    type: "Registry",
    inputs: registry({ host: "https://ghcr.io" }),
    property: "host",
    says: /no scheme or path/,
  },
  {
    typed: "a host with a path",
    type: "Registry",
    inputs: registry({ host: "ghcr.io/acme" }),
    property: "host",
    says: /such as "registry\.example\.com"/,
  },
  {
    typed: "an empty host",
    type: "Registry",
    inputs: registry({ host: "" }),
    property: "host",
    says: /such as "registry\.example\.com"/,
  },
  {
    typed: "a host with a space",
    type: "Registry",
    inputs: registry({ host: "ghcr .io" }),
    property: "host",
    says: /such as "registry\.example\.com"/,
  },
  {
    typed: "no host",
    type: "Registry",
    inputs: drop("host", registry({})),
    property: "host",
    says: /host is required/,
  },
  {
    typed: "a password as a number",
    type: "Registry",
    inputs: registry({ password: secret(123456) }),
    property: "password",
    says: /must be a string, not a number$/,
  },
  {
    typed: "an illegal registry name",
    type: "Registry",
    inputs: registry({ name: "GitHub Registry" }),
    property: "name",
    says: NAME_FORM,
  },
  // ---- Volume ----
  {
    typed: "a negative size",
    type: "Volume",
    inputs: volume({ sizeGb: -10 }),
    property: "sizeGb",
    says: /greater than zero/,
  },
  { typed: "size 0", type: "Volume", inputs: volume({ sizeGb: 0 }), property: "sizeGb", says: /greater than zero/ },
  {
    typed: "a fractional size",
    type: "Volume",
    inputs: volume({ sizeGb: 2.5 }),
    property: "sizeGb",
    says: /whole number/,
  },
  {
    typed: "the size as a string",
    type: "Volume",
    inputs: volume({ sizeGb: "10" }),
    property: "sizeGb",
    says: /must be an integer/,
  },
  {
    typed: "a shrink",
    type: "Volume",
    inputs: volume({ sizeGb: 5 }),
    olds: volume({ sizeGb: 10 }),
    property: "sizeGb",
    says: /can only grow: it is 10 now.*Use 10 or more/,
  },
  {
    typed: "no size",
    type: "Volume",
    inputs: drop("sizeGb", volume({})),
    property: "sizeGb",
    says: /sizeGb is required/,
  },
  {
    typed: "a space in a volume name",
    type: "Volume",
    inputs: volume({ name: "Data Volume" }),
    property: "name",
    says: NAME_FORM,
  },
  // ---- VolumeAttachment ----
  {
    typed: "a relative mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "data" }),
    property: "mountPath",
    says: /is relative; use an absolute path such as "\/data"/,
  },
  {
    typed: "a ./ mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "./data" }),
    property: "mountPath",
    says: /absolute path such as "\/data"/,
  },
  {
    typed: "an empty mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "" }),
    property: "mountPath",
    says: /must not be empty; use an absolute path/,
  },
  {
    typed: "`..` in a mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "/data/../etc" }),
    property: "mountPath",
    says: /"\.\." segments; use a plain absolute path/,
  },
  {
    typed: "the root as a mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "/" }),
    property: "mountPath",
    says: /use a directory such as "\/data"/,
  },
  {
    typed: "a trailing slash",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: "/data/" }),
    property: "mountPath",
    says: /use "\/data"/,
  },
  {
    typed: "a volume name instead of its id",
    type: "VolumeAttachment",
    inputs: attachment({ volumeId: "data" }),
    property: "volumeId",
    says: /not an id; use the UUID/,
  },
  {
    typed: "no container",
    type: "VolumeAttachment",
    inputs: drop("containerId", attachment({})),
    property: "containerId",
    says: /containerId is required/,
  },
  {
    typed: 'readOnly as the string "true"',
    type: "VolumeAttachment",
    inputs: attachment({ readOnly: "true" }),
    property: "readOnly",
    says: /must be a boolean/,
  },
  // ---- ServiceLink ----
  {
    typed: "a service name instead of its id",
    type: "ServiceLink",
    inputs: link({ consumerServiceId: "web" }),
    property: "consumerServiceId",
    says: /not an id; use the UUID/,
  },
  {
    typed: "an empty provider id",
    type: "ServiceLink",
    inputs: link({ providerServiceId: "" }),
    property: "providerServiceId",
    says: /not an id; use the UUID/,
  },
  {
    typed: "an uppercase link type",
    type: "ServiceLink",
    inputs: link({ linkType: "HTTP" }),
    property: "linkType",
    says: /lowercase letters, e\.g\. "http"/,
  },
  {
    typed: "a link type with a digit",
    type: "ServiceLink",
    inputs: link({ linkType: "http2" }),
    property: "linkType",
    says: /lowercase letters, e\.g\. "http"/,
  },
  // ---- sizes: what the provider sends is bounded ----
  // (a 10 MB env value once stalled the plugin and orphaned the app)
  // 5 MiB: over gRPC's default 4 MB message, at half the CPU of 10 MB
  // (google-protobuf's JS string codec, both ways: ~0.7 s of CPU a MiB).
  {
    typed: "a 5 MB env value",
    type: "Container",
    inputs: container({ env: { BIG: "x".repeat(5 * 1024 * 1024) } }),
    property: "env",
    says: /^env\.BIG is 5,242,880 bytes; it may be at most 32 KiB \(put large configuration in the image/,
  },
  {
    typed: "1,001 env variables",
    type: "Container",
    inputs: container({ env: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`V${i}`, "1"])) }),
    property: "env",
    says: /^env has 1,001 entries; it may have at most 1,000/,
  },
  {
    typed: "300 KiB of env in all",
    type: "Container",
    inputs: container({
      env: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`V${i}`, "x".repeat(30 * 1024)])),
    }),
    property: "env",
    says: /^env holds 307,220 bytes in all; it may hold at most 256 KiB/,
  },
  {
    typed: "a 600-character image",
    type: "Container",
    inputs: container({ image: `registry.example.com/acme/${"a".repeat(580)}:1.0` }),
    property: "image",
    says: /^image is \d+ bytes; it may be at most 512 bytes/,
  },
  {
    typed: "a 300-character display name",
    type: "Container",
    inputs: container({ displayName: "D".repeat(300) }),
    property: "displayName",
    says: /^displayName is 300 bytes; it may be at most 256 bytes/,
  },
  {
    typed: "a restart trigger holding a whole file",
    type: "Container",
    inputs: container({ restartTrigger: "x".repeat(4096) }),
    property: "restartTrigger",
    says: /at most 1 KiB \(use a hash of what changed/,
  },
  {
    typed: "a 9 KiB registry password",
    type: "Registry",
    inputs: registry({ password: secret("p".repeat(9 * 1024)) }),
    property: "password",
    says: /^password is 9,216 bytes; it may be at most 8 KiB$/,
  },
  {
    typed: "a 300-character registry user name",
    type: "Registry",
    inputs: registry({ username: "u".repeat(300) }),
    property: "username",
    says: /^username is 300 bytes; it may be at most 256 bytes/,
  },
  {
    typed: "a 2 KiB mount path",
    type: "VolumeAttachment",
    inputs: attachment({ mountPath: `/${"d".repeat(2048)}` }),
    property: "mountPath",
    says: /^mountPath is 2,049 bytes; it may be at most 1 KiB/,
  },
  // ---- provider configuration (CheckConfig) ----
  {
    typed: "plain http to a remote host",
    type: "config",
    inputs: config({ baseUrl: "http://api.example.com" }),
    property: "baseUrl",
    says: /non-loopback host.*Use https:\/\//,
  },
  {
    typed: "a base URL with no scheme",
    type: "config",
    inputs: config({ baseUrl: "api.example.com" }),
    property: "baseUrl",
    says: /not a valid URL; for example "https:\/\/api\.example\.com"/,
  },
  {
    typed: "an ftp:// base URL",
    type: "config",
    inputs: config({ baseUrl: "ftp://api.example.com" }),
    property: "baseUrl",
    says: /must start with https:\/\//,
  },
  {
    typed: "credentials in the base URL",
    type: "config",
    inputs: config({ baseUrl: "https://me:pw@api.example.com" }),
    property: "baseUrl",
    says: /must not contain credentials; pass the token separately/,
  },
  {
    typed: "a query string in the base URL",
    type: "config",
    inputs: config({ baseUrl: "https://api.example.com/?v=1" }),
    property: "baseUrl",
    says: /must not carry a query string/,
  },
  {
    typed: "an empty base URL",
    type: "config",
    inputs: config({ baseUrl: "" }),
    property: "baseUrl",
    says: /for example "https:\/\/api\.example\.com"/,
  },
  {
    typed: "no token",
    type: "config",
    inputs: drop("token", config({})),
    property: "token",
    says: /pulumi config set hosting:token --secret/,
  },
  {
    typed: "an empty token",
    type: "config",
    inputs: config({ token: secret("") }),
    property: "token",
    says: /pulumi config set hosting:token --secret/,
  },
  {
    typed: "a project name instead of its id",
    type: "config",
    inputs: config({ projectId: "default" }),
    property: "projectId",
    says: /not an id; use the UUID/,
  },
  {
    typed: "a zero request timeout",
    type: "config",
    inputs: config({ requestTimeoutSeconds: 0 }),
    property: "requestTimeoutSeconds",
    says: /out of range; use a value from 1 to 3600/,
  },
  {
    typed: "a request timeout no timer can hold",
    type: "config",
    inputs: config({ requestTimeoutSeconds: 3e9 }),
    property: "requestTimeoutSeconds",
    says: /3000000000 is out of range; use a value from 1 to 3600/,
  },
  {
    typed: "a fractional request timeout",
    type: "config",
    inputs: config({ requestTimeoutSeconds: 2.5 }),
    property: "requestTimeoutSeconds",
    says: /whole number/,
  },
  {
    typed: "negative retries",
    type: "config",
    inputs: config({ maxRetries: -1 }),
    property: "maxRetries",
    says: /out of range; use a value from 0 to 100/,
  },
  {
    typed: "an unknown setting (region)",
    type: "config",
    inputs: config({ region: "eu-west-1" }),
    property: "region",
    says: /not a property of pulumi:providers:hosting; valid properties are .*baseUrl/,
  },
];

let sim: Simulator;
let plugin: Plugin;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  plugin = await Plugin.start();
  await plugin.configure({ baseUrl: sim.url, token: ALICE.token, projectId: PROJECT });
  sim.control.clearRequests();
});
afterAll(async () => {
  await plugin?.stop();
  await sim?.close();
});

test(`the corpus has at least 60 cases, across every resource and the configuration (${CASES.length})`, () => {
  expect(CASES.length).toBeGreaterThanOrEqual(60);
  expect(new Set(CASES.map((c) => c.type))).toEqual(
    new Set([...hostingPackage.resources.map((r) => r.typeName), "config"]),
  );
});

/** An update's preview, as the engine sends it after Check and Diff (olds: the state's outputs and inputs). */
async function updatePreview(c: Case) {
  const type = `hosting:index:${c.type}`;
  const checked = await plugin.check(type, "r", c.inputs, c.olds);
  expect(checked.failures).toEqual([]);
  const failure = (await plugin
    .update(type, "r", UUID, c.olds!, checked.inputs, c.olds!, { preview: true })
    .catch((e) => e)) as GrpcFailure;
  expect(failure.code).toBe(3); // INVALID_ARGUMENT
  return failure.details;
}

describe.each(CASES.map((c) => [`${c.type}: ${c.typed} → ${c.property}`, c] as const))("%s", (_label, c) => {
  test("fails at preview naming the property, saying what is right", async () => {
    if (c.olds) {
      const reason = await updatePreview(c);
      expect(reason).toMatch(c.says);
      expect(reason).toMatch(new RegExp(`^${c.property}\\b`));
      return;
    }
    const { failures } =
      c.type === "config"
        ? await plugin.checkConfig(c.inputs)
        : await plugin.check(`hosting:index:${c.type}`, c.logicalName ?? "r", c.inputs);
    expect(failures).toEqual([{ property: c.property, reason: expect.stringMatching(c.says) }]);
    // The reason names the property, so that it reads on its own in the CLI's output.
    expect(failures[0].reason).toMatch(new RegExp(`\\b${c.property}\\b|^(image|env|host|port) `, "i"));
  });
});

test("none of the corpus reached the API", () => {
  expect(sim.control.requests()).toEqual([]);
});
