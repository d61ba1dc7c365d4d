#!/usr/bin/env bash
# make lint-workflows: actionlint (github.com/rhysd/actionlint, tools/actionlint/go.mod) over every GitHub
# Actions workflow of the repository, the CI and release workflows and the examples' workflows. It checks
# the workflow schema, expressions and their types, each known action's inputs, that every runner label is
# one GitHub still offers, and the `run:` scripts through shellcheck where shellcheck is installed.
# Built once from Go modules and kept in ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/actionlint-v<version>.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's|^require github.com/rhysd/actionlint \(v[0-9.]*\)$|\1|p' "$root/tools/actionlint/go.mod")
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/actionlint-$version"
binary="$cache/actionlint"

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$binary" ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "make lint-workflows: actionlint $version is built from Go modules, and Go is not installed: install Go 1.26 or newer (https://go.dev/doc/install)" >&2
    exit 1
  fi
  echo "make lint-workflows: building actionlint $version from Go modules into $cache" >&2
  if ! (cd "$root/tools/actionlint" && go build -trimpath -o "$binary.tmp" github.com/rhysd/actionlint/cmd/actionlint) >"$cache/build.log" 2>&1; then
    echo "make lint-workflows: building actionlint $version failed: $(grep -v '^go: downloading' "$cache/build.log" | head -n 3 | tr '\n' ' ')" >&2
    rm -f "$binary.tmp"
    exit 1
  fi
  mv "$binary.tmp" "$binary"
fi
cd "$root"
workflows=(.github/workflows/*.yml examples/*/github-actions.yml)
"$binary" "${workflows[@]}"
echo "actionlint $version: ${#workflows[@]} workflows pass"
