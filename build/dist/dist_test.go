package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestChoose(t *testing.T) {
	tests := []struct {
		list    string
		want    []string
		wantErr string
	}{
		{"", []string{"linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"}, ""},
		{"darwin-arm64,linux-x64", []string{"darwin-arm64", "linux-x64"}, ""},
		{"linux-amd64", nil, `unknown platform "linux-amd64"`},
		{"linux-x64,", nil, `unknown platform ""`},
	}
	for _, tt := range tests {
		got, err := choose(tt.list)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("choose(%q) = %v, want an error with %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		if err != nil || names(got) != strings.Join(tt.want, ",") {
			t.Errorf("choose(%q) = %s, %v; want %v", tt.list, names(got), err, tt.want)
		}
	}
}

// A package.json read and written again keeps its keys in order and its
// text as written.
func TestObjectRoundTrip(t *testing.T) {
	in := `{"name":"x","version":"1.0.0","engines":{"node":">=22"},"files":["a","b"],"bin":{"z":"1","a":"2"}}`
	var o object
	if err := json.Unmarshal([]byte(in), &o); err != nil {
		t.Fatal(err)
	}
	out, err := marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("round trip:\n got %s\nwant %s", out, in)
	}
	if got := string(o.without("engines", "bin").get("files")); got != `["a","b"]` {
		t.Errorf("without, get: %s", got)
	}
	if err := json.Unmarshal([]byte(`[1]`), &o); err == nil {
		t.Error("an array was taken for an object")
	}
}

func TestExecutableFor(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goos, goarch, err := executableFor(self)
	if err != nil || goos != runtime.GOOS || goarch != runtime.GOARCH {
		t.Errorf("executableFor(test binary) = %s/%s, %v; want %s/%s", goos, goarch, err, runtime.GOOS, runtime.GOARCH)
	}
	text := filepath.Join(t.TempDir(), "askuser")
	os.WriteFile(text, []byte("#!/bin/sh\necho hi\n"), 0o755)
	if _, _, err := executableFor(text); err == nil || !strings.Contains(err.Error(), "neither ELF, PE nor Mach-O") {
		t.Errorf("executableFor(script) = %v", err)
	}
}

// A platform package, of either program, that holds another platform's
// binary, or says the wrong os and cpu, is refused with a message naming
// both.
func TestVerifyRefusesWrongBinary(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binary, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	var other platform
	for _, p := range platforms {
		if p.GOOS == runtime.GOOS && p.GOARCH != runtime.GOARCH {
			other = p
		}
	}
	if other.Node == "" {
		t.Skipf("askuser is not released for %s/%s, so there is no sibling platform to confuse it with", runtime.GOOS, runtime.GOARCH)
	}
	stage := func(t *testing.T, g program, p platform, os_, cpu string) string {
		dir := t.TempDir()
		pkg := filepath.Join(dir, "npm", g.Name+"-"+p.Node)
		if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "bin", g.exe(p)), binary, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(filepath.Join(pkg, "package.json"), object{
			{"name", g.platformPackage(p)}, {"version", "0.1.0"}, {"os", []string{os_}}, {"cpu", []string{cpu}},
		}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, g := range programs {
		err = verifyRelease(stage(t, g, other, other.os(), other.cpu()))
		if want := filepath.Join(g.Name+"-"+other.Node, "bin", g.exe(other)) + " is an executable for " + runtime.GOOS + "/" + runtime.GOARCH + ", the package is for " + other.GOOS + "/" + other.GOARCH; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("verify %s, wrong binary: %v; want %q", g.Name, err, want)
		}
		err = verifyRelease(stage(t, g, other, "darwin", other.cpu()))
		if err == nil || !strings.Contains(err.Error(), `package.json says os ["darwin"]`) {
			t.Errorf("verify %s, wrong os: %v", g.Name, err)
		}
	}
	if err := verifyRelease(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no platform package") {
		t.Errorf("verify, empty: %v", err)
	}
}

