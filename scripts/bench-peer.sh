#!/usr/bin/env bash
# The benchmarks' Go peer (tools/bench-peer: a provider written with pulumi-go-provider's infer
# package, whose one resource has hosting:index:Container's inputs and outputs), built from Go
# modules into a folder outside the repository, as scripts/pulumi-cli.sh builds the CLI:
#   ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/bench-peer-v<version>-<sources' hash>/pulumi-resource-benchpeer
# keyed by the peer's version and a hash of its sources, so an edit builds it again and the next
# run takes no time. Prints the executable's path on stdout, the report on stderr; fails with one
# line saying why when it cannot be built.
set -euo pipefail

PEER_VERSION=0.1.0

root=$(cd "$(dirname "$0")/.." && pwd)
module="$root/tools/bench-peer"
hash=$(cat "$module/go.mod" "$module/go.sum" "$module"/*.go | sha256sum | cut -c 1-12)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/bench-peer-v$PEER_VERSION-$hash"
peer="$cache/pulumi-resource-benchpeer"
started=$(date +%s.%N)
seconds_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

mkdir -p "$cache"
# Two benchmarks may ask at once: one builds, the other waits for it.
exec 9>"$cache/.lock"
flock 9

if [ -x "$peer" ]; then
  echo "bench-peer: pulumi-resource-benchpeer $PEER_VERSION from the cache ($cache), in $(seconds_since "$started") s" >&2
else
  if ! command -v go >/dev/null 2>&1; then
    echo "bench-peer: the Go peer cannot be built: Go is not installed. Install Go 1.26 or newer (https://go.dev/doc/install) and run the benchmark again." >&2
    exit 1
  fi
  echo "bench-peer: building pulumi-resource-benchpeer $PEER_VERSION from Go modules (tools/bench-peer: github.com/pulumi/pulumi-go-provider; a first build takes about a minute) into $cache" >&2
  log="$cache/build.log"
  if ! (cd "$module" && go build -trimpath -ldflags "-X main.Version=$PEER_VERSION" -o "$peer.tmp" .) >"$log" 2>&1; then
    echo "bench-peer: building tools/bench-peer from the Go module proxy failed: $(grep -v '^go: downloading' "$log" | grep -m 1 -i 'error\|forbidden\|not available\|cannot\|fail' || tail -n 1 "$log")" >&2
    rm -f "$peer.tmp"
    exit 1
  fi
  mv "$peer.tmp" "$peer"
  echo "bench-peer: built in $(seconds_since "$started") s" >&2
fi
echo "$peer"
