#!/usr/bin/env bash
# Pull-request previews for a Pulumi program that uses the hosting provider, for GitHub Actions.
#
#   pr-preview.sh preview <program-dir> <stack>              pulumi preview --diff of the stack
#   pr-preview.sh up      <program-dir> <config-from> <pr>   a stack of its own for the pull request
#   pr-preview.sh destroy <program-dir> <pr>                 that stack destroyed and removed
#   pr-preview.sh comment <key>                              the comment written, posted on the PR
#
# preview, up and destroy write a comment for the pull request (markdown) to $COMMENT_FILE (default
# pr-preview-comment.md), and the same to the job summary ($GITHUB_STEP_SUMMARY) when there is one;
# each exits with the status of the pulumi command it ran. `comment` posts $COMMENT_FILE on pull
# request $PR_NUMBER of $GITHUB_REPOSITORY with the GitHub CLI (GH_TOKEN), replacing the comment it
# posted before under the same key, so a pull request carries one comment per key, kept current.
#
# The pull request's stack is pr-<number>. It takes its configuration from <config-from> (a stack of
# the same program), and the autonaming pattern ${name}-${stack}, so that what it creates never
# takes the names of the stack it was copied from: the Container `web` of stack pr-12 is named
# web-pr-12. Resources of the program must leave `name` out for that (the provider then names them).
# Its app's address is the stack output $URL_OUTPUT (default url).
#
# Needs the Pulumi CLI logged in to the backend, the hosting plugin and the program's dependencies
# installed, and the provider's credentials (stack config or HOSTING_TOKEN): a preview reads the
# live platform. `comment` needs the GitHub CLI (gh) and Node.js.
set -uo pipefail

comment_file=${COMMENT_FILE:-pr-preview-comment.md}
url_output=${URL_OUTPUT:-url}
# GitHub refuses a comment longer than 65,536 characters; the diff is cut to leave room for the rest.
max_diff=60000

usage() {
  sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The comment's first line: a marker that says which comment this is, invisible on GitHub.
marker() { echo "<!-- pr-preview:$1 -->"; }

# Writes the comment, and the job summary.
publish() {
  cat >"$comment_file"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$comment_file" >>"$GITHUB_STEP_SUMMARY"; fi
}

# The lines under the CLI's "Resources:" heading, on one line: "~ 1 to update, 2 unchanged".
resources_line() {
  sed -n '/^Resources:/,/^$/p' "$1" | sed '1d;/^[[:space:]]*$/d;s/^[[:space:]]*//' | paste -sd, - | sed 's/,/, /g'
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
      # shellcheck disable=SC2016 # the pattern is the engine's, not the shell's
      pulumi config set --cwd "$dir" --stack "$stack" --path 'pulumi:autonaming.pattern' '${name}-${stack}' &&
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

destroy() {
  local dir=$1 pr=$2 stack out status
  stack="pr-$pr"
  out=$(mktemp)
  if ! pulumi stack select "$stack" --cwd "$dir" --non-interactive >/dev/null 2>&1; then
    { marker "stack-$stack"; echo "#### Stack \`$stack\` does not exist: nothing to destroy"; } | publish
    rm -f "$out"
    return 0
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

# Posts the comment, or edits the one posted before under the same key (found by its marker).
comment() {
  local key=$1 existing
  : "${PR_NUMBER:?comment needs PR_NUMBER, the number of the pull request}"
  : "${GITHUB_REPOSITORY:?comment needs GITHUB_REPOSITORY, owner/name}"
  [ -s "$comment_file" ] || { echo "pr-preview: $comment_file is empty or missing: nothing to post" >&2; return 1; }
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
  comment)
    [ $# -eq 1 ] || usage
    comment "$@"
    ;;
  *) usage ;;
esac
