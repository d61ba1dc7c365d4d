# pulumi-hosting: the two commands are `make demo` and `make test`.
SHELL := /bin/bash
PLUGIN := bin/pulumi-resource-hosting
VERSION := $(shell node -p "require('./package.json').version")
JEST := node_modules/.bin/jest

.PHONY: all build typecheck test release-dry-run docs-languages pulumi-cli test-under-load simulator export schema sdk sdk-build sdk-pack sdk-publish docs package package-test install install-built demo bench bench-table bench-curve soak clean release-check lint-workflows record-state

all: build

# A fresh clone has no node_modules: every target that needs them installs them first.
node_modules:
	npm ci --no-audit --no-fund

# The plugin for development: a Node.js script and the files it loads, in bin/ (scripts/build.mjs).
build: node_modules
	node scripts/build.mjs

typecheck: node_modules
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p test/e2e/tsconfig.json

.PHONY: lint format

# The workflows (make lint-workflows: actionlint), formatting and lint (biome.jsonc), then no line over 120
# columns (scripts/long-lines.mjs: the formatter breaks code, never a string or a comment), then shellcheck
# over the scripts users copy (examples/*/*.sh, every finding down to style). Writes nothing; `make format`
# writes what biome can fix.
lint: node_modules lint-workflows
	node_modules/.bin/biome check --error-on-warnings .
	node scripts/long-lines.mjs
	@command -v shellcheck >/dev/null || { echo "make lint: shellcheck is not installed, and it checks the scripts users copy (examples/*/*.sh): apt-get install shellcheck (Debian, Ubuntu), brew install shellcheck (macOS)" >&2; exit 1; }
	shellcheck --severity=style examples/*/*.sh

# Formats every file biome.jsonc includes and applies the linter's safe fixes. Twice: biome 2.6's formatter
# can need a second pass to settle a long member chain (a.b().c({...})); the second reports what is left to
# fix by hand (and fails while anything is).
format: node_modules
	-@node_modules/.bin/biome check --write . >/dev/null 2>&1
	node_modules/.bin/biome check --write .

# The whole suite: lint, typecheck, then every jest test. The gRPC tests spawn the plugin, and run twice:
# against bin/ (the Node.js script) and against the single executable (jest.config.js), so both
# are built first; no test rebuilds them while others run them. The end-to-end tests (test/e2e) run
# the real Pulumi CLI, which make pulumi-cli gets first (a first build from Go modules takes minutes).
# Then the release rehearsed (make release-dry-run), after jest: it rebuilds dist/ and the SDK's package,
# which the tests run.
test: lint build typecheck package pulumi-cli
	$(JEST) $(JEST_ARGS)
	@$(MAKE) --no-print-directory release-dry-run

# The Pulumi CLI at the pinned version and the language hosts the tests use, from PATH, the official
# release or a build from Go modules, cached outside the repository (scripts/pulumi-cli.sh says where).
pulumi-cli:
	@$(SHELL) scripts/pulumi-cli.sh

# The whole suite while every core is busy (stress-ng, or busy loops without it): no test may depend
# on timing a loaded machine breaks (docs/testing.md, "Under load"). JEST_ARGS is passed on.
test-under-load:
	@$(SHELL) scripts/test-under-load.sh

simulator: build
	node dist/simulator.js $(ARGS)

# Adopt an existing project: write a file for `pulumi import --file` (see docs/importing.md, "Adopting existing
# infrastructure"). Reads HOSTING_BASE_URL, HOSTING_TOKEN, HOSTING_PROJECT_ID; e.g.
# make export ARGS="--project <id> --out hosting-import.json".
export: build
	node dist/hosting-export.js $(ARGS)

# The development plugin, where the engine looks for version $(VERSION) of it. install-built copies
# what bin/ holds without rebuilding it (a test uses it while other tests run bin/'s plugin). A released
# plugin there (one executable, nothing beside it) is never replaced: a checkout between releases builds
# another schema under the same version.
install: build
	@$(MAKE) --no-print-directory install-built

install-built:
	@dir="$${PULUMI_HOME:-$$HOME/.pulumi}/plugins/resource-hosting-v$(VERSION)"; \
	if [ -e "$$dir/pulumi-resource-hosting" ] && [ ! -e "$$dir/pulumi-resource-hosting.server.js" ]; then \
	  echo "make install: $$dir holds the released plugin $(VERSION), which this checkout's build would replace with a build of another schema. Keep it and install into another Pulumi home (PULUMI_HOME=/tmp/hosting-dev make install, and the same PULUMI_HOME for pulumi), or remove it first: pulumi plugin rm resource hosting $(VERSION) --yes" >&2; exit 1; \
	fi; \
	rm -rf "$$dir" && mkdir -p "$$dir" && cp $(PLUGIN) $(PLUGIN).server.js $(PLUGIN).server.cache $(PLUGIN).provider.js $(PLUGIN).provider.cache $(PLUGIN).undici.js "$$dir/" && \
	echo "installed $(PLUGIN) into $$dir"

# The plugin as users install it, for this machine: one executable that needs no Node.js, made from
# Node.js 24 (scripts/node24.sh: the node on PATH when it is 24, or Node.js's build from the npm registry),
# dist/pulumi-resource-hosting, and the archive the engine downloads,
# dist/pulumi-resource-hosting-v$(VERSION)-<os>-<arch>.tar.gz (scripts/package.mjs).
package: node_modules
	"$$($(SHELL) scripts/node24.sh)" scripts/package.mjs

# What `make package` wrote, as a user gets it: the archive unpacked into a PULUMI_HOME, the
# executable started with no node on PATH and driven over gRPC (the release workflow runs this).
package-test: node_modules
	$(JEST) --selectProjects "node script" -- test/package/archive test/package/singleExecutable

# The Node.js SDK compiled in place, as Pulumi's providers build theirs (and the Node.js host's `pulumi package
# pack-sdk`): npm install and tsc in sdk/nodejs, then package.json, README.md and LICENSE copied into
# sdk/nodejs/bin, which is the npm package (the SDK's utilities read its version from ./package.json there),
# its fields normalized as npm publish would (`npm pkg fix`: the generator's repository URL as an object).
# Rebuilt only when a generated file changed. The examples link sdk/nodejs/bin; their `npm install` runs this
# (their postinstall script).
SDK_FILES := $(shell find sdk/nodejs -type f -not -path 'sdk/nodejs/node_modules/*' -not -path 'sdk/nodejs/bin/*' 2>/dev/null)

sdk-build: sdk/nodejs/bin/package.json

sdk/nodejs/bin/package.json: $(SDK_FILES)
	rm -rf sdk/nodejs/bin
	cd sdk/nodejs && npm install --no-package-lock --no-audit --no-fund --loglevel=error && npm run --silent build
	cp sdk/nodejs/package.json sdk/nodejs/README.md LICENSE sdk/nodejs/bin/
	cd sdk/nodejs/bin && npm pkg fix

# The Node.js SDK as an npm package, exactly what `npm publish` of sdk/nodejs/bin sends:
# dist/hosting-pulumi-$(VERSION).tgz.
sdk-pack: sdk-build
	mkdir -p dist && npm pack ./sdk/nodejs/bin --pack-destination dist --loglevel=error

# The tarball make sdk-pack wrote, published to npm as @hosting/pulumi (public, a scoped package). The release
# workflow runs it with NPM_PUBLISH_FLAGS=--provenance in a job npm trusts (trusted publishing: the job's OIDC
# token, no npm token), after the GitHub release holds the plugin the SDK asks for; CI runs it with
# NPM_PUBLISH_FLAGS=--dry-run on every push, so the release's step is the one tested.
SDK_TARBALL := dist/hosting-pulumi-$(VERSION).tgz

sdk-publish:
	@test -f $(SDK_TARBALL) || { echo "make sdk-publish needs $(SDK_TARBALL): run make sdk-pack first" >&2; exit 1; }
	npm publish ./$(SDK_TARBALL) --access public $(NPM_PUBLISH_FLAGS)

# Every artifact a release tag publishes that this machine can build (this platform's plugin archive, the
# npm, PyPI, Go, Maven and, where dotnet is installed, NuGet packages) into dist/release, each checked with
# its own ecosystem's tool (scripts/release-dry-run.sh says which). CI runs it on every push.
release-dry-run: node_modules
	@$(SHELL) scripts/release-dry-run.sh

# A release tag must name the version in package.json: make release-check TAG=v$(VERSION)
# (on GitHub Actions TAG defaults to the pushed tag). And the release must land where package.json's
# pluginDownloadURL sends the engine: a github:// address names the repository whose releases hold
# the plugin, which must be the one releasing (REPOSITORY, on GitHub Actions the workflow's own).
TAG ?= $(GITHUB_REF_NAME)
REPOSITORY ?= $(GITHUB_REPOSITORY)
PLUGIN_DOWNLOAD_URL = $(shell node -p "require('./package.json').pulumi.pluginDownloadURL")
release-check:
	@if [ "$(TAG)" != "v$(VERSION)" ]; then \
	  echo "release tag '$(TAG)' does not match package.json's version $(VERSION): tag v$(VERSION), or change the version and run make schema sdk" >&2; exit 1; \
	fi; \
	url="$(PLUGIN_DOWNLOAD_URL)"; case "$$url" in github://api.github.com/*) \
	  if [ -n "$(REPOSITORY)" ] && [ "$${url#github://api.github.com/}" != "$(REPOSITORY)" ]; then \
	    echo "package.json's pluginDownloadURL ($$url) sends the engine to the releases of $${url#github://api.github.com/}, but this release is made in $(REPOSITORY): set pulumi.pluginDownloadURL to github://api.github.com/$(REPOSITORY) and run make schema sdk docs, or release from $${url#github://api.github.com/}" >&2; exit 1; \
	  fi ;; \
	esac; \
	echo "release tag $(TAG) matches package.json's version $(VERSION)"

# Every GitHub Actions workflow (.github/workflows, the examples'), checked by actionlint: the schema,
# expressions, action inputs, runner labels GitHub still offers, and the run: scripts through shellcheck
# where it is installed (scripts/actionlint.sh builds actionlint from Go modules once, into the cache).
lint-workflows:
	@$(SHELL) scripts/actionlint.sh

clean:
	rm -rf bin dist

# Generated files: schema.json from the declarations; sdk/<language> and docs/reference from schema.json;
# the generated sections of README.md, docs/functions.md and docs/simulator.md (between
# <!-- generated: NAME --> and <!-- /generated -->) from schema.json and the simulator's tables.
# Regenerate them with `make schema sdk docs`; the tests fail while any is stale. SCHEMA_JSON,
# SDK_DIR, DOCS_REFERENCE and DOCS_PAGES (the directory that holds those pages) let the tests
# generate into a temporary directory.
SCHEMA_JSON ?= schema.json
SDK_DIR ?= sdk
DOCS_REFERENCE ?= docs/reference
DOCS_PAGES ?= .

schema: node_modules
	node scripts/run-ts.mjs scripts/gen-schema.ts $(SCHEMA_JSON)

# Every SDK (Node.js, Python, Go, .NET, Java) by Pulumi's own generators, `pulumi package gen-sdk` at the
# pinned CLI version (scripts/gen-sdk.sh says which language host writes each; docs/sdk.md).
sdk:
	@$(SHELL) scripts/gen-sdk.sh $(SCHEMA_JSON) $(SDK_DIR)

docs: node_modules
	node scripts/run-ts.mjs scripts/gen-docs.ts $(SCHEMA_JSON) $(DOCS_REFERENCE) $(DOCS_PAGES)

# The docs' programs and the declarations' examples in every language (TypeScript, Python, Go, C#, Java, YAML), each
# from one YAML source converted by `pulumi convert` at the pinned CLI version (scripts/gen-languages.ts,
# program-languages.ts): docs/_index.md's and docs/first-program.md's programs, and
# docs/programs/reference-examples.json, which schema.json's descriptions carry (so the SDKs' doc comments and the
# reference pages). The schema's types first, for the plugin the converter reads them from; schema.json again after.
# After changing an example: make docs-languages sdk docs. The end-to-end suite runs each language but C# and fails
# while any of it is stale.
docs-languages: schema build pulumi-cli
	node scripts/run-ts.mjs scripts/gen-languages.ts
	@$(MAKE) --no-print-directory schema

# The user's first command: the plugin, the simulator and examples/app-with-postgres through
# pulumi up, a preview of an image change, and destroy. Needs Node.js and internet: without a
# pulumi on PATH it fetches a pinned Pulumi CLI into a cache first (scripts/demo.sh says where),
# then installs node_modules if they are missing (make install).
demo:
	@$(SHELL) scripts/demo.sh

# Performance (issue 5): every figure beside its baseline, measured in one run against the
# simulator; prints the table, writes bench/results.json and then docs/performance.md's table from it
# (scripts/bench-table.ts). ARGS="--only startup,volume" runs some (the same as
# `npm run bench -- --only startup,volume`): they replace their rows in bench/results.json.
# The start-up row also measures the single executable when dist/ has one (make package).
bench: build
	node scripts/run-ts.mjs bench/run.ts $(ARGS)

# docs/performance.md's table from bench/results.json again, as `make bench` writes it (a test fails while it is stale).
bench-table: node_modules
	node scripts/run-ts.mjs scripts/bench-table.ts

# Where it breaks: the preview and refresh rows at 1,000, 5,000 and 10,000 resources (several minutes);
# prints the curve and writes bench/curve.json. ARGS="--sizes 1000,2000 --engine16-up-to 2000" to choose.
bench-curve: build
	node scripts/run-ts.mjs bench/curve.ts $(ARGS)

# A fixture for the upgrade tests when the state shape changed: every resource, made through the plugin from its
# first example, as the engine stores it, in test/upgrades/states/<schema version> (docs/testing.md, "Upgrades").
# ARGS=--replace records the newest schema version again.
record-state: build
	node scripts/run-ts.mjs test/upgrades/record.ts $(ARGS)

# Fault-injection soak (issue 6): `npm run soak -- --ops 500 --seed 7`, or make soak ARGS="--ops 500 --seed 7".
soak: build
	node scripts/run-ts.mjs soak/run.ts $(ARGS)
