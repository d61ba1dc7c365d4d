#!/usr/bin/env bash
# Pull-request previews for a Pulumi program that uses the hosting provider, for GitHub Actions.
#
#   pr-preview.sh preview <program-dir> <stack>              pulumi preview --diff of the stack
#   pr-preview.sh up      <program-dir> <config-from> <pr>   a stack of its own for the pull request
#   pr-preview.sh destroy <program-dir> <pr>                 that stack destroyed and removed
#   pr-preview.sh sweep   <program-dir>                      every stack pr-<n> whose pull request is closed, too
#   pr-preview.sh comment <key>                              the comment written, posted on the PR
#
# preview, up and destroy write a comment for the pull request (markdown) to $COMMENT_FILE (default
# pr-preview-comment.md), and the same to the job summary ($GITHUB_STEP_SUMMARY) when there is one;
# each exits with the status of the pulumi command it ran. `comment` posts $COMMENT_FILE on pull
# request $PR_NUMBER of $GITHUB_REPOSITORY with the GitHub CLI (GH_TOKEN), replacing the comment it
# posted before under the same key, so a pull request carries one comment per key, kept current.
#
# The pull request's stack is pr-<number>. It takes its configuration from <config-from> (a stack of
# the same program), and the autonaming pattern ${name}-${stack}-${hex(6)}, so that what it creates
# never takes the names of the stack it was copied from, and says whose it is: the Container `web`
# of stack pr-12 is named web-pr-12-3f9a1c. Resources of the program must leave `name` out for that
# (the provider then names them). Its app's address is the stack output $URL_OUTPUT (default url).
#
# destroy tells a stack that does not exist (nothing to destroy, exit 0) from a `pulumi stack
# select` that failed for another reason (an expired backend token, say): that fails, with the
# CLI's error, and destroys nothing. sweep is for a schedule: it lists the program's stacks pr-<n>,
# asks GitHub for the state of each pull request <n> of $GITHUB_REPOSITORY, and destroys the stacks
# of those that are closed, so a stack whose pull request closed while the cleanup job could not
# run is removed. A pull request it cannot read keeps its stack. It exits 0 when every closed pull
# request's stack is gone, 1 otherwise.
#
# Needs the Pulumi CLI logged in to the backend, the hosting plugin and the program's dependencies
# installed, and the provider's credentials (stack config or HOSTING_TOKEN): a preview reads the
# live platform. `comment` and `sweep` need the GitHub CLI (gh, with GH_TOKEN) and Node.js.
set -uo pipefail

comment_file=${COMMENT_FILE:-pr-preview-comment.md}
url_output=${URL_OUTPUT:-url}
# The engine's autonaming pattern for a pull request's stack: its stack's name, and a random part, so
# that a replacement can be created before the resource it replaces is deleted.
# shellcheck disable=SC2016 # the pattern is the engine's, not the shell's
autonaming_pattern='${name}-${stack}-${hex(6)}'
# GitHub refuses a comment longer than 65,536 characters; the diff is cut to leave room for the rest.
max_diff=60000

