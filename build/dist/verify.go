package main

import (
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// maxLinuxBinary is the most bytes the stripped linux-x64 askuser binary,
// the one every agent runs and the README's figures are for, may take:
// 16 MiB. It is built from the modules as go.mod gives them, as go install
// and the tests build it. The sizes of the platform packages are each
// program's MaxPacked.
const maxLinuxBinary = 16 << 20

// verifyRelease checks every platform package staged under dir/npm, of
// askuser and of askuser-hub: the binary it holds is an executable for
// the os and cpu its package.json names, built by Go for the same GOOS
// and GOARCH, stamped with the package's version, and the package,
// packed in dir, and the linux-x64 askuser binary are within their
// sizes. A release that would install the wrong binary on some machine
// is refused here rather than found by its users.
func verifyRelease(dir string) error {
	var errs []error
	seen := 0
	for _, g := range programs {
		for _, p := range platforms {
			pkgDir := filepath.Join(dir, "npm", g.Name+"-"+p.Node)
			if _, err := os.Stat(pkgDir); errors.Is(err, os.ErrNotExist) {
				continue
			}
			seen++
			if err := verifyPlatform(pkgDir, g, p); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", pkgDir, err))
			}
			if err := verifySizes(dir, pkgDir, g, p); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if seen == 0 {
		return fmt.Errorf("%s/npm holds no platform package; build one with go run ./build/dist -out %s", dir, dir)
	}
	return errors.Join(errs...)
}

func verifyPlatform(pkgDir string, g program, p platform) error {
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return err
	}
	var pkg struct {
		Name    string
		Version string
		OS      []string
		CPU     []string
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("package.json: %w", err)
	}
	if pkg.Name != g.platformPackage(p) {
		return fmt.Errorf("package.json names %q, want %q", pkg.Name, g.platformPackage(p))
	}
	if !slices.Equal(pkg.OS, []string{p.os()}) || !slices.Equal(pkg.CPU, []string{p.cpu()}) {
		return fmt.Errorf("package.json says os %q cpu %q, want [%s] [%s]", pkg.OS, pkg.CPU, p.os(), p.cpu())
	}
	bin := filepath.Join(pkgDir, "bin", g.exe(p))
	fi, err := os.Stat(bin)
	if err != nil {
		return err
	}
	if p.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable (mode %v)", bin, fi.Mode().Perm())
	}
	goos, goarch, err := executableFor(bin)
	if err != nil {
		return err
	}
	if goos != p.GOOS || goarch != p.GOARCH {
		return fmt.Errorf("%s is an executable for %s/%s, the package is for %s/%s", bin, goos, goarch, p.GOOS, p.GOARCH)
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("%s: no Go build information: %w", bin, err)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if settings["GOOS"] != p.GOOS || settings["GOARCH"] != p.GOARCH {
		return fmt.Errorf("%s was built for GOOS=%s GOARCH=%s", bin, settings["GOOS"], settings["GOARCH"])
	}
	if settings["CGO_ENABLED"] != "0" {
		return fmt.Errorf("%s was built with CGO_ENABLED=%q; a release binary must be static", bin, settings["CGO_ENABLED"])
	}
	if settings["-trimpath"] != "true" {
		return fmt.Errorf("%s was built without -trimpath, so it holds the builder's paths", bin)
	}
	if p.GOOS == "linux" {
		ef, err := elf.Open(bin)
		if err != nil {
			return err
		}
		symtab := ef.Section(".symtab")
		ef.Close()
		if symtab != nil {
			return fmt.Errorf("%s has a symbol table; a release binary is linked with -s -w", bin)
		}
	}
	if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			return fmt.Errorf("%s version: %w", bin, err)
		}
		if f := strings.Fields(string(out)); len(f) < 2 || f[0] != g.Name || f[1] != pkg.Version {
			return fmt.Errorf("%s version printed %q, the package is version %s", bin, out, pkg.Version)
		}
	}
	return nil
}

// verifySizes checks that g's package for p, packed in dir as npm pack
// names it, and its binary if it is askuser's for linux-x64, are within
// their sizes.
func verifySizes(dir, pkgDir string, g program, p platform) error {
	var pkg struct{ Version string }
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("%s/package.json: %w", pkgDir, err)
	}
	packed := filepath.Join(dir, fmt.Sprintf("askuser-%s-%s-%s.tgz", g.Name, p.Node, pkg.Version))
	fi, err := os.Stat(packed)
	if err != nil {
		return err
	}
	if fi.Size() > g.MaxPacked {
		return fmt.Errorf("%s is %d bytes, over the %d a platform package of %s may take", packed, fi.Size(), g.MaxPacked, g.Name)
	}
	if g.Name != askuser.Name || p.Node != "linux-x64" {
		return nil
	}
	bin := filepath.Join(pkgDir, "bin", g.exe(p))
	if fi, err = os.Stat(bin); err != nil {
		return err
	}
	if fi.Size() > maxLinuxBinary {
		return fmt.Errorf("%s is %d bytes, over the %d the linux-x64 binary may take", bin, fi.Size(), maxLinuxBinary)
	}
	return nil
}

// executableFor reads the header of the executable at name and says which
// GOOS and GOARCH it runs on.
func executableFor(name string) (goos, goarch string, err error) {
	f, err := os.Open(name)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err != nil {
		return "", "", fmt.Errorf("%s: too short to be an executable", name)
	}
	switch {
	case string(magic) == "\x7fELF":
		ef, err := elf.NewFile(f)
		if err != nil {
			return "", "", fmt.Errorf("%s: %w", name, err)
		}
		return "linux", map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[ef.Machine], nil
	case magic[0] == 'M' && magic[1] == 'Z':
		pf, err := pe.NewFile(f)
		if err != nil {
			return "", "", fmt.Errorf("%s: %w", name, err)
		}
		return "windows", map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[pf.Machine], nil
	default:
		mf, err := macho.NewFile(f)
		if err != nil {
			return "", "", fmt.Errorf("%s: neither ELF, PE nor Mach-O", name)
		}
		return "darwin", map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[mf.Cpu], nil
	}
}
