# The Pi package: build the binary next to it, install Node 22 and Pi
# 1.6.0 from the committed lockfile, and run the shim's unit tests and the
# end-to-end tests against real Pi. Included by the top Makefile.
PI_DIR := pi
PI_NODE := node_modules/.bin/node

.PHONY: pi-binary pi-deps pi-bench-peer pi-tmux pi-test pi-unit pi-e2e pi-bench

EXTRA_TESTS += pi-test
SUITE_BINARIES += pi-binary
TEST_DEPS += pi-deps pi-tmux

# `make` also puts the binary next to the package, where the package
# looks first, so that `pi install ./pi` works from a checkout.
all: pi-binary

# The dialog compiled to WebAssembly, which the package runs inside Pi to
# draw a key's frame at once (pi/src/wasm.ts).
pi-binary: build
	mkdir -p $(PI_DIR)/bin && cp bin/askuser $(PI_DIR)/bin/askuser
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -ldflags=-s -o $(PI_DIR)/bin/askuser-dialog.wasm ./cmd/askuser-dialog-wasm

# npm ci only when the lockfile is newer than the installed tree. The
# lockfile brings Node 22 (the registry package "node") and Pi 1.6.0.
pi-deps: $(PI_DIR)/node_modules/.package-lock.json

$(PI_DIR)/node_modules/.package-lock.json: $(PI_DIR)/package-lock.json $(PI_DIR)/package.json
	cd $(PI_DIR) && npm ci --no-audit --no-fund
	@touch $@

# The TUI tests run Pi inside tmux. Install it where we may (CI runs as
# root on a Debian machine); elsewhere say what is missing.
pi-tmux:
	@command -v tmux >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; \
	  else echo "pi-test needs tmux for Pi's TUI tests: install it (apt-get install tmux)" >&2; exit 1; fi; }

pi-test: pi-unit pi-e2e

pi-unit: pi-binary pi-deps
	cd $(PI_DIR) && $(PI_NODE) node_modules/typescript/bin/tsc -p .
	cd $(PI_DIR) && $(PI_NODE) --test test/*.test.ts

pi-e2e: pi-binary pi-deps pi-tmux
	cd $(PI_DIR) && $(PI_NODE) --test --test-concurrency=1 e2e/*.test.ts

# The peer extension the bench measures beside the package, pinned in its
# own lockfile; its peer dependencies (Pi's packages) resolve to ours.
PI_PEER := $(PI_DIR)/bench/peer
pi-bench-peer: $(PI_PEER)/node_modules/.package-lock.json

$(PI_PEER)/node_modules/.package-lock.json: $(PI_PEER)/package-lock.json $(PI_PEER)/package.json
	cd $(PI_PEER) && npm ci --no-audit --no-fund --legacy-peer-deps
	@touch $@

# The bench runs in a temporary directory of its own, removed after: the
# peer is loaded through jiti as Pi loads it, which caches what it
# compiles in TMPDIR.
pi-bench: pi-binary pi-deps pi-bench-peer
	t=$$(mktemp -d "$${TMPDIR:-/tmp}/askuser-bench.XXXXXX") && cd $(PI_DIR) && \
	  TMPDIR=$$t $(PI_NODE) bench/bench.ts $(BENCH); rc=$$?; rm -rf "$$t"; exit $$rc
