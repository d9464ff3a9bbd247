# The Pi package: build the binary next to it, install Node 22 and Pi
# 1.6.0 from the committed lockfile, and run the shim's unit tests and the
# end-to-end tests against real Pi. Included by the top Makefile.
PI_DIR := pi
PI_NODE := $(PI_DIR)/node_modules/.bin/node

.PHONY: pi-binary pi-deps pi-test pi-unit pi-e2e pi-bench

# Not yet in EXTRA_TESTS: the rpc abort test in e2e/rpc.test.ts still times
# out waiting for the tool result. Run `make pi-test` by hand until it passes.

pi-binary:
	$(GO) build -o $(PI_DIR)/bin/askuser ./cmd/askuser

# npm ci only when the lockfile is newer than the installed tree.
pi-deps: $(PI_DIR)/node_modules/.package-lock.json

$(PI_DIR)/node_modules/.package-lock.json: $(PI_DIR)/package-lock.json $(PI_DIR)/package.json
	cd $(PI_DIR) && npm ci --no-audit --no-fund
	@touch $@

pi-test: pi-unit pi-e2e

pi-unit: pi-binary pi-deps
	cd $(PI_DIR) && node_modules/.bin/node --test test/*.test.ts

pi-e2e: pi-binary pi-deps
	cd $(PI_DIR) && node_modules/.bin/node --test --test-concurrency=1 e2e/*.test.ts

pi-bench: pi-binary pi-deps
	cd $(PI_DIR) && node_modules/.bin/node bench/bridge.ts