// A platform package packed over its program's size, or askuser's
// linux-x64 binary over its, is refused with both figures; one that is
// not packed is refused too.
func TestVerifySizes(t *testing.T) {
	linux, darwin := platforms[0], platforms[3]
	tests := []struct {
		name        string
		g           program
		p           platform
		packed, bin int64 // -1: no such file
		want        string
	}{
		{"within", askuser, linux, askuser.MaxPacked, maxLinuxBinary, ""},
		{"packed over", askuser, linux, askuser.MaxPacked + 1, 1, "is 6000001 bytes, over the 6000000 a platform package of askuser may take"},
		{"binary over", askuser, linux, 1, maxLinuxBinary + 1, "is 16777217 bytes, over the 16777216 the linux-x64 binary may take"},
		{"another platform's binary is not held to linux-x64's size", askuser, darwin, 1, maxLinuxBinary + 1, ""},
		{"not packed", askuser, darwin, -1, 1, "askuser-askuser-darwin-arm64-0.1.0.tgz: no such file"},
		{"the hub's package within its size", askuserHub, linux, askuserHub.MaxPacked, 20 << 20, ""},
		{"the hub's package over its size", askuserHub, linux, askuserHub.MaxPacked + 1, 1, fmt.Sprintf("is %d bytes, over the %d a platform package of askuser-hub may take", askuserHub.MaxPacked+1, askuserHub.MaxPacked)},
		{"the hub's package not packed", askuserHub, darwin, -1, 1, "askuser-askuser-hub-darwin-arm64-0.1.0.tgz: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pkgDir := filepath.Join(dir, "npm", tt.g.Name+"-"+tt.p.Node)
			if err := os.MkdirAll(filepath.Join(pkgDir, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := writeJSON(filepath.Join(pkgDir, "package.json"), object{{"name", tt.g.platformPackage(tt.p)}, {"version", "0.1.0"}}); err != nil {
				t.Fatal(err)
			}
			sized := func(name string, size int64) {
				if size < 0 {
					return
				}
				if err := os.WriteFile(name, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(name, size); err != nil {
					t.Fatal(err)
				}
			}
			sized(filepath.Join(dir, "askuser-"+tt.g.Name+"-"+tt.p.Node+"-0.1.0.tgz"), tt.packed)
			sized(filepath.Join(pkgDir, "bin", tt.g.exe(tt.p)), tt.bin)
			err := verifySizes(dir, pkgDir, tt.g, tt.p)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("verifySizes: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("verifySizes: %v; want an error with %q", err, tt.want)
			}
		})
	}
}

// Each launcher package is staged with the one launcher source as its
// bin, and names only its own program's platform packages; the Pi
// package names askuser's.
func TestStageLaunchers(t *testing.T) {
	t.Chdir("../..")
	launcher, err := os.ReadFile(launcherSource)
	if err != nil {
		t.Fatal(err)
	}
	version, err := os.ReadFile("internal/program/VERSION")
	if err != nil {
		t.Fatal(err)
	}
	rel := release{Version: strings.TrimSpace(string(version))}
	tests := []struct {
		src      string
		g        program
		wantBin  string // "": no launcher
		wantName string
	}{
		{"npm/askuser", askuser, "bin/askuser.js", launcherName},
		{"npm/askuser-hub", askuserHub, "bin/askuser-hub.js", hubLauncherName},
		{"pi", askuser, "", piPackageName},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			dir, err := stageCopy(t.TempDir(), tt.src, rel, tt.g)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "package.json"))
			if err != nil {
				t.Fatal(err)
			}
			var pkg struct {
				Name                 string
				Bin                  map[string]string
				OptionalDependencies map[string]string
			}
			if err := json.Unmarshal(b, &pkg); err != nil {
				t.Fatal(err)
			}
			if pkg.Name != tt.wantName {
				t.Errorf("name %q, want %q", pkg.Name, tt.wantName)
			}
			if len(pkg.OptionalDependencies) != len(platforms) {
				t.Errorf("optional dependencies %v, want one for each of %d platforms", pkg.OptionalDependencies, len(platforms))
			}
			for _, p := range platforms {
				if v := pkg.OptionalDependencies[tt.g.platformPackage(p)]; v != rel.Version {
					t.Errorf("optional dependency %s at %q, want %s", tt.g.platformPackage(p), v, rel.Version)
				}
			}
			if tt.wantBin == "" {
				return
			}
			if pkg.Bin[tt.g.Name] != tt.wantBin {
				t.Errorf("bin %v, want %s: %s", pkg.Bin, tt.g.Name, tt.wantBin)
			}
			got, err := os.ReadFile(filepath.Join(dir, tt.wantBin))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(launcher) {
				t.Errorf("%s is not %s", tt.wantBin, launcherSource)
			}
		})
	}
}

// TestStageDialogModule checks that the staged Pi package holds the
// dialog module where the package looks for it, and lists it in files.
func TestStageDialogModule(t *testing.T) {
	t.Chdir("../..")
	version, err := os.ReadFile("internal/program/VERSION")
	if err != nil {
		t.Fatal(err)
	}
	rel := release{Version: strings.TrimSpace(string(version))}
	tmp := t.TempDir()
	module := filepath.Join(tmp, "askuser-dialog.wasm")
	if err := os.WriteFile(module, []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := stageCopy(filepath.Join(tmp, "stage"), "pi", rel, askuser)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // staging twice lists the file once
		if err := stageFile(dir, dialogModuleFile, module); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Files []string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if n := slices.Index(pkg.Files, dialogModuleFile); n < 0 || slices.Index(pkg.Files[n+1:], dialogModuleFile) >= 0 {
		t.Errorf("files %v, want %s once", pkg.Files, dialogModuleFile)
	}
	got, err := os.ReadFile(filepath.Join(dir, dialogModuleFile))
	if err != nil || string(got) != "\x00asm\x01\x00\x00\x00" {
		t.Errorf("the staged module: %q, %v", got, err)
	}
}
