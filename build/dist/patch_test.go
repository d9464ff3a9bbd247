package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditApply(t *testing.T) {
	e := edit{File: "a/b.go", Old: "var x = eager()", New: "var x = lazy{}"}
	tests := []struct {
		name, src, want, wantErr string
	}{
		{"the text once", "package b\n\nvar x = eager()\n", "package b\n\nvar x = lazy{}\n", ""},
		{"no text", "package b\n", "", "0 times"},
		{"the text twice", "var x = eager()\nvar x = eager()\n", "", "2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.apply("example.com/m", []byte(tt.src))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "example.com/m/a/b.go") {
					t.Fatalf("err = %v, want one that names example.com/m/a/b.go and says %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// Every edit applies to the module versions go.mod requires, the patched
// packages build, and the release's go.mod replaces each module with its
// patched copy.
func TestReleaseModfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the patched packages; not in -short")
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
	pkgs := []string{"-modfile", modfile}
	for _, p := range patches {
		if want := "replace " + p.Module + " => " + filepath.Join(dir, filepath.Base(p.Module)); !strings.Contains(string(mod), want) {
			t.Errorf("release.mod has no %q:\n%s", want, mod)
		}
		seen := map[string]bool{}
		files := p.Remove
		for _, e := range p.Edits {
			files = append(files, e.File)
		}
		for _, f := range files {
			if pkg := p.Module + "/" + filepath.ToSlash(filepath.Dir(f)); !seen[pkg] {
				seen[pkg] = true
				pkgs = append(pkgs, strings.TrimSuffix(pkg, "/."))
			}
		}
	}
	cmd := exec.Command("go", append([]string{"build", "-o", os.DevNull}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the patched packages %v do not build: %v\n%s", pkgs[2:], err, out)
	}
}
