//go:build tools

// actionlint, the linter of GitHub Actions workflows (make lint-workflows, scripts/actionlint.sh): the
// workflow schema, expressions and their types, each action's inputs, runner labels GitHub still offers,
// and the shell scripts in `run:` steps (through shellcheck, where it is installed).
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