usage() {
  sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The comment's first line: a marker that says which comment this is, invisible on GitHub.
marker() { echo "<!-- pr-preview:$1 -->"; }

# Writes the comment, and the job summary.
publish() {
  cat >"$comment_file"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$comment_file" >>"$GITHUB_STEP_SUMMARY"; fi
}

# The lines under the CLI's last "Resources:" heading, on one line: "~ 1 to update, 2 unchanged". `up` and
# `destroy` print their preview's ("+ 3 to create") before what they did ("+ 3 created").
resources_line() {
  awk '/^Resources:/ { line = ""; inside = 1; next }
    inside && /^[[:space:]]*$/ { inside = 0; next }
    inside { sub(/^[[:space:]]+/, ""); line = line (line == "" ? "" : ", ") $0 }
    END { print line }' "$1"
}

# A fenced block of the CLI's output, cut from the top if it is too long for a comment.
fenced() {
  local size
  size=$(wc -c <"$1")
  echo '```'
  if [ "$size" -gt "$max_diff" ]; then
    echo "… (the first $((size - max_diff)) characters are cut: the whole output is in the job's log)"
    tail -c "$max_diff" "$1"
  else
    cat "$1"
  fi
  echo '```'
}

preview() {
  local dir=$1 stack=$2 out status summary
  out=$(mktemp)
  pulumi preview --cwd "$dir" --stack "$stack" --diff --non-interactive 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  summary=$(resources_line "$out")
  {
    marker "preview-$stack"
    if [ "$status" -eq 0 ]; then
      echo "#### \`pulumi preview\` of \`$stack\`: ${summary:-no changes}"
    else
      echo "#### \`pulumi preview\` of \`$stack\` failed (exit $status)"
      echo
      echo "Nothing was changed. The errors are at the end of the output below."
    fi
    echo
    echo "<details><summary>The preview, as the program in this pull request would change the live stack</summary>"
    echo
    fenced "$out"
    echo
    echo "</details>"
    echo
    echo "Commit ${GITHUB_SHA:-(local)}; read from the live platform, as \`pulumi up\` would see it now."
  } | publish
  rm -f "$out"
  return "$status"
}

up() {
  local dir=$1 from=$2 pr=$3 stack out status url
  stack="pr-$pr"
  out=$(mktemp)
  {
    pulumi stack select "$stack" --cwd "$dir" --create --non-interactive &&
      pulumi config cp --cwd "$dir" --stack "$from" --dest "$stack" &&
      pulumi config set --cwd "$dir" --stack "$stack" --path 'pulumi:autonaming.pattern' "$autonaming_pattern" &&
      pulumi up --cwd "$dir" --stack "$stack" --yes --non-interactive
  } 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  url=""
  if [ "$status" -eq 0 ]; then
    url=$(pulumi stack output "$url_output" --cwd "$dir" --stack "$stack" 2>/dev/null)
  fi
  {
    marker "stack-$stack"
    if [ "$status" -eq 0 ]; then
      echo "#### This pull request runs in stack \`$stack\`: ${url:-(the program has no output \`$url_output\`)}"
      echo
      echo "$(resources_line "$out"). It is destroyed, and the stack removed, when the pull request closes."
    else
      echo "#### \`pulumi up\` of stack \`$stack\` failed (exit $status)"
      echo
      echo "What it created is in the stack, and is destroyed when the pull request closes; the next push tries again."
    fi
    echo
    echo "<details><summary>pulumi up</summary>"
    echo
    fenced "$out"
    echo
    echo "</details>"
  } | publish
  rm -f "$out"
  return "$status"
}

# Whether `pulumi stack select` said that the stack does not exist: exit 6 (the CLI's ExitStackNotFound),
# or, on CLIs older than that exit code, 255 with "no stack named '<stack>' found". Arguments: the exit
# status, the stack, the file holding what the CLI wrote.
no_such_stack() {
  [ "$1" -eq 6 ] || { [ "$1" -eq 255 ] && grep -qF "no stack named '$2' found" "$3"; }
}

destroy() {
  local dir=$1 pr=$2 stack out status
  stack="pr-$pr"
  out=$(mktemp)
  pulumi stack select "$stack" --cwd "$dir" --non-interactive >"$out" 2>&1
  status=$?
  if [ "$status" -ne 0 ] && no_such_stack "$status" "$stack" "$out"; then
    { marker "stack-$stack"; echo "#### Stack \`$stack\` does not exist: nothing to destroy"; } | publish
    rm -f "$out"
    return 0
  fi
  if [ "$status" -ne 0 ]; then
    cat "$out" >&2
    {
      marker "stack-$stack"
      echo "#### Could not tell whether stack \`$stack\` exists: nothing was destroyed (exit $status)"
      echo
      echo "\`pulumi stack select\` failed, and not because the stack does not exist: its resources may still run. Fix the error below (the backend's credentials, say), then re-run this job, or run \`pulumi destroy --stack $stack\` and \`pulumi stack rm $stack\`."
      echo
      fenced "$out"
    } | publish
    rm -f "$out"
    return "$status"
  fi
  {
    pulumi destroy --cwd "$dir" --stack "$stack" --yes --non-interactive &&
      pulumi stack rm "$stack" --cwd "$dir" --yes --non-interactive
  } 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  {
    marker "stack-$stack"
    if [ "$status" -eq 0 ]; then
      echo "#### Stack \`$stack\` is destroyed and removed: $(resources_line "$out")"
    else
      echo "#### Destroying stack \`$stack\` failed (exit $status)"
      echo
      echo "Its resources may still run. Re-run this job, or run \`pulumi destroy --stack $stack\` and \`pulumi stack rm $stack\`."
    fi
    echo
    echo "<details><summary>pulumi destroy</summary>"
    echo
    fenced "$out"
    echo
    echo "</details>"
  } | publish
  rm -f "$out"
  return "$status"
}

# The numbers of the program's stacks named pr-<number>, one a line, from `pulumi stack ls --json` on stdin
# (a stack's name may carry its organization and project in front: acme/shop/pr-12).
# shellcheck disable=SC2016
pr_numbers='
const stacks = JSON.parse(require("fs").readFileSync(0, "utf8"));
if (!Array.isArray(stacks)) throw new Error("pulumi stack ls --json did not write a list");
for (const { name } of stacks) {
  const match = /(?:^|\/)pr-([1-9][0-9]*)$/.exec(String(name));
  if (match) console.log(match[1]);
}
'

# The state of a pull request ("open" or "closed"), from GitHub's answer to GET /repos/{owner}/{repo}/pulls/{number}
# on stdin; fails on anything else.
# shellcheck disable=SC2016
pr_state='
const { state } = JSON.parse(require("fs").readFileSync(0, "utf8"));
if (state !== "open" && state !== "closed") throw new Error(`GitHub answered the state ${JSON.stringify(state)}`);
console.log(state);
'

# Destroys and removes the stack of every closed pull request; keeps those of open ones, and of any it cannot read.
sweep() {
  local dir=$1 listed numbers pr state failed=() removed=() kept=()
  : "${GITHUB_REPOSITORY:?sweep needs GITHUB_REPOSITORY, owner/name}"
  listed=$(pulumi stack ls --json --cwd "$dir" --non-interactive) || {
    echo "pr-preview: sweep: could not list the stacks of $dir (above): nothing was destroyed" >&2
    return 1
  }
  numbers=$(node -e "$pr_numbers" <<<"$listed") || {
    echo "pr-preview: sweep: could not read the stacks pulumi stack ls listed: nothing was destroyed" >&2
    return 1
  }
  for pr in $numbers; do
    if ! state=$(gh api "repos/$GITHUB_REPOSITORY/pulls/$pr" | node -e "$pr_state"); then
      echo "pr-preview: sweep: stack pr-$pr kept: the state of pull request #$pr of $GITHUB_REPOSITORY could not be read (above)" >&2
      failed+=("pr-$pr")
    elif [ "$state" = open ]; then
      echo "pr-preview: sweep: stack pr-$pr kept: pull request #$pr is open"
      kept+=("pr-$pr")
    elif destroy "$dir" "$pr"; then
      removed+=("pr-$pr")
    else
      failed+=("pr-$pr")
    fi
  done
  {
    echo "#### Stacks of closed pull requests: ${#removed[@]} removed, ${#kept[@]} kept (open), ${#failed[@]} failed"
    echo
    echo "Removed: ${removed[*]:-none}. Kept: ${kept[*]:-none}. Failed: ${failed[*]:-none}."
  } | tee -a "${GITHUB_STEP_SUMMARY:-/dev/null}"
  [ "${#failed[@]}" -eq 0 ]
}

# Posts the comment, or edits the one posted before under the same key (found by its marker).
comment() {
  local key=$1 existing
  : "${PR_NUMBER:?comment needs PR_NUMBER, the number of the pull request}"
  : "${GITHUB_REPOSITORY:?comment needs GITHUB_REPOSITORY, owner/name}"
  [ -s "$comment_file" ] || { echo "pr-preview: $comment_file is empty or missing: nothing to post" >&2; return 1; }
  # shellcheck disable=SC2016 # a JavaScript template literal
  existing=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" |
    MARKER="$(marker "$key")" node -e '
      const text = require("fs").readFileSync(0, "utf8");
      // gh --paginate writes one JSON array per page, back to back.
      const comments = JSON.parse(`[${text.replace(/\]\s*\[/g, "],[")}]`).flat();
      const mine = comments.find((c) => typeof c.body === "string" && c.body.startsWith(process.env.MARKER));
      if (mine) console.log(mine.id);
    ') || return 1
  if [ -n "$existing" ]; then
    gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$comment_file" >/dev/null
  else
    gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -F "body=@$comment_file" >/dev/null
  fi
}

[ $# -ge 1 ] || usage
command=$1
shift
case "$command" in
  preview) [ $# -eq 2 ] || usage; preview "$@" ;;
  up) [ $# -eq 3 ] || usage; up "$@" ;;
  destroy) [ $# -eq 2 ] || usage; destroy "$@" ;;
  sweep) [ $# -eq 1 ] || usage; sweep "$@" ;;
  comment)
    [ $# -eq 1 ] || usage
    comment "$@"
    ;;
  *) usage ;;
esac
