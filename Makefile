# askuser build and test entry points. `make test` is what CI runs.
GO ?= go
PKGS := ./...

.PHONY: all build dist test test-steps test-deps suites suites-lane suites-after-go late-checks check-tools suite-binaries checks vet platforms staticcheck actionlint gotest bench fuzz clean

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
# clients' tests add their test targets to EXTRA_TESTS (or, to run in a
# second lane once the Go tests have ended, to EXTRA_TESTS_BESIDE), and
# what those download (npm packages, Node 22, tmux, Chromium) to TEST_DEPS, and the
# binaries they build to SUITE_BINARIES.
EXTRA_TESTS :=
EXTRA_TESTS_BESIDE :=
TEST_DEPS :=
SUITE_BINARIES :=
-include pi/pi.mk
-include mcpserver/mcp.mk
-include internal/clients/clients.mk
-include release/release.mk
-include internal/hubserver/web.mk

# Every step runs with TMPDIR set to a fresh directory that must be empty
# afterwards: a test that leaves a file behind fails the run.
test:
	build/check-tmp.sh $(MAKE) --no-print-directory test-steps

# Two phases, each running its parts side by side, each part's output
# shown whole once it ends (-Otarget):
#  1. the downloads (TEST_DEPS: npm packages, tmux, Chromium), which wait
#     on the network, beside what needs the CPU: vet, which compiles every
#     package once with -race for go test and staticcheck to reuse; the
#     binaries the JavaScript suites run; the checks' own tools;
#  2. the Go tests beside the JavaScript suites and the checks left: the
#     tests of both mostly wait on the processes they start. The suites
#     go in two lanes: EXTRA_TESTS (Pi's, the MCP SDK's, the release's)
#     one after another from the start, and EXTRA_TESTS_BESIDE (the real
#     clients') once the Go tests have ended. Run all at once, from empty
#     caches, the Go tests' waits on terminals and deadlines ran out; one
#     lane for all took over 15 minutes.
# Phase 2 takes what phase 1 made as made (make -o, and for the suites'
# own make the list in MADE): the binaries are not built again, nor the
# downloads looked at again. MADE is empty unless test-steps sets it.
PHASE1 = $(SUITE_BINARIES) $(TEST_DEPS)
MADE :=
test-steps:
	$(MAKE) --no-print-directory -j4 -Otarget vet suite-binaries check-tools test-deps
	$(MAKE) --no-print-directory -j4 -Otarget $(addprefix -o ,$(PHASE1)) gotest suites-lane suites-after-go late-checks MADE="$(PHASE1)"

# The JavaScript suites, one after another.
suites:
	$(MAKE) --no-print-directory -j1 $(addprefix -o ,$(MADE)) $(EXTRA_TESTS) $(EXTRA_TESTS_BESIDE)

suites-lane:
	$(MAKE) --no-print-directory -j1 $(addprefix -o ,$(MADE)) $(EXTRA_TESTS)

suites-after-go: gotest
	$(MAKE) --no-print-directory -j1 $(addprefix -o ,$(MADE)) $(EXTRA_TESTS_BESIDE)

late-checks:
	$(MAKE) --no-print-directory -j1 staticcheck platforms actionlint

# Builds the programs the checks run, so that they are cached: staticcheck
# and actionlint whole, typecheck's packages (go run links it, half a
# second, as go build -o /dev/null keeps no program in the cache).
check-tools:
	$(GO) tool -n staticcheck >/dev/null
	$(GO) run $(ACTIONLINT) -version >/dev/null
	$(GO) build -o /dev/null ./build/typecheck

test-deps: $(TEST_DEPS)

suite-binaries: $(SUITE_BINARIES)

checks: vet platforms staticcheck actionlint

# Pi turns on Node's compile cache, which would write to TMPDIR.
export NODE_DISABLE_COMPILE_CACHE := 1

# With -race, as go test builds: vet then compiles each package once for
# both, and staticcheck reads what it compiled.
vet:
	$(GO) vet -race $(PKGS)

# The release's platforms other than linux/amd64, kept compiling: every
# package is type-checked from source for each (see build/typecheck),
# which takes seconds where compiling them for each, as `make dist` does,
# takes minutes from a cold cache.
PLATFORMS := linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64
platforms:
	$(GO) run ./build/typecheck -platforms $(PLATFORMS)

# The tool is built as usual; the packages it loads are compiled with
# -race (GOFLAGS reaches its go list), as vet and go test compile them.
staticcheck:
	GOFLAGS="$(GOFLAGS) -race" "$$($(GO) tool -n staticcheck)" $(PKGS)

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
