#!/usr/bin/env bash
# `make demo`: the user's first command. Builds the plugin and the Node.js SDK, starts the API
# simulator (state kept in a file), and takes examples/app-with-postgres through `pulumi up`, a
# `pulumi preview` of a changed image (an in-place update) and `pulumi destroy`, on a local state
# backend. Everything it creates lives in one temporary directory, removed on exit; your
# ~/.pulumi is not touched. Needs Node.js, and the Pulumi CLI at the version the project pins,
# which `make pulumi-cli` (scripts/pulumi-cli.sh) takes from PATH, the official release or a build
# from Go modules (minutes the first time, cached after).
#
# Where the CLI has its Node.js language host (PATH, the release), the CLI runs the program from its
# folder, as you would. Where it has none (a CLI built from Go modules: the Go module proxy does not
# serve the host), the program's own Automation API runs it inline (scripts/demo-run.cjs), and the same
# CLI does the same up, preview and destroy.
set -euo pipefail

started=$(date +%s)
pulumi_bin=$("$(dirname "$0")/pulumi-cli.sh" --bin-dir) || exit 1
export PATH="$pulumi_bin:$PATH"
if [ -x "$pulumi_bin/pulumi-language-nodejs" ]; then runs_program="the CLI"; else runs_program="the Automation API"; fi
echo "using the Pulumi CLI $(pulumi version) from $pulumi_bin; the program runs through $runs_program"

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

# pulumi up, preview --diff or destroy, run by the CLI in the example's folder or through the Automation API.
run() {
  if [ "$runs_program" = "the CLI" ]; then
    case "$1" in
      up) pulumi up --yes --non-interactive ;;
      preview) pulumi preview --diff --non-interactive ;;
      destroy) pulumi destroy --yes --non-interactive ;;
    esac
  else
    node "$repo/scripts/demo-run.cjs" . "$stack" "$1" "$pulumi_bin"
  fi
}

step "pulumi up --yes"
run up
pulumi stack output

step "Changing the image: pulumi config set image $new_image"
pulumi config set image "$new_image"

step "pulumi preview --diff (the container updates in place; nothing is replaced)"
run preview

step "pulumi destroy --yes"
run destroy
pulumi stack rm "$stack" --yes --non-interactive

step "Done: the plugin, the SDK and the simulator work end to end under pulumi $(pulumi version), in $(($(date +%s) - started)) s."
