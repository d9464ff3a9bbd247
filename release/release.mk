# The release test: `make dist`'s packages published to a local npm
# registry (verdaccio, pinned in release/package-lock.json) and installed
# from it as users install them, with no Go on PATH. It runs under the Node
# 22 that the Pi package installs. Included by the top Makefile.
RELEASE_DIR := release

.PHONY: release-deps release-test

EXTRA_TESTS += release-test
TEST_DEPS += release-deps

# npm ci only when the lockfile is newer than the installed tree.
release-deps: $(RELEASE_DIR)/node_modules/.package-lock.json

$(RELEASE_DIR)/node_modules/.package-lock.json: $(RELEASE_DIR)/package-lock.json $(RELEASE_DIR)/package.json
	cd $(RELEASE_DIR) && npm ci --no-audit --no-fund
	@touch $@

release-test: release-deps pi-deps
	cd $(PI_DIR) && $(PI_NODE) node_modules/typescript/bin/tsc -p ../$(RELEASE_DIR)
	cd $(RELEASE_DIR) && GO=$(GO) ../$(PI_DIR)/$(PI_NODE) --test gorun.test.ts install.test.ts
