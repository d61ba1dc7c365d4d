#!/usr/bin/env bash
# Drift detection for Pulumi stacks that use the hosting provider, for a nightly CI job.
#
#   drift-check.sh <program-dir> <stack> [<stack> ...]
#
# For each stack it runs `pulumi preview --refresh --expect-no-changes`: Pulumi reads the live
# state of every resource from the API (refresh), then compares the program with it. A change
# made outside Pulumi (say, replicas changed in the portal, or an app deleted) shows up as a
# proposed change, and the check fails.
#
# Exit status: 0 no drift in any stack; 1 drift in at least one stack (its diff is printed);
# 2 the check itself could not run (credentials, network, program error) for at least one stack.
#
# Needs the Pulumi CLI logged in to the stack's backend (PULUMI_ACCESS_TOKEN, or
# PULUMI_BACKEND_URL plus PULUMI_CONFIG_PASSPHRASE), the hosting plugin installed, the program's
# dependencies installed, and the provider's credentials in stack config or in HOSTING_TOKEN
# (and HOSTING_BASE_URL, HOSTING_PROJECT_ID).
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 <program-dir> <stack> [<stack> ...]" >&2
  exit 2
fi
if ! command -v pulumi >/dev/null 2>&1; then
  echo "drift-check: the pulumi CLI is not on PATH; install it from https://www.pulumi.com/docs/install/" >&2
  exit 2
fi

dir=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT

worst=0
summary=()
for stack in "$@"; do
  echo "::: drift check of stack $stack ($dir)"
  pulumi preview --cwd "$dir" --stack "$stack" --refresh --expect-no-changes --diff --non-interactive 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  if [ "$status" -eq 0 ]; then
    summary+=("$stack: no drift")
  elif grep -Eq "no changes were expected( for [a-z]+)? but changes were proposed" "$log"; then
    summary+=("$stack: DRIFT: the live resources differ from the program (diff above). Run \`pulumi refresh\` to accept the live state, or \`pulumi up\` to restore the program's.")
    [ "$worst" -lt 1 ] && worst=1
  else
    summary+=("$stack: ERROR: the check could not run (pulumi exited with $status; see above)")
    worst=2
  fi
done

echo
for line in "${summary[@]}"; do echo "drift-check: $line"; done
exit "$worst"
