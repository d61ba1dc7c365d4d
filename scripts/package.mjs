// `make package`: the plugin as users install it, for the machine this runs on. One executable,
// dist/pulumi-resource-hosting (.exe on Windows), that needs no Node.js: a Node.js single
// executable application (SEA) made from the node that runs this script, and the archive the
// Pulumi engine downloads, dist/pulumi-resource-hosting-v<version>-<os>-<arch>.tar.gz, with the
// executable at its root.
//
// What the executable holds (https://nodejs.org/api/single-executable-applications.html):
//   main script   the first stage, provider/src/main.ts, exactly as in bin/ but without the #! line
//   assets        the second stage, the third (undici inside it, initialised on the first API
//                 request) and their V8 code caches; provider/src/startup.ts loads them with node:sea
// An embedded main script cannot require() files, which is why the stages are assets and not
// files beside it. Why not one bundle with SEA's useCodeCache: that cache is made by compiling
// alone, so it holds the top level only; ours is made after the code ran. Measured, spawn to the
// first answer: one bundle with useCodeCache 4.7x a bare node, without 6.3x, this 3.1x (docs/performance.md,
// Start-up). The code cache is made by running this same first stage with this same node over the
// asset's exact bytes (scripts/code-cache.mjs): V8 checks the cache against the source and its own
// version and flags, and the executable is this node.
//
//   node scripts/package.mjs            build the executable and the archive
//   node scripts/package.mjs --archive  print the archive's name only
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import {
  PROVIDER_CACHE_FILE,
  PROVIDER_FILE,
  SERVER_CACHE_FILE,
  SERVER_FILE,
  bundleFirstStage,
  bundleSecondStage,
  bundleThirdStage,
} from "./bundles.mjs";
import { trainCodeCache } from "./code-cache.mjs";

const { version } = JSON.parse(readFileSync("package.json", "utf8"));
// Pulumi's names for platforms and architectures (the engine asks for these in the archive name).
const OS = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform];
const ARCH = { x64: "amd64", arm64: "arm64" }[process.arch];
if (!OS || !ARCH) throw new Error(`no Pulumi plugin platform for ${process.platform}/${process.arch}`);
const EXE = `pulumi-resource-hosting${process.platform === "win32" ? ".exe" : ""}`;
const ARCHIVE = `dist/pulumi-resource-hosting-v${version}-${OS}-${ARCH}.tar.gz`;

if (process.argv.includes("--archive")) {
  console.log(ARCHIVE);
  process.exit(0);
}

const WORK = "dist/sea";
const executable = join("dist", EXE);
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });

// 1. The three stages. The second and third as assets: their ASCII bytes are what the code caches are checked against.
const main = join(WORK, "main.js");
await bundleFirstStage(main, { shebang: false });
await bundleSecondStage(join(WORK, SERVER_FILE));
await bundleThirdStage(join(WORK, PROVIDER_FILE), { undici: "inline" });

// 2. The code caches: the first stage run by this node finds the other stages beside it, as the
//    executable finds them inside itself; the third stage's cache is written beside the second's.
await trainCodeCache(process.execPath, [main], join(WORK, SERVER_CACHE_FILE), {
  providerCache: join(WORK, PROVIDER_CACHE_FILE),
});

// 3. The preparation blob.
const config = join(WORK, "sea-config.json");
writeFileSync(
  config,
  JSON.stringify(
    {
      main,
      output: join(WORK, "sea-prep.blob"),
      disableExperimentalSEAWarning: true,
      // The main script is the 7 kB first stage; the other stages have their own, better caches.
      useCodeCache: false,
      assets: Object.fromEntries(
        [SERVER_FILE, SERVER_CACHE_FILE, PROVIDER_FILE, PROVIDER_CACHE_FILE].map((name) => [name, join(WORK, name)]),
      ),
    },
    null,
    2,
  ),
);
execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });

// 4. A copy of this node with the blob injected (postject), re-signed on macOS.
rmSync(executable, { force: true });
copyFileSync(process.execPath, executable);
chmodSync(executable, 0o755);
if (process.platform === "darwin") execFileSync("codesign", ["--remove-signature", executable], { stdio: "inherit" });
// postject's CLI, as Node's documentation runs it. Its ELF reader warns about note sections it
// cannot name (harmless); its output is shown only if it fails.
const postject = spawnSync(
  process.execPath,
  [
    createRequire(import.meta.url).resolve("postject/dist/cli.js"),
    executable,
    "NODE_SEA_BLOB",
    join(WORK, "sea-prep.blob"),
    "--sentinel-fuse",
    "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
    ...(process.platform === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : []),
  ],
  { encoding: "utf8" },
);
if (postject.status !== 0) {
  process.stderr.write(postject.stdout + postject.stderr);
  throw new Error(`postject failed (exit ${postject.status})`);
}
if (process.platform === "darwin") execFileSync("codesign", ["--sign", "-", executable], { stdio: "inherit" });

// 5. The archive: the executable at its root, as `pulumi plugin install` and the engine expect.
execFileSync("tar", ["-czf", ARCHIVE, "-C", dirname(executable), basename(executable)], { stdio: "inherit" });

const mb = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
console.log(`wrote ${resolve(executable)} (${mb(executable)}, node ${process.version})`);
console.log(
  `wrote ${ARCHIVE} (${mb(ARCHIVE)}); install it with: pulumi plugin install resource hosting ${version} --file ${ARCHIVE}`,
);
