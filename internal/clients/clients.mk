# The real MCP clients: Claude Code, Codex, Gemini CLI, OpenCode, Kilo CLI
# and Continue CLI, at the versions of the committed lockfile, each run
# against the askuser binary with a scripted model server on 127.0.0.1
# (see internal/clients/). npm ci runs only when the lockfile changed.
# OpenCode and Kilo come as their linux-x64 builds: the registry serves
# opencode-ai 1.18.33 but not all of the platform builds it names, which
# npm ci then wants in the lockfile, and Kilo's is the binary its wrapper
# package would run.
# Included by the top Makefile.
CLIENTS_DIR := internal/clients

.PHONY: clients-binary clients-deps clients-test

EXTRA_TESTS_BESIDE += clients-test
SUITE_BINARIES += clients-binary
TEST_DEPS += clients-deps

clients-binary: build
	mkdir -p $(CLIENTS_DIR)/bin && cp bin/askuser $(CLIENTS_DIR)/bin/askuser

clients-deps: $(CLIENTS_DIR)/node_modules/.package-lock.json

$(CLIENTS_DIR)/node_modules/.package-lock.json: $(CLIENTS_DIR)/package-lock.json $(CLIENTS_DIR)/package.json
	cd $(CLIENTS_DIR) && npm ci --no-audit --no-fund
	@touch $@

# The clients' TUIs run inside tmux: pi-tmux (pi/pi.mk) installs it. The
# tests run in a network namespace of their own, where only the loopback
# is up: the scripted models on 127.0.0.1 answer, and nothing a client
# tries to reach elsewhere does (unshare needs root, as CI has).
clients-test: clients-binary clients-deps pi-tmux
	@command -v unshare >/dev/null && command -v ip >/dev/null || { \
	  echo "clients-test runs the clients without a network, with unshare and ip (util-linux, iproute2): install them" >&2; exit 1; }
	$(GO) test -c -race -o $(CLIENTS_DIR)/bin/clients.test ./$(CLIENTS_DIR)/
	cd $(CLIENTS_DIR) && ASKUSER_BIN=$(CURDIR)/$(CLIENTS_DIR)/bin/askuser ASKUSER_CLIENTS=$(CURDIR)/$(CLIENTS_DIR)/node_modules \
	  unshare --net sh -c 'ip link set lo up && exec bin/clients.test -test.count=1 -test.timeout=30m'
