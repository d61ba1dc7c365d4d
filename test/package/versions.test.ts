// One version, package.json's, everywhere a user or the engine meets one: the plugin's GetPluginInfo (the
// Node.js script and the single executable), the schema, every SDK (what each tells the engine, and its
// package's version), and the archive's name. And one pluginDownloadURL, package.json's pulumi field, in
// the schema and in what every SDK sends. And the version the docs and the example workflows install is it,
// and CHANGELOG.md's newest release.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { userPages } from "../docs/markdown";
import { ROOT, SCRIPT_PLUGIN, SINGLE_EXECUTABLE, built, startedVersion } from "./helpers";

const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));
const pkg = json("package.json");
const schema = json("schema.json");
const sdkPackage = json("sdk/nodejs/package.json");
const utilities = readFileSync(join(ROOT, "sdk/nodejs/utilities.ts"), "utf8");
const text = (file: string) => readFileSync(join(ROOT, file), "utf8");
/** What each generated SDK hands the engine about the plugin (pulumi-plugin.json, as Pulumi's generators write it). */
const PLUGIN_FILES = [
  "sdk/python/pulumi_hosting/pulumi-plugin.json",
  "sdk/go/hosting/pulumi-plugin.json",
  "sdk/dotnet/pulumi-plugin.json",
];

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
    ...Object.fromEntries(PLUGIN_FILES.map((file) => [`${file} version`, json(file).version])),
    "sdk/python/pyproject.toml version": /^ {2}version = "([^"]+)"$/m.exec(text("sdk/python/pyproject.toml"))?.[1],
    "sdk/dotnet/version.txt": text("sdk/dotnet/version.txt").trim(),
    "sdk/java/build.gradle version": /\? "([^"]+)"\n\s+: project\.version/.exec(text("sdk/java/build.gradle"))?.[1],
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
    ...Object.fromEntries(PLUGIN_FILES.map((file) => [`${file} server`, json(file).server])),
    "sdk/java/build.gradle server": /server "([^"]+)"/.exec(text("sdk/java/build.gradle"))?.[1],
  }).toEqual({
    schema: url,
    "sdk/nodejs/package.json pulumi.server": url,
    "sdk/nodejs/utilities.ts resourceOptsDefaults()": url,
    ...Object.fromEntries(PLUGIN_FILES.map((file) => [`${file} server`, url])),
    "sdk/java/build.gradle server": url,
  });
});

/** Where a page or a workflow names a version of this package that a user installs. */
const VERSION_MENTIONS = [
  /pulumi plugin install resource hosting (\d+\.\d+\.\d+\S*)/g,
  /hosting-pulumi-(\d+\.\d+\.\d+[^\s/]*?)\.tgz/g,
  /resource-hosting-v(\d+\.\d+\.\d+[^\s/-]*)/g,
  /@hosting\/pulumi@(\d+\.\d+\.\d+[^\s"'`]*)/g,
  /HOSTING_PLUGIN_VERSION: "?(\d+\.\d+\.\d+[^\s"]*)/g,
];

test("every page and example workflow installs package.json's version, and it is CHANGELOG.md's newest release", () => {
  const examples = readdirSync(join(ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(md|ya?ml)$/.test(file) && !file.includes("node_modules"))
    .map((file) => join("examples", file));
  const files = [...new Set([...userPages().filter((page) => page !== "CHANGELOG.md"), ...examples])];
  const mentions = files.flatMap((file) =>
    VERSION_MENTIONS.flatMap((pattern) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(pattern)].map((m) => ({ file, text: m[0], version: m[1] })),
    ),
  );
  // The README's install section, the installation page and the examples' workflows are among them.
  for (const file of ["README.md", "docs/installation-configuration.md", "examples/drift-check/github-actions.yml"])
    expect(mentions.map((m) => m.file)).toContain(file);
  expect(mentions.filter((m) => m.version !== pkg.version)).toEqual([]);

  const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
  const newest = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/m.exec(changelog);
  expect(newest?.[1]).toBe(pkg.version);
  expect(changelog).toContain(`[${pkg.version}]: ${pkg.homepage.replace(/#readme$/, "")}/`);
});
