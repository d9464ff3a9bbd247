// Command dist builds askuser's release: stripped, static binaries of
// askuser and askuser-hub for each platform, an archive of both for each
// with a SHA256SUMS file, and the npm packages (one per program and
// platform, the two launchers and the Pi package), packed and ready to
// publish. It is a Go program rather than a GoReleaser
// config because the npm layout it writes (platform packages with os and
// cpu fields, optional dependencies at one exact version) is most of the
// work, and a short program here needs no tool that CI would have to
// install.
//
// Usage:
//
//	go run ./build/dist [-out dist] [-platforms linux-x64,...] [-npm=true]
//	go run ./build/dist -verify dist
//
// The release number comes from internal/program/VERSION; the commit from
// git, stamped into each binary with the linker.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A platform is one release target, named as Node names it.
type platform struct {
	Node         string // linux-x64: process.platform-process.arch, as npm's os and cpu fields take them
	GOOS, GOARCH string
}

var platforms = []platform{
	{"linux-x64", "linux", "amd64"},
	{"linux-arm64", "linux", "arm64"},
	{"darwin-x64", "darwin", "amd64"},
	{"darwin-arm64", "darwin", "arm64"},
	{"win32-x64", "windows", "amd64"},
	{"win32-arm64", "windows", "arm64"},
}

func (p platform) os() string  { return strings.Split(p.Node, "-")[0] }
func (p platform) cpu() string { return strings.Split(p.Node, "-")[1] }

// A program is one of the binaries the release ships. Both are in every
// archive; on npm each has a package per platform and a launcher of its
// own, so that installing askuser, which every agent runs, never fetches
// the hub and the server it embeds.
type program struct {
	Name string // the command, and its npm packages' names in the scope
	Main string // the Go package to build
	// MaxPacked is the most bytes one of its platform packages may take,
	// packed for npm.
	MaxPacked int64
	// Installers says which packages install the platform package, for
	// its README.
	Installers string
}

// The programs: askuser, whose packed platform packages take 4.6 to 5.2
// MB (5,017,278 bytes for linux-x64, 5,143,362 for win32-x64, the
// largest), and the hub's, 6.9 to 8.0 MB (7,650,900 and 7,905,681): 6 MB
// and 9 MB leave room.
var (
	askuser = program{
		Name: "askuser", Main: "./cmd/askuser", MaxPacked: 6_000_000,
		Installers: "[" + launcherName + "](https://www.npmjs.com/package/" + launcherName + ") or the Pi package " + piPackageName,
	}
	askuserHub = program{
		Name: "askuser-hub", Main: "./cmd/askuser-hub", MaxPacked: 9_000_000,
		Installers: "[" + hubLauncherName + "](https://www.npmjs.com/package/" + hubLauncherName + ")",
	}
	programs = []program{askuser, askuserHub}
)

func (g program) exe(p platform) string {
	if p.GOOS == "windows" {
		return g.Name + ".exe"
	}
	return g.Name
}

// platformPackage is the npm package of g's binary for p.
func (g program) platformPackage(p platform) string { return scope + "/" + g.Name + "-" + p.Node }

// Package names, used everywhere: the README, the Pi package and the
// client snippets say the same.
const (
	scope           = "@askuser"
	launcherName    = scope + "/askuser"
	hubLauncherName = scope + "/askuser-hub"
	piPackageName   = scope + "/pi-ask-user"
)

func main() {
	out := flag.String("out", "dist", "the directory to write the release to; it is emptied first")
	only := flag.String("platforms", "", "comma-separated platforms to build (default: all of "+names(platforms)+")")
	npm := flag.Bool("npm", true, "also pack the npm packages")
	verify := flag.String("verify", "", "check the release in this directory instead of building one")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("takes no arguments, got %q", flag.Args()))
	}
	if *verify != "" {
		if err := verifyRelease(*verify); err != nil {
			fail(err)
		}
		return
	}
	targets, err := choose(*only)
	if err != nil {
		fail(err)
	}
	if err := build(*out, targets, *npm); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "dist:", err)
	os.Exit(1)
}

func names(ps []platform) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Node)
	}
	return strings.Join(s, ",")
}

func choose(list string) ([]platform, error) {
	if list == "" {
		return platforms, nil
	}
	var out []platform
	for _, name := range strings.Split(list, ",") {
		i := slices.IndexFunc(platforms, func(p platform) bool { return p.Node == name })
		if i < 0 {
			return nil, fmt.Errorf("-platforms: unknown platform %q; askuser is built for %s", name, names(platforms))
		}
		out = append(out, platforms[i])
	}
	return out, nil
}

// release is what one build stamps.
type release struct {
	Version string
	Commit  string
	Time    time.Time // the commit's time, for reproducible archives
}

