// Command typecheck type-checks askuser's packages, with everything they
// import, from source for other platforms than this one: the release's
// platforms are kept compiling by `make test` without compiling them.
// A cross-compile, or a cross `go vet`, compiles the standard library and
// every dependency for each platform first (about three CPU minutes each
// from a cold cache); type-checking the same source takes seconds, and
// finds what breaks a build on another system: a name that a file for
// this system defines and one for that system does not, a field or a
// function that differs between them. Code generation and linking are
// left out; the release build does them for all six platforms.
//
// Test files are left out: the tests run on Linux alone, and several use
// Unix system calls.
//
// Usage:
//
//	go run ./build/typecheck [-platforms darwin/arm64,windows/amd64] [packages]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	list := flag.String("platforms", "darwin/arm64,windows/amd64", "comma-separated GOOS/GOARCH pairs to type-check for")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	failed := false
	for _, p := range strings.Split(*list, ",") {
		goos, goarch, ok := strings.Cut(p, "/")
		if !ok || goos == "" || goarch == "" {
			fmt.Fprintf(os.Stderr, "typecheck: -platforms: %q is not GOOS/GOARCH\n", p)
			os.Exit(2)
		}
		errs, err := check(goos, goarch, patterns)
		if err != nil {
			fmt.Fprintf(os.Stderr, "typecheck: %s: %v\n", p, err)
			os.Exit(1)
		}
		for _, e := range errs {
			fmt.Fprintf(os.Stderr, "%s: %s\n", p, e)
		}
		failed = failed || len(errs) > 0
	}
	if failed {
		os.Exit(1)
	}
}

// check loads patterns and all they import, parsed and type-checked from
// source for goos/goarch, and returns every error found, in the order of
// the packages.
func check(goos, goarch string, patterns []string) ([]string, error) {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Env:  append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %q", patterns)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	return errs, nil
}
