# pulumi-hosting: the two commands are `make demo` and `make test`.
SHELL := /bin/bash
PLUGIN := bin/pulumi-resource-hosting
VERSION := $(shell node -p "require('./package.json').version")
JEST := node_modules/.bin/jest

.PHONY: package archive all build typecheck test test-unit simulator schema sdk demo install bench bench-curve soak clean

all: build

node_modules:
	@test -d node_modules || npm ci

build: node_modules
	node scripts/build.mjs

typecheck: node_modules
	node_modules/.bin/tsc -p tsconfig.json

# The whole suite: typecheck, then every jest test (the gRPC tests spawn the built plugin).
test: build typecheck
	$(JEST) $(JEST_ARGS)

simulator: build
	node dist/simulator.js $(ARGS)

install: build
	@dir="$${PULUMI_HOME:-$$HOME/.pulumi}/plugins/resource-hosting-v$(VERSION)"; \
	mkdir -p "$$dir" && cp $(PLUGIN) $(PLUGIN).* "$$dir/" && \
	echo "installed $(PLUGIN) into $$dir"

# The plugin's files as one archive, for `pulumi plugin install resource hosting <version> --file <archive>`.
# `archive` packs what bin/ holds without rebuilding (the tests use it while other tests run the plugin).
PLUGIN_ARCHIVE := dist/pulumi-resource-hosting-v$(VERSION).tar.gz
package: build
	@$(MAKE) --no-print-directory archive

archive:
	@mkdir -p dist && tar -czf $(PLUGIN_ARCHIVE) -C bin $(notdir $(wildcard $(PLUGIN) $(PLUGIN).*)) && \
	echo "wrote $(PLUGIN_ARCHIVE); install it with: pulumi plugin install resource hosting $(VERSION) --file $(PLUGIN_ARCHIVE)"

clean:
	rm -rf bin dist

# Generated files: schema.json from the declarations, sdk/nodejs from schema.json. Regenerate both
# with `make schema sdk`; the tests fail while either is stale. SCHEMA_JSON and SDK_NODEJS let the tests
# generate into a temporary directory.
SCHEMA_JSON ?= schema.json
SDK_NODEJS ?= sdk/nodejs

schema: node_modules
	node scripts/run-ts.mjs scripts/gen-schema.ts $(SCHEMA_JSON)

sdk: node_modules
	node scripts/run-ts.mjs scripts/gen-sdk.ts $(SCHEMA_JSON) $(SDK_NODEJS)

# The user's first command: the plugin, the simulator and examples/app-with-postgres through
# pulumi up, a preview of an image change, and destroy. Needs the Pulumi CLI (it says so if missing).
demo:
	@$(SHELL) scripts/demo.sh

# Performance (issue 5): every figure beside its baseline, measured in one run against the
# simulator; prints the table and writes bench/results.json. ARGS="--only startup,volume" runs some.
bench: build
	node scripts/run-ts.mjs bench/run.ts $(ARGS)

# Where it breaks: the preview and refresh rows at 1,000, 5,000 and 10,000 resources (several minutes);
# prints the curve and writes bench/curve.json. ARGS="--sizes 1000,2000 --engine16-up-to 2000" to choose.
bench-curve: build
	node scripts/run-ts.mjs bench/curve.ts $(ARGS)

# Fault-injection soak (issue 6): `npm run soak -- --ops 500 --seed 7`, or make soak ARGS="--ops 500 --seed 7".
soak: build
	node scripts/run-ts.mjs soak/run.ts $(ARGS)
