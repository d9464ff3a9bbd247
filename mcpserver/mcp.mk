# The MCP server's peer test: the official TypeScript MCP SDK client drives
# the askuser binary over stdio. npm ci installs the SDK from the committed
# lockfile. Included by the top Makefile.
MCP_NODE_DIR := mcpserver/node

.PHONY: mcp-binary mcp-node-deps mcp-node-test mcp-figures

EXTRA_TESTS += mcp-node-test
SUITE_BINARIES += mcp-binary
TEST_DEPS += mcp-node-deps

mcp-binary: build
	mkdir -p $(MCP_NODE_DIR)/bin && cp bin/askuser $(MCP_NODE_DIR)/bin/askuser

# npm ci only when the lockfile is newer than the installed tree.
mcp-node-deps: $(MCP_NODE_DIR)/node_modules/.package-lock.json

$(MCP_NODE_DIR)/node_modules/.package-lock.json: $(MCP_NODE_DIR)/package-lock.json $(MCP_NODE_DIR)/package.json
	cd $(MCP_NODE_DIR) && npm ci --no-audit --no-fund
	@touch $@

mcp-node-test: mcp-binary mcp-node-deps
	cd $(MCP_NODE_DIR) && ASKUSER_BIN=$(CURDIR)/$(MCP_NODE_DIR)/bin/askuser node --test --test-concurrency=1

# The server's figures: cold start to the initialize answer, one tools/call
# round trip, and the idle memory.
mcp-figures:
	$(GO) test -run '^$$' -bench . -benchtime 200x ./mcpserver/
