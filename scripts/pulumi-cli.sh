#!/usr/bin/env bash
# make pulumi-cli: the Pulumi CLI at the version this project pins, with the language hosts its
# tests use (YAML and Java) and YAML's converter (`pulumi convert --from yaml`), in one folder outside the
# repository:
#   ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/pulumi-v<version>/bin
# Each tool comes from the first of three places that has it, and the script says which and how long
# it took:
#   1. PATH: a `pulumi` that says it is v<version> (and the hosts beside it, as a release installs them);
#   2. the official release, get.pulumi.com's archive for this OS and CPU (the CLI and every host;
#      PULUMI_CLI_RELEASES names a mirror of https://get.pulumi.com/releases/sdk);
#   3. a build from Go modules (tools/<name>/go.mod), kept in the cache: the second run takes no time.
# When none works for the CLI, one line says why and what to install, and the script fails.
#
#   scripts/pulumi-cli.sh            get them, saying from where
#   scripts/pulumi-cli.sh --bin-dir  the same, the reports on stderr; stdout is the folder alone
#
# pulumi-language-nodejs runs TypeScript programs from their folder (`pulumi up` in examples/...). The
# Go module proxy of this project's machines does not serve it: there it is reported missing, with
# why, and nothing here needs it (the end-to-end suite and make demo drive TypeScript programs
# through the Automation API, which needs only the CLI).
set -euo pipefail

# 3.274.1: the newest CLI whose pkg/v3 module the Go module proxy serves here (3.265.0, pinned before,
# is refused). pulumi-yaml 1.25.0 is the newest served; it builds against pkg/sdk v3.206.0 only.
PULUMI_VERSION=3.274.1
YAML_VERSION=1.25.0
# pulumi-java's pkg v1.22.0: the newest the proxy serves (pulumi-language-java, Java's host and generator).
JAVA_VERSION=1.22.0

root=$(cd "$(dirname "$0")/.." && pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/pulumi-v$PULUMI_VERSION"
bin="$cache/bin"
print_dir=false
[ "${1:-}" = "--bin-dir" ] && print_dir=true

say() { if $print_dir; then echo "pulumi-cli: $*" >&2; else echo "pulumi-cli: $*"; fi; }
seconds_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

mkdir -p "$bin"
# Two test workers may ask at once: one builds, the other waits for it.
exec 9>"$cache/.lock"
flock 9

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) platform="" ;;
esac

# The official release's archive, unpacked into the cache once. Prints why when it cannot.
release_failure=""
from_release() {
  [ -x "$cache/release/pulumi/pulumi" ] && return 0
  [ -n "$release_failure" ] && return 1
  if [ -z "$platform" ]; then
    release_failure="no release is published for $(uname -s) $(uname -m)"
    return 1
  fi
  local url="${PULUMI_CLI_RELEASES:-https://get.pulumi.com/releases/sdk}/pulumi-v$PULUMI_VERSION-$platform.tar.gz"
  local archive="$cache/release.tar.gz"
  if ! curl -fsSL --max-time 300 -o "$archive" "$url" 2>"$cache/release.log"; then
    release_failure="downloading $url failed ($(tail -n 1 "$cache/release.log"))"
    rm -f "$archive"
    return 1
  fi
  rm -rf "$cache/release" && mkdir -p "$cache/release"
  tar -xzf "$archive" -C "$cache/release" && rm -f "$archive"
}

# A Go module build of tools/<module> into the cache. Prints why when it cannot.
build_failure=""
from_go_modules() { # <module dir> <package> <output> <ldflags>
  local module="$root/tools/$1" package=$2 output=$3 ldflags=$4 log="$cache/build-$(basename "$3").log"
  if ! command -v go >/dev/null 2>&1; then
    build_failure="Go is not installed to build it"
    return 1
  fi
  local flags=(-trimpath -ldflags "$ldflags")
  # A module whose go.sum could not be written yet (tools/pulumi-language-nodejs) is resolved in a copy.
  if [ ! -f "$module/go.sum" ]; then
    rm -rf "$cache/module-$1" && cp -r "$module" "$cache/module-$1" && module="$cache/module-$1"
    flags+=(-mod=mod)
  fi
  if ! (cd "$module" && go build "${flags[@]}" -o "$output.tmp" "$package") >"$log" 2>&1; then
    build_failure="building $package from the Go module proxy failed: $(grep -v '^go: downloading' "$log" | grep -m 1 -i 'error\|forbidden\|not available\|cannot\|fail' || tail -n 1 "$log")"
    rm -f "$output.tmp"
    return 1
  fi
  mv "$output.tmp" "$output"
}

version_of() { "$1" version 2>/dev/null | head -n 1 | tr -d '\r'; }

# The CLI.
started=$(date +%s.%N)
on_path=$(command -v pulumi 2>/dev/null || true)
if [ -n "$on_path" ] && [ "$(realpath "$on_path")" != "$(realpath -m "$bin/pulumi")" ] &&
  [ "$(version_of "$on_path")" = "v$PULUMI_VERSION" ]; then
  ln -sfn "$on_path" "$bin/pulumi"
  cli_from="PATH ($on_path)"
