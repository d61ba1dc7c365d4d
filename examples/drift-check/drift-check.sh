#!/usr/bin/env bash
# Drift detection for Pulumi stacks that use the hosting provider, for a nightly CI job.
#
#   drift-check.sh <program-dir> <stack> [<stack> ...]
#
# For each stack it runs `pulumi preview --refresh --expect-no-changes --json`: Pulumi reads the
# live state of every resource from the API (refresh), then compares the program with it. A change
# made outside Pulumi (replicas changed in the portal, an app deleted) shows up as a proposed change.
# Per stack it prints `no drift`, `DRIFT` with each drifted resource, the property paths that
# differ with their live and program values, and when the platform changed them (the provider's
# warning), or `ERROR` with why the check could not run.
#
# Exit status: 0 no drift in any stack; 1 drift in at least one stack; 2 the check itself could not
# run for at least one stack (credentials, network, a program error, a --json document that cannot
# be read), which outranks drift. Every stack is checked whatever an earlier one found. The count of
# resources is of real ones: the stack and the providers are not counted.
#
# To keep a value changed outside Pulumi, change the program to it (or give the resource
# `ignoreChanges` for that path): `pulumi refresh` alone does not, since the program still declares
# the old value and the next check is red again. `pulumi up` puts the program's values back.
#
# Drift and failure are told apart by the CLI's exit code: since Pulumi CLI v3.226.0,
# `--expect-no-changes` exits 7 when changes are proposed and 1 on any other error. Older CLIs
# exit 255 for every error, so there the CLI's message "no changes were expected but changes were
# proposed" is what says drift.
#
# In GitHub Actions it also writes the job summary (a section per stack: what drifted, the paths
# and when, or why the check could not run), an annotation per stack that drifted or failed, and
# the step outputs `result` (clean, drift or error), `drifted` and `failed` (stack names).
#
# Needs the Pulumi CLI logged in to the stack's backend (PULUMI_ACCESS_TOKEN, or
# PULUMI_BACKEND_URL plus PULUMI_CONFIG_PASSPHRASE), the hosting plugin installed, the program's
# dependencies installed, the provider's credentials in stack config or in HOSTING_TOKEN (and
# HOSTING_BASE_URL, HOSTING_PROJECT_ID), and Node.js (to read the CLI's JSON).
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 <program-dir> <stack> [<stack> ...]" >&2
  exit 2
fi
for tool in pulumi node; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "drift-check: $tool is not on PATH; install it (Pulumi CLI: https://www.pulumi.com/docs/install/; Node.js: https://nodejs.org)" >&2
    exit 2
  fi
done

dir=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Reads `pulumi preview --json`'s document (pkg/display PreviewDigest: steps with their detailedDiff
# and states, diagnostics) and writes, for one stack, the report to stdout, the job summary's section
# to $SUMMARY_SECTION, the annotation to $ANNOTATION and the result to $RESULT. Arguments: stack, the
# result the CLI's exit status says (clean|drift|error), that status, the JSON file, the CLI's stderr
# file. A clean or drifted result whose document cannot be read is an error: the check did not run.
# shellcheck disable=SC2016
report='
const fs = require("fs");
const [stack, cliResult, status, jsonFile, stderrFile] = process.argv.slice(1);
const read = (file) => { try { return fs.readFileSync(file, "utf8"); } catch { return ""; } };
let digest = {};
let unreadable = "";
try {
  digest = JSON.parse(read(jsonFile));
  if (digest === null || typeof digest !== "object" || !Array.isArray(digest.steps)) unreadable = "it has no list of steps";
} catch (err) {
  digest = {};
  unreadable = err.message;
}
const unread = cliResult !== "error" && unreadable ? [`pulumi preview exited with ${status}, but its --json output could not be read (${unreadable}): nothing is known about drift`] : [];
const result = unread.length ? "error" : cliResult;
const steps = Array.isArray(digest.steps) ? digest.steps : [];
const diagnostics = Array.isArray(digest.diagnostics) ? digest.diagnostics : [];
const nameOf = (urn) => urn.split("::").pop();
const typeOf = (urn) => (urn.split("::")[2] || "").split("$").pop();
const said = (d) => String(d.message || "").replace(/^(warning|error): /, "").trim();

