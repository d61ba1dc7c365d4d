// One version, package.json's, everywhere a user or the engine meets one: the plugin's
// GetPluginInfo (the Node.js script and the single executable), the schema, the SDK's package.json
// and code, and the archive's name. And one pluginDownloadURL, package.json's pulumi field, in the
// schema and in what the SDK sends.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT, SCRIPT_PLUGIN, SINGLE_EXECUTABLE, built, startedVersion } from "./helpers";

const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));
const pkg = json("package.json");
const schema = json("schema.json");
const sdkPackage = json("sdk/nodejs/package.json");
const utilities = readFileSync(join(ROOT, "sdk/nodejs/utilities.ts"), "utf8");

const versionOf = (plugin: string) => startedVersion(built(plugin, plugin === SCRIPT_PLUGIN ? "build" : "package"));

test("package.json's version is the version of everything", async () => {
  const archive = execFileSync(process.execPath, ["scripts/package.mjs", "--archive"], {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  const versions = {
    "package.json": pkg.version,
    "GetPluginInfo (bin/, the Node.js script)": await versionOf(SCRIPT_PLUGIN),
    "GetPluginInfo (the single executable)": await versionOf(SINGLE_EXECUTABLE),
    "schema.json version": schema.version,
    "sdk/nodejs/package.json version": sdkPackage.version,
    "sdk/nodejs/package.json pulumi.version": sdkPackage.pulumi.version,
    "sdk/nodejs/utilities.ts getVersion()": /export function getVersion\(\): string \{\n\s+return "([^"]+)";/.exec(
      utilities,
    )?.[1],
    "the archive's name": /^pulumi-resource-hosting-v(.+)-(?:linux|darwin|windows)-(?:amd64|arm64)\.tar\.gz$/.exec(
      basename(archive),
    )?.[1],
  };
  expect(versions).toEqual(Object.fromEntries(Object.keys(versions).map((k) => [k, pkg.version])));
  expect(existsSync(join(ROOT, archive))).toBe(true);
});

test("package.json's pluginDownloadURL is the schema's and the SDK's, in a form the engine downloads from", () => {
  const url: string = pkg.pulumi.pluginDownloadURL;
  // github://api.github.com/<owner>/<repository> (release assets), or an http(s) base URL.
  expect(url).toMatch(/^(github:\/\/api\.github\.com\/[\w.-]+\/[\w.-]+|https?:\/\/\S+)$/);
  expect({
    schema: schema.pluginDownloadURL,
    "sdk/nodejs/package.json pulumi.server": sdkPackage.pulumi.server,
    "sdk/nodejs/utilities.ts resourceOptsDefaults()":
      /return \{ version: getVersion\(\), pluginDownloadURL: "([^"]+)" \};/.exec(utilities)?.[1],
  }).toEqual({
    schema: url,
    "sdk/nodejs/package.json pulumi.server": url,
    "sdk/nodejs/utilities.ts resourceOptsDefaults()": url,
  });
});
