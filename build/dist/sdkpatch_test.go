package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPatchSDKSource(t *testing.T) {
	tests := []struct {
		name, src, want, wantErr string
	}{
		{"the line once", "package oauthex\n\n" + sdkEager + "\n", "package oauthex\n\n" + sdkLazy + "\n", ""},
		{"no line", "package oauthex\n", "", "0 times"},
		{"the line twice", sdkEager + "\n" + sdkEager + "\n", "", "2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patchSDKSource([]byte(tt.src))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// The patched copy of the SDK the module requires builds, and the
// release's go.mod replaces the SDK with it.
func TestReleaseModfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the MCP SDK's oauthex package; not in -short")
	}
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(wd, "..", ".."))
	modfile, err := releaseModfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(modfile)
	if err != nil {
		t.Fatal(err)
	}
	if want := "replace " + sdkModule + " => " + filepath.Join(dir, "go-sdk"); !strings.Contains(string(mod), want) {
		t.Errorf("release.mod has no %q:\n%s", want, mod)
	}
	cmd := exec.Command("go", "build", "-modfile", modfile, "-o", os.DevNull, sdkModule+"/oauthex")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the patched oauthex does not build: %v\n%s", err, out)
	}
}