elif [ -x "$bin/pulumi" ] && [ "$(version_of "$bin/pulumi")" = "v$PULUMI_VERSION" ]; then
  cli_from="the cache ($(cat "$cache/pulumi.from" 2>/dev/null || echo "an earlier run"))"
elif from_release; then
  ln -sfn "$cache/release/pulumi/pulumi" "$bin/pulumi"
  echo "the official release" >"$cache/pulumi.from"
  cli_from="the official release (get.pulumi.com)"
else
  command -v go >/dev/null 2>&1 && say "no pulumi v$PULUMI_VERSION on PATH and $release_failure; building it from Go modules (github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION; a first build takes 3 to 6 minutes) into $cache"
  if ! from_go_modules pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$bin/pulumi" \
    "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"; then
    echo "make pulumi-cli: no Pulumi CLI v$PULUMI_VERSION: none on PATH, $release_failure, and $build_failure. Install the Pulumi CLI v$PULUMI_VERSION (https://www.pulumi.com/docs/install/) or Go 1.26 or newer (https://go.dev/doc/install), then run make pulumi-cli again." >&2
    exit 1
  fi
  echo "a build from Go modules" >"$cache/pulumi.from"
  cli_from="a build from Go modules (github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION)"
fi
say "pulumi $(version_of "$bin/pulumi") from $cli_from, in $(seconds_since "$started") s"

# A language host: beside the CLI taken from PATH or the release, else in the cache, else from the
# release, else built. A host that could not be had is not looked for again (its .unavailable file
# says why; delete it to try again). <name> <module dir> <package> <ldflags>
language_host() {
  local name=$1 started beside
  started=$(date +%s.%N)
  beside="$(dirname "$(realpath "$bin/pulumi")")/$name"
  if [ "$beside" != "$bin/$name" ] && [ -x "$beside" ]; then
    ln -sfn "$beside" "$bin/$name"
    say "$name beside the CLI ($beside), in $(seconds_since "$started") s"
  elif [ -x "$bin/$name" ]; then
    say "$name from the cache ($(cat "$cache/$name.from" 2>/dev/null || echo "an earlier run")), in $(seconds_since "$started") s"
  elif [ -f "$cache/$name.unavailable" ]; then
    unavailable=$(cat "$cache/$name.unavailable")
    return 1
  elif from_release && [ -x "$cache/release/pulumi/$name" ]; then
    ln -sfn "$cache/release/pulumi/$name" "$bin/$name"
    echo "the official release" >"$cache/$name.from"
    say "$name from the official release, in $(seconds_since "$started") s"
  elif from_go_modules "$2" "$3" "$bin/$name" "$4"; then
    echo "a build from Go modules" >"$cache/$name.from"
    say "$name from a build from Go modules ($3), in $(seconds_since "$started") s"
  else
    unavailable="none beside the CLI, ${release_failure:-the release lacks it}, and $build_failure"
    echo "$unavailable" >"$cache/$name.unavailable"
    return 1
  fi
}

unavailable=""
if ! language_host pulumi-language-yaml pulumi-language-yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
  "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION"; then
  rm -f "$cache/pulumi-language-yaml.unavailable"
  echo "make pulumi-cli: no pulumi-language-yaml: $unavailable. Install the Pulumi CLI (https://www.pulumi.com/docs/install/), which includes it, or Go 1.26 or newer (https://go.dev/doc/install), then run make pulumi-cli again." >&2
  exit 1
fi

build_failure=""
if ! language_host pulumi-converter-yaml pulumi-language-yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-converter-yaml \
  "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION"; then
  rm -f "$cache/pulumi-converter-yaml.unavailable"
  say "no pulumi-converter-yaml ($unavailable). make docs-languages and the end-to-end suite's languages convert YAML with it; the CLI downloads it for \`pulumi convert\` where it can reach GitHub, or install Go 1.26 or newer (https://go.dev/doc/install) and run make pulumi-cli again."
fi

build_failure=""
if ! language_host pulumi-language-java pulumi-language-java github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java \
  "-X github.com/pulumi/pulumi-java/pkg/version.Version=v$JAVA_VERSION"; then
  rm -f "$cache/pulumi-language-java.unavailable"
  say "no pulumi-language-java ($unavailable). make sdk generates sdk/java with it, and the end-to-end suite runs its Java program with it (both fail without it): install the Pulumi CLI (https://www.pulumi.com/docs/install/), which includes it, or Go 1.26 or newer (https://go.dev/doc/install), then run make pulumi-cli again."
fi

build_failure=""
if ! language_host pulumi-language-nodejs pulumi-language-nodejs \
  github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3 \
  "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"; then
  say "no pulumi-language-nodejs ($unavailable; not tried again until $cache/pulumi-language-nodejs.unavailable is deleted). Nothing here needs it: TypeScript programs run through the Automation API. To run \`pulumi up\` in a TypeScript program's folder, install the Pulumi CLI (https://www.pulumi.com/docs/install/), which includes it."
fi

if $print_dir; then echo "$bin"; fi
