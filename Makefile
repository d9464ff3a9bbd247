# askuser build and test entry points. `make test` is what CI runs.
GO ?= go
PKGS := ./...

.PHONY: all build test vet staticcheck gotest bench fuzz clean

all: build

build:
	$(GO) build -o bin/askuser ./cmd/askuser

# Fragments owned by the Pi package and the MCP server add their test
# targets to EXTRA_TESTS.
EXTRA_TESTS :=
-include pi/pi.mk
-include mcpserver/mcp.mk

test: vet staticcheck gotest $(EXTRA_TESTS)

vet:
	$(GO) vet $(PKGS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)

gotest:
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem $(PKGS)

clean:
	rm -rf bin
