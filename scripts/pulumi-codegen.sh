#!/usr/bin/env bash
# The code generators `make sdk` and the docs' `pulumi convert` need, for the languages whose language host
# the Pulumi CLI here lacks: a folder of pulumi-language-<language> links to tools/pulumi-codegen (Pulumi's
# own generators, pkg/codegen at the pinned version and pulumi-dotnet's, behind the language plugin
# interface; it runs no program), built once from Go modules and kept in the cache beside the CLI:
#   ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/pulumi-v<version>/codegen
# A language whose real host is beside the CLI (an official release installs every one) gets no link: the
# real host generates it. Only the callers put this folder on PATH, never a program's run.
#
#   scripts/pulumi-codegen.sh --bin-dir   the folder on stdout, what it did on stderr
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cli_bin=$("$root/scripts/pulumi-cli.sh" --bin-dir)
cache="$(dirname "$cli_bin")/codegen"
module="$root/tools/pulumi-codegen"
say() { echo "pulumi-codegen: $*" >&2; }

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

# Rebuilt when its sources change: the build is keyed by their digest.
digest=$(cat "$module"/go.mod "$module"/go.sum "$module"/*.go | sha256sum | cut -c1-16)
binary="$cache/pulumi-codegen-$digest"
if [ ! -x "$binary" ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "pulumi-codegen: Go is not installed to build tools/pulumi-codegen (the code generators for the languages whose host the Pulumi CLI here lacks). Install Go 1.26 or newer (https://go.dev/doc/install), or the Pulumi CLI's official release, which has every language host." >&2
    exit 1
  fi
  say "building tools/pulumi-codegen from Go modules into $cache (a first build takes a minute or two)"
  started=$(date +%s)
  version=$(sed -n 's/^PULUMI_VERSION=//p' "$root/scripts/pulumi-cli.sh")
  if ! (cd "$module" && go build -trimpath -ldflags "-X main.version=v$version" -o "$binary.tmp" .) >"$cache/build.log" 2>&1; then
    echo "pulumi-codegen: building tools/pulumi-codegen failed: $(grep -v '^go: downloading' "$cache/build.log" | head -n 3 | tr '\n' ' ')" >&2
    rm -f "$binary.tmp"
    exit 1
  fi
  mv "$binary.tmp" "$binary"
  find "$cache" -maxdepth 1 -name 'pulumi-codegen-*' ! -name "$(basename "$binary")" -delete
  say "built in $(($(date +%s) - started)) s"
fi

# .NET's generator downloads Pulumi's logo when the schema names none; the binary answers that address
# from pulumi-language-dotnet's own copy of it in the Go module cache (tools/pulumi-codegen/dotnet_logo.go).
logo="$cache/dotnet-logo.png"
if [ ! -f "$logo" ]; then
  dotnet_module=$(cd "$module" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3)
  # Every SDK in its codegen's expected outputs holds the same logo.png, the one that address serves.
  cp "$(find "$dotnet_module/codegen/testdata" -name logo.png | sort | head -n 1)" "$logo.tmp"
  mv "$logo.tmp" "$logo"
fi

rm -rf "$cache/bin" && mkdir -p "$cache/bin"
for language in nodejs python go dotnet; do
  if [ -x "$cli_bin/pulumi-language-$language" ]; then
    say "$language: the real host beside the CLI"
  else
    ln -s "$binary" "$cache/bin/pulumi-language-$language"
    say "$language: Pulumi's generator through tools/pulumi-codegen"
  fi
done
echo "$cache/bin"
