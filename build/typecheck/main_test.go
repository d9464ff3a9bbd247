package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A module whose main package calls a function that only its Linux file
// defines type-checks for Linux and fails for the others, naming the call.
func TestCheckFindsWhatAnotherPlatformLacks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.26\n",
		"main.go":       "package main\n\nfunc main() { onLinux() }\n",
		"linux.go":      "//go:build linux\n\npackage main\n\nfunc onLinux() {}\n",
		"other_test.go": "package main\n\nvar _ = undefinedInTests\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	tests := []struct {
		goos, goarch string
		want         []string
	}{
		{"linux", "arm64", nil},
		{"darwin", "arm64", []string{"main.go:3:15: undefined: onLinux"}},
		{"windows", "amd64", []string{"main.go:3:15: undefined: onLinux"}},
	}
	for _, tt := range tests {
		errs, err := check(tt.goos, tt.goarch, []string{"./..."})
		if err != nil {
			t.Fatalf("check(%s/%s): %v", tt.goos, tt.goarch, err)
		}
		var got []string
		for _, e := range errs {
			got = append(got, strings.TrimPrefix(e, dir+string(filepath.Separator)))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("check(%s/%s) errors (-want +got):\n%s", tt.goos, tt.goarch, diff)
		}
	}
	if errs, err := check("linux", "amd64", []string{"./nothing/..."}); err == nil && len(errs) == 0 {
		t.Errorf("check of a pattern that matches nothing: no error, and %q", errs)
	}
}