// A property path as the engine writes it (env.LOG_LEVEL, env["my.key"], links[0]) into a value.
function at(value, path) {
  for (const m of path.matchAll(/\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) {
    if (value === null || typeof value !== "object") return undefined;
    value = value[m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(`"${m[3]}"`))];
  }
  return value;
}
const shown = (v) => (v === undefined ? "(none)" : JSON.stringify(v));

// Real resources: not the stack, not a provider, not a component (a state that says custom: false).
const real = (step) => {
  const type = typeOf(String(step.urn));
  const custom = (step.newState || step.oldState || {}).custom;
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:") && custom !== false;
};
// A resource has several steps (its refresh, then same or update; a replacement has three): count each once.
const checked = new Set(steps.filter(real).map((step) => step.urn)).size;
const resources = (n) => `${n} resource${n === 1 ? "" : "s"}`;

// One entry per resource the preview would change (a replacement shows as several steps).
const changed = new Map();
for (const step of steps) {
  if (["same", "read", "refresh", "discard"].includes(step.op) || !real(step)) continue;
  const entry = changed.get(step.urn) || { urn: step.urn, ops: [], paths: new Set(), step };
  entry.ops.push(step.op);
  for (const path of Object.keys(step.detailedDiff || {})) entry.paths.add(path);
  if (entry.paths.size === 0) for (const key of step.diffReasons || []) entry.paths.add(key);
  if (step.detailedDiff && Object.keys(step.detailedDiff).length) entry.step = step;
  changed.set(step.urn, entry);
}
const verb = (ops) =>
  ops.some((op) => op.includes("replace")) ? "replace" :
  ops.includes("create") ? "create: gone from the platform" :
  ops.includes("delete") ? "delete: on the platform, not in the program" : ops[0];
const warningsOn = (urn) => diagnostics.filter((d) => d.urn === urn && d.severity === "warning").map(said);
const errors = diagnostics.filter((d) => d.severity === "error").map((d) => (d.urn ? `${nameOf(d.urn)}: ` : "") + said(d));

const out = [];
const md = [];
const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
if (result === "clean") {
  out.push(`no drift (${resources(checked)} checked)`);
  md.push(`### ${stack}: no drift`, "", `${resources(checked)} checked.`);
} else if (result === "drift") {
  out.push(`DRIFT: ${resources(changed.size)} changed outside Pulumi`);
  md.push(`### ${stack}: drift`, "", `${resources(changed.size)} changed outside Pulumi.`, "");
  md.push("| resource | the program would | what drifted | when |", "|---|---|---|---|");
  for (const entry of changed.values()) {
    const { oldState = {}, newState = {}, detailedDiff = {} } = entry.step;
    out.push(`  ${typeOf(entry.urn)} ${nameOf(entry.urn)}: ${verb(entry.ops)}`);
    for (const path of entry.paths) {
      const live = at(detailedDiff[path]?.inputDiff ? oldState.inputs : oldState.outputs, path);
      out.push(`    ${path}: live ${shown(live)}, the program ${shown(at(newState.inputs, path))}`);
    }
    const when = warningsOn(entry.urn);
    for (const line of when) out.push(`    ${line}`);
    const paths = [...entry.paths].map((p) => "`" + p + "`").join(", ");
    md.push(`| \`${cell(nameOf(entry.urn))}\` (${cell(typeOf(entry.urn))}) | ${cell(verb(entry.ops))} | ${cell(paths)} | ${cell(when.join("; "))} |`);
  }
  const advice = "Run `pulumi up` to put back the values the program declares (and recreate what was deleted). To keep a change instead, change the program to match it, or give the resource `ignoreChanges` for that path: `pulumi refresh` alone does not, since the program still declares the old values.";
  out.push(`  ${advice}`);
  md.push("", advice);
} else {
  const cli = read(stderrFile).split("\n").map((l) => l.trim()).filter((l) => l.startsWith("error:")).map((l) => l.slice(7));
  const reasons = [...new Set([...unread, ...errors, ...cli])];
  out.push(`ERROR: the check could not run (pulumi exited with ${status})`);
  for (const reason of reasons) out.push(`  ${reason}`);
  md.push(`### ${stack}: the check could not run`, "", `\`pulumi preview\` exited with ${status}:`, "", "```", ...(reasons.length ? reasons : ["(no error message; see the job log)"]), "```");
}
console.log(out.join("\n"));
fs.appendFileSync(process.env.SUMMARY_SECTION, md.join("\n") + "\n\n");
// The one-line annotation: what drifted, or the first reason it could not run.
const annotation = result === "drift"
  ? [...changed.values()].map((e) => `${nameOf(e.urn)} (${e.paths.size ? [...e.paths].join(", ") : verb(e.ops)})`).join(", ")
  : (unread[0] || errors[0] || "");
