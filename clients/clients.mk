# The real MCP clients: Claude Code, Codex, Gemini CLI and OpenCode, at
# the versions of the committed lockfile, each run against the askuser
# binary with a scripted model server on 127.0.0.1 (see clients/). npm ci
# runs only when the lockfile changed. OpenCode comes as its linux-x64
# build: the registry serves opencode-ai 1.18.33 but not all of the
# platform builds it names, which npm ci then wants in the lockfile.
# Included by the top Makefile.
CLIENTS_DIR := clients

.PHONY: clients-binary clients-deps clients-test

EXTRA_TESTS += clients-test

clients-binary:
	$(GO) build -o $(CLIENTS_DIR)/bin/askuser ./cmd/askuser

clients-deps: $(CLIENTS_DIR)/node_modules/.package-lock.json

$(CLIENTS_DIR)/node_modules/.package-lock.json: $(CLIENTS_DIR)/package-lock.json $(CLIENTS_DIR)/package.json
	cd $(CLIENTS_DIR) && npm ci --no-audit --no-fund
	@touch $@

# The clients' TUIs run inside tmux: pi-tmux (pi/pi.mk) installs it.
clients-test: clients-binary clients-deps pi-tmux
	ASKUSER_BIN=$(CURDIR)/$(CLIENTS_DIR)/bin/askuser ASKUSER_CLIENTS=$(CURDIR)/$(CLIENTS_DIR)/node_modules \
	  $(GO) test -race -count=1 -timeout 30m ./$(CLIENTS_DIR)/
