#!/usr/bin/env bash
# `make demo`: the user's first command. Builds the plugin and the Node.js SDK, starts the API
# simulator (state kept in a file), and takes examples/app-with-postgres through `pulumi up`, a
# `pulumi preview` of a changed image (an in-place update) and `pulumi destroy`, on a local state
# backend. Everything it creates lives in one temporary directory, removed on exit; your
# ~/.pulumi is not touched. Needs Node.js and internet: node_modules come with `make install`
# (npm ci) and the Pulumi CLI, when none is on PATH, from the cache below, fetched there first
# (it says so before it fetches).
set -euo pipefail

# Without a pulumi on PATH, the demo brings its own: npm's `pulumi` package at this version, which
# downloads the Pulumi CLI of the same version on first use (it runs get.pulumi.com's install
# script into $PULUMI_HOME/versions/<version>). Both live in a cache outside the repository, kept
# between runs; delete the directory to fetch again.
PULUMI_CLI_VERSION=3.265.0
pulumi_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/pulumi-$PULUMI_CLI_VERSION"
pulumi_bin="$pulumi_cache/home/versions/$PULUMI_CLI_VERSION/bin"

# One line on stderr that says why and what to do, and stop.
no_cli() {
  echo "make demo needs the Pulumi CLI: none is on PATH, and $1. Install it (https://www.pulumi.com/docs/install/), put it on PATH, and run make demo again." >&2
  exit 1
}

if ! command -v pulumi >/dev/null 2>&1; then
  if [ ! -x "$pulumi_bin/pulumi" ]; then
    echo "make demo: no pulumi on PATH, so it fetches the Pulumi CLI v$PULUMI_CLI_VERSION (npm's pulumi package, which downloads it from get.pulumi.com) into $pulumi_cache, kept for the next run (delete that folder to fetch again)"
    mkdir -p "$pulumi_cache"
    log="$pulumi_cache/fetch.log"
    : >"$log"
    [ -f "$pulumi_cache/package.json" ] || echo '{ "private": true }' >"$pulumi_cache/package.json"
    npm install --prefix "$pulumi_cache" --no-save --no-audit --no-fund --loglevel=error "pulumi@$PULUMI_CLI_VERSION" >>"$log" 2>&1 ||
      no_cli "installing npm's pulumi@$PULUMI_CLI_VERSION (which fetches it) failed (details: $log)"
    # `pulumi version` through the npm package makes it download the CLI into $PULUMI_HOME/versions.
    if ! env -u PULUMI_VERSION PULUMI_HOME="$pulumi_cache/home" node "$pulumi_cache/node_modules/pulumi/run.js" version >>"$log" 2>&1 ||
      [ ! -x "$pulumi_bin/pulumi" ]; then
      reason=$(grep -v '^Downloading pulumi' "$log" | grep -v '^[[:space:]]*$' | tail -n 1 | tr -d '\r')
      no_cli "downloading Pulumi CLI v$PULUMI_CLI_VERSION failed (${reason:-no reason given}; details: $log)"
    fi
  fi
  export PATH="$pulumi_bin:$PATH"
  echo "using the Pulumi CLI v$PULUMI_CLI_VERSION from $pulumi_bin"
fi

cd "$(dirname "$0")/.."
repo=$PWD
example=examples/app-with-postgres
stack=demo
new_image=registry.example.com/demo/web:1.1.0

if [ -e "$example/Pulumi.$stack.yaml" ]; then
  echo "$example/Pulumi.$stack.yaml already exists (left by an interrupted demo?): remove it and run make demo again." >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/hosting-demo.XXXXXX")
sim_pid=""
cleanup() {
  local status=$?
  if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  if [ "$status" -ne 0 ] && [ -s "$work/simulator.log" ]; then
    echo "--- last lines of the simulator's log ---" >&2
    grep -v ' token ' "$work/simulator.log" | tail -n 20 >&2
  fi
  rm -f "$repo/$example/Pulumi.$stack.yaml"
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then echo "make demo failed (exit $status)" >&2; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

# A Pulumi home and a state backend of our own, so the demo leaves nothing behind.
export PULUMI_HOME="$work/pulumi-home"
export PULUMI_BACKEND_URL="file://$work/state"
export PULUMI_CONFIG_PASSPHRASE=""
export PULUMI_SKIP_UPDATE_CHECK=true
mkdir -p "$work/state"

step "Building the plugin and installing it into \$PULUMI_HOME (make install)"
make --no-print-directory install

step "Building the Node.js SDK (make sdk-build: sdk/nodejs, npm install and tsc)"
make --no-print-directory sdk-build

# Apps need DATABASE_URL to start, as most real ones do: the example's links: [db.id] provides it.
step "Starting the API simulator (state in $work/simulator-state.json; apps need DATABASE_URL to start)"
node dist/simulator.js --port 0 --state "$work/simulator-state.json" --apps-require-env DATABASE_URL >"$work/simulator.log" 2>&1 &
sim_pid=$!
# It prints its address, then a line per default user; we sign in as the first.
url=""
user_line=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^hosting simulator listening on \(http[^ ]*\).*/\1/p' "$work/simulator.log" | head -n 1)
  user_line=$(grep -m 1 '^  user ' "$work/simulator.log" || true)
  [ -n "$url" ] && [ -n "$user_line" ] && break
  kill -0 "$sim_pid" 2>/dev/null || { echo "the simulator exited before it was ready" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] && [ -n "$user_line" ] || { echo "the simulator did not report its address within 10 seconds" >&2; exit 1; }
# "  user alice: token sim-token-alice, project <uuid>"
user=$(sed -n 's/^  user \([^:]*\):.*/\1/p' <<<"$user_line")
token=$(sed -n 's/.*token \([^,]*\),.*/\1/p' <<<"$user_line")
project=$(sed -n 's/.*project \([^, ]*\).*/\1/p' <<<"$user_line")
[ -n "$token" ] && [ -n "$project" ] || { echo "could not read the simulator's default user from its output" >&2; exit 1; }
echo "simulator at $url; signed in as user $user, project $project"

step "Installing the example's dependencies ($example: npm install)"
cd "$example"
npm install --no-audit --no-fund --loglevel=error

step "pulumi stack init $stack (local backend in $work/state)"
pulumi stack init "$stack" --non-interactive
pulumi config set hosting:baseUrl "$url"
pulumi config set --secret hosting:token "$token"
pulumi config set hosting:projectId "$project"
pulumi config set registryUsername deploy
pulumi config set --secret registryPassword demo-registry-password
pulumi config

step "pulumi up --yes"
pulumi up --yes --non-interactive
pulumi stack output

step "Changing the image: pulumi config set image $new_image"
pulumi config set image "$new_image"

step "pulumi preview --diff (the container updates in place; nothing is replaced)"
pulumi preview --diff --non-interactive

step "pulumi destroy --yes"
pulumi destroy --yes --non-interactive
pulumi stack rm "$stack" --yes --non-interactive

step "Done: the plugin, the SDK and the simulator work end to end."