fs.writeFileSync(process.env.ANNOTATION, annotation);
fs.writeFileSync(process.env.RESULT, result);
'

worst=0
drifted=()
failed=()
lines=()
summary="$work/summary.md"
: >"$summary"
for stack in "$@"; do
  echo "::: drift check of stack $stack ($dir)"
  pulumi preview --cwd "$dir" --stack "$stack" --refresh --expect-no-changes --json --non-interactive \
    >"$work/preview.json" 2>"$work/stderr"
  status=$?
  if [ "$status" -eq 0 ]; then
    result=clean
  elif [ "$status" -eq 7 ] ||
    grep -Eq "no changes were expected( for [a-z]+)? but changes were proposed" "$work/stderr" "$work/preview.json"; then
    result=drift
  else
    result=error
  fi
  # The CLI's own words (progress, warnings) stay in the log.
  grep -v '^[[:space:]]*$' "$work/stderr" | sed 's/^/  pulumi: /'
  rm -f "$work/result" "$work/annotation"
  SUMMARY_SECTION="$summary" ANNOTATION="$work/annotation" RESULT="$work/result" \
    node -e "$report" "$stack" "$result" "$status" "$work/preview.json" "$work/stderr"
  # The report's result: an unreadable document makes a clean or drifted one an error; no report is one too.
  result=$(cat "$work/result" 2>/dev/null) || result=error
  case $result in
    clean) lines+=("$stack: no drift") ;;
    drift)
      lines+=("$stack: DRIFT: the live resources differ from the program (above). Run \`pulumi up\` to put the program's values back, or change the program (or its ignoreChanges) to keep the live ones.")
      drifted+=("$stack")
      [ "$worst" -lt 1 ] && worst=1
      [ "${GITHUB_ACTIONS:-}" = true ] && echo "::error title=Drift in $stack::changed outside Pulumi: $(cat "$work/annotation" 2>/dev/null)"
      ;;
    error)
      lines+=("$stack: ERROR: the check could not run (pulumi exited with $status; see above)")
      failed+=("$stack")
      worst=2
      [ "${GITHUB_ACTIONS:-}" = true ] && echo "::error title=Drift check could not run for $stack::pulumi preview exited with $status: $(cat "$work/annotation" 2>/dev/null)"
      ;;
  esac
done

echo
for line in "${lines[@]}"; do echo "drift-check: $line"; done

results=(clean drift error)
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "## Drift check: ${results[$worst]}"
    echo
    echo "Program \`$dir\`; stacks checked: $*."
    echo
    cat "$summary"
  } >>"$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "result=${results[$worst]}"
    echo "drifted=${drifted[*]}"
    echo "failed=${failed[*]}"
  } >>"$GITHUB_OUTPUT"
fi
exit "$worst"
