#!/usr/bin/env bash
# make sdk: every SDK from schema.json, by Pulumi's own generators through the Pulumi CLI at the pinned
# version: `pulumi package gen-sdk <schema> --language <language>` for Node.js, Python, Go, .NET and Java,
# each into <out>/<language>, as Pulumi's provider repositories lay them out. The language hosts that
# generate them: the real ones beside the CLI (an official release has all five); here, where the Go module
# proxy refuses some, Java's real host (make pulumi-cli) and Pulumi's generators through tools/pulumi-codegen
# for the others (scripts/pulumi-codegen.sh). The Go SDK is one module, <out>/go.mod, released as the tag
# sdk/v<version>: its go.mod and go.sum are written here (`go mod tidy` against the pinned sdk/v3).
#
#   scripts/gen-sdk.sh [schema.json] [out]      (defaults: schema.json, sdk)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
schema=$(realpath "${1:-schema.json}")
out=$(realpath -m "${2:-sdk}")
languages=(nodejs python go dotnet java)
# What a build or an install leaves in an SDK's folder (each generated .gitignore ignores it): kept.
not_generated=(node_modules bin obj build target .gradle dist venv .venv)

cli_bin=$("$root/scripts/pulumi-cli.sh" --bin-dir 2>/dev/null) || "$root/scripts/pulumi-cli.sh" --bin-dir >/dev/null
codegen_bin=$("$root/scripts/pulumi-codegen.sh" --bin-dir 2>/dev/null) || "$root/scripts/pulumi-codegen.sh" --bin-dir >/dev/null
pulumi_version=$(sed -n 's/^PULUMI_VERSION=//p' "$root/scripts/pulumi-cli.sh")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for language in "${languages[@]}"; do
  if ! PATH="$codegen_bin:$cli_bin:$PATH" PULUMI_SKIP_UPDATE_CHECK=1 \
    pulumi package gen-sdk "$schema" --language "$language" --out "$work/sdk" >"$work/$language.log" 2>&1; then
    echo "make sdk: pulumi package gen-sdk --language $language failed:" >&2
    cat "$work/$language.log" >&2
    exit 1
  fi
done

# The Go SDK's module: the import path's module part (schema.json's language.go.importBasePath without
# /go/<package>), requiring the Pulumi Go SDK at the CLI's version. Tidied in a folder that holds the Go SDK
# alone, so nothing else under <out> (node_modules) is read.
import_path=$(node -p "require('$schema').language.go.importBasePath")
package=$(node -p "require('$schema').name")
module=${import_path%/go/$package}
mkdir -p "$work/module" && cp -r "$work/sdk/go" "$work/module/go"
printf 'module %s\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v%s\n' "$module" "$pulumi_version" >"$work/module/go.mod"
if ! (cd "$work/module" && GOFLAGS=-mod=mod go mod tidy) >"$work/tidy.log" 2>&1; then
  echo "make sdk: go mod tidy of the Go SDK's module ($module) failed:" >&2
  cat "$work/tidy.log" >&2
  exit 1
fi

# Each language's folder becomes exactly what the generator wrote, but for what builds leave in it.
mkdir -p "$out"
for language in "${languages[@]}"; do
  mkdir -p "$out/$language"
  keep=()
  for name in "${not_generated[@]}"; do keep+=(! -name "$name"); done
  find "$out/$language" -mindepth 1 -maxdepth 1 "${keep[@]}" -exec rm -rf {} +
  cp -r "$work/sdk/$language/." "$out/$language/"
done
cp "$work/module/go.mod" "$work/module/go.sum" "$out/"
chmod -R u+rwX,go+rX "$out"
echo "make sdk: ${languages[*]} generated from $(basename "$schema") into $(realpath --relative-to="$PWD" "$out")/ by pulumi $("$cli_bin/pulumi" version)"
