#!/usr/bin/env bash
# make release-dry-run: every artifact a release tag publishes that can be built on this machine, built into
# dist/release and checked with its own ecosystem's tool, as the release workflow builds them
# (.github/workflows/release.yml; CI runs this on every push):
#   plugin   this machine's archive (make package), its executable asked its version
#   npm      @hosting/pulumi's tarball (make sdk-pack): npm pack --dry-run, and publint
#   PyPI     pulumi_hosting's sdist and wheel (python -m build), and twine check
#   Go       the module in sdk/ (the tag sdk/v<version>): go mod verify, go vet ./...
#   Maven    io.github.pulumihosting:hosting's jars (scripts/java-sdk.sh: mvn verify)
#   NuGet    PulumiHosting.Hosting's package (dotnet pack), where dotnet is installed
# Each step says what it made and how long it took; a missing tool fails the run, but for dotnet, which
# this project's machines cannot install (the release's runner has it). The Python tools live in a
# virtualenv in ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(node -p "require('./package.json').version")
out=dist/release
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting"
PUBLINT=publint@0.3.25
PYTHON_TOOLS=(build==1.3.0 twine==6.2.0)

rm -rf "$out" && mkdir -p "$out"
started_all=$(date +%s)
step() { # <name> <command...>
  local name=$1 started
  shift
  started=$(date +%s)
  echo "release-dry-run: $name"
  "$@"
  echo "release-dry-run: $name: done in $(($(date +%s) - started)) s"
}

plugin() {
  make --no-print-directory package
  local archive
  archive=$(node scripts/package.mjs --archive)
  cp "$archive" "$out/"
  tar -tzf "$archive" | grep -qx 'pulumi-resource-hosting\(\.exe\)\?' ||
    { echo "release-dry-run: $archive does not hold the executable at its root" >&2; exit 1; }
  [ "$(dist/pulumi-resource-hosting --version)" = "$version" ] ||
    { echo "release-dry-run: the executable does not say it is $version" >&2; exit 1; }
}

npm_package() {
  make --no-print-directory sdk-pack
  cp "dist/hosting-pulumi-$version.tgz" "$out/"
  npm pack --dry-run ./sdk/nodejs/bin --loglevel=warn
  npm exec --yes --package="$PUBLINT" -- publint run --strict ./sdk/nodejs/bin
}

pypi_package() {
  local venv="$cache/python-release-tools" build="$out/python-src"
  if [ ! -x "$venv/bin/twine" ] || [ "$(cat "$venv/.tools" 2>/dev/null)" != "${PYTHON_TOOLS[*]}" ]; then
    rm -rf "$venv" && python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PYTHON_TOOLS[@]}"
    echo "${PYTHON_TOOLS[*]}" >"$venv/.tools"
  fi
  # The package as Pulumi's providers publish it: sdk/python with its README beside pyproject.toml.
  cp -r sdk/python "$build"
  cp sdk/python/pulumi_hosting/README.md "$build/README.md"
  "$venv/bin/python" -m build --sdist --wheel --outdir "$out" "$build" >"$out/python-build.log" 2>&1 ||
    { cat "$out/python-build.log" >&2; exit 1; }
  rm -rf "$build" "$out/python-build.log"
  "$venv/bin/twine" check --strict "$out"/pulumi_hosting-*
}

go_module() {
  (cd sdk && go mod verify && go vet ./...)
}

maven_package() {
  scripts/java-sdk.sh verify
  cp dist/sdk-java/target/hosting-"$version".jar dist/sdk-java/target/hosting-"$version"-sources.jar "$out/"
}

nuget_package() {
  if ! command -v dotnet >/dev/null 2>&1; then
    echo "release-dry-run: NuGet: no dotnet here, so PulumiHosting.Hosting is not packed (the release's runner packs it)"
    return 0
  fi
  dotnet pack sdk/dotnet --configuration Release --output "$out"
}

step "plugin archive" plugin
step "npm: @hosting/pulumi" npm_package
step "PyPI: pulumi_hosting" pypi_package
step "Go: the module in sdk/" go_module
step "Maven: io.github.pulumihosting:hosting" maven_package
step "NuGet: PulumiHosting.Hosting" nuget_package
echo "release-dry-run: $(ls "$out" | tr '\n' ' ')in $out, in $(($(date +%s) - started_all)) s"
