#!/usr/bin/env bash
# `make test` while every core is busy with something else: the suite must not depend on timing that
# a loaded machine breaks (docs/testing.md, "Under load"). The load is Debian's stress-ng, one CPU
# worker per core, or, without it, one busy loop per core. Both stop when this script ends, however it ends.
# LOAD_WORKERS=4 doubles the load on 2 cores; JEST_ARGS is passed on to make test.
set -uo pipefail
cd "$(dirname "$0")/.."

workers="${LOAD_WORKERS:-$(nproc)}"
load_pids=()
stop_load() {
  [ "${#load_pids[@]}" -gt 0 ] && kill "${load_pids[@]}" 2>/dev/null
  wait "${load_pids[@]}" 2>/dev/null
  return 0
}
trap stop_load EXIT
trap 'exit 130' INT TERM

if command -v stress-ng >/dev/null; then
  stress-ng --cpu "$workers" --timeout 1h --quiet &
  load_pids+=($!)
  echo "load: stress-ng --cpu $workers"
else
  for _ in $(seq "$workers"); do
    (while :; do :; done) &
    load_pids+=($!)
  done
  echo "load: $workers busy loops (apt-get install stress-ng for Debian's load generator)"
fi

started=$(date +%s)
make test JEST_ARGS="${JEST_ARGS:-}"
status=$?
echo "make test under load ($workers CPU workers on $(nproc) cores): exit $status in $(( $(date +%s) - started )) s"
exit $status
