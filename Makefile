# askuser build and test entry points. `make test` is what CI runs.
GO ?= go
PKGS := ./...

.PHONY: all build dist test test-steps test-deps checks vet platforms staticcheck actionlint gotest bench fuzz clean

all: build

# The one askuser binary of a checkout: the Pi package, the MCP server's
# peer test and the clients' tests each take a copy of it.
build:
	$(GO) build -o bin/askuser ./cmd/askuser
	$(GO) build -o bin/askuser-hub ./cmd/askuser-hub

# The release: a static binary and archive for each platform, SHA256SUMS
# and the npm packages, packed, in dist/ (see build/dist).
dist:
	$(GO) run ./build/dist -out dist
	$(GO) run ./build/dist -verify dist

# Fragments owned by the Pi package, the MCP server and the real MCP
# clients' tests add their test targets to EXTRA_TESTS, and what those
# download (npm packages, Node 22, tmux, Chromium) to TEST_DEPS.
EXTRA_TESTS :=
TEST_DEPS :=
-include pi/pi.mk
-include mcpserver/mcp.mk
-include internal/clients/clients.mk
-include release/release.mk
-include internal/hubweb/web.mk

# Every step runs with TMPDIR set to a fresh directory that must be empty
# afterwards: a test that leaves a file behind fails the run.
test:
	build/check-tmp.sh $(MAKE) --no-print-directory test-steps

# The downloads run beside the checks, which need the CPU and little else;
# each part's output is shown whole once it ends.
test-steps:
	$(MAKE) --no-print-directory -j2 --output-sync=recurse test-deps checks
	$(MAKE) --no-print-directory gotest $(EXTRA_TESTS)

test-deps: $(TEST_DEPS)

checks: vet platforms staticcheck actionlint

# Pi turns on Node's compile cache, which would write to TMPDIR.
export NODE_DISABLE_COMPILE_CACHE := 1

vet:
	$(GO) vet $(PKGS)

# The release's platforms other than linux/amd64, kept compiling: every
# package is type-checked from source for each (see build/typecheck),
# which takes seconds where compiling them for each, as `make dist` does,
# takes minutes from a cold cache.
PLATFORMS := linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64
platforms:
	$(GO) run ./build/typecheck -platforms $(PLATFORMS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)

# The release workflow, checked by actionlint at a pinned version (run
# from the module proxy, outside askuser's own module graph).
ACTIONLINT := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
actionlint:
	$(GO) run $(ACTIONLINT) -color=false .github/workflows/*.yml

# vet ran whole before; go test's own vet pass would repeat part of it.
# Four packages at a time on two cores: the hub's, the page's and the
# CLI's tests spend most of their time waiting on the processes they
# start, and with two at a time the CPU sat 45-75 % idle.
gotest:
	$(GO) test -race -count=1 -vet=off -p 4 $(PKGS)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem $(PKGS)

# Each fuzz target for FUZZTIME (20s unless set), with a line of figures
# per target. Not part of `make test`.
FUZZTIME ?= 20s
fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) build/fuzz.sh

clean:
	rm -rf bin dist