func readRelease() (release, error) {
	b, err := os.ReadFile("internal/program/VERSION")
	if err != nil {
		return release{}, fmt.Errorf("run from the root of the askuser module: %w", err)
	}
	r := release{Version: strings.TrimSpace(string(b)), Time: time.Unix(0, 0).UTC()}
	if out, err := exec.Command("git", "log", "-1", "--format=%H %ct").Output(); err == nil {
		var sec int64
		if _, err := fmt.Sscanf(string(out), "%s %d", &r.Commit, &sec); err == nil {
			r.Time = time.Unix(sec, 0).UTC()
		}
		if len(r.Commit) > 12 {
			r.Commit = r.Commit[:12]
		}
		if err := exec.Command("git", "diff", "--quiet", "HEAD").Run(); err != nil {
			r.Commit += "+dirty"
		}
	}
	return r, nil
}

func build(out string, targets []platform, npm bool) error {
	rel, err := readRelease()
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	var sums []string
	for _, p := range targets {
		for _, g := range programs {
			start := time.Now()
			bin := filepath.Join(out, "build", p.Node, g.exe(p))
			if err := compile(g, p, rel, bin); err != nil {
				return err
			}
			fi, err := os.Stat(bin)
			if err != nil {
				return err
			}
			fmt.Printf("%-13s %-12s %9d bytes  (%.1fs)\n", p.Node, g.Name, fi.Size(), time.Since(start).Seconds())
		}
		archive, err := writeArchive(out, p, rel)
		if err != nil {
			return err
		}
		sum, err := sha256File(archive)
		if err != nil {
			return err
		}
		sums = append(sums, sum+"  "+filepath.Base(archive))
		fi, err := os.Stat(archive)
		if err != nil {
			return err
		}
		fmt.Printf("%-13s %-12s %9d bytes  %s\n", p.Node, "archive", fi.Size(), filepath.Base(archive))
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if !npm {
		return nil
	}
	module := filepath.Join(out, "build", "wasm", filepath.Base(dialogModuleFile))
	if err := compileModule(module); err != nil {
		return err
	}
	return packAll(out, targets, rel, module)
}

// compileModule builds the Pi package's dialog module: the dialog
// compiled to WebAssembly for WASI (GOOS=wasip1), as a library whose
// exports the package calls (-buildmode=c-shared).
func compileModule(out string) error {
	start := time.Now()
	cmd := exec.Command("go", "build", "-trimpath", "-buildmode=c-shared", "-ldflags", "-s -w", "-o", out, "./cmd/askuser-dialog-wasm")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=wasip1", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build the dialog module: %w", err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Printf("%-13s %-12s %9d bytes  (%.1fs)\n", "wasip1-wasm", "dialog", fi.Size(), time.Since(start).Seconds())
	return nil
}

// compile builds g for p from the module as go.mod and go.sum give it,
// as go install and the tests build it, stripped and static. Go inlines
// as it always does: askuser with its cold packages built without
// inlining (-gcflags=PKG=-l) was 606,208 bytes (4.7%) smaller for
// linux-x64 and no faster to start or to answer MCP's initialize, in CPU
// time or on the clock, so the release takes the build that was tested.
func compile(g program, p platform, rel release, bin string) error {
	ldflags := "-s -w"
	if rel.Commit != "" {
		ldflags += " -X github.com/askuser/askuser/internal/program.commit=" + rel.Commit
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, g.Main)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s for %s: %w", g.Name, p.Node, err)
	}
	return nil
}

// writeArchive writes askuser_<version>_<goos>_<goarch>.tar.gz (a .zip for
// Windows) holding the binaries built for p under out and the README.
func writeArchive(out string, p platform, rel release) (string, error) {
	base := fmt.Sprintf("askuser_%s_%s_%s", rel.Version, p.GOOS, p.GOARCH)
	type file struct {
		src, name string
		mode      fs.FileMode
	}
	var files []file
	for _, g := range programs {
		files = append(files, file{filepath.Join(out, "build", p.Node, g.exe(p)), g.exe(p), 0o755})
	}
	files = append(files, file{"README.md", "README.md", 0o644})
	if p.GOOS == "windows" {
		name := filepath.Join(out, base+".zip")
		f, err := os.Create(name)
		if err != nil {
			return "", err
		}
		zw := zip.NewWriter(f)
		for _, file := range files {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: base + "/" + file.name, Method: zip.Deflate, Modified: rel.Time})
			if err != nil {
				return "", err
			}
			if err := copyFile(w, file.src); err != nil {
				return "", err
			}
		}
		if err := errors.Join(zw.Close(), f.Close()); err != nil {
			return "", err
		}
		return name, nil
	}
	name := filepath.Join(out, base+".tar.gz")
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, file := range files {
		fi, err := os.Stat(file.src)
		if err != nil {
			return "", err
		}
		hdr := &tar.Header{Name: base + "/" + file.name, Mode: int64(file.mode), Size: fi.Size(), ModTime: rel.Time, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", err
		}
		if err := copyFile(tw, file.src); err != nil {
			return "", err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close(), f.Close()); err != nil {
		return "", err
	}
	return name, nil
}

func copyFile(w io.Writer, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func sha256File(name string) (string, error) {
	h := sha256.New()
	if err := copyFile(h, name); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeJSON writes v as package.json does: two-space indents and a final
// newline.
func writeJSON(name string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}
