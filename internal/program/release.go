// Package program is what askuser's two executables know of themselves
// and of each other: which askuser they are (the release they belong to,
// the source revision they were built from, and the platform they run
// on), how they end on a signal (Main), whether another process, found by
// the id a file left behind, has ended (ProcessGone), and how askuser
// finds the askuser-hub program and starts it (EnsureHub, hub.go).
//
// askuser starts the hub an agent's config asks for: when the config
// names a remote hub and no hub runs for the user, askuser starts one in
// the background, relaying with that remote, which stops by itself once
// idle. askuser itself never dials a remote NATS server: the hub's
// program has the TLS and the credentials for it, so that the askuser
// every agent runs stays small.
//
// The release number has one source, the file VERSION beside this
// package. The npm packages, the Pi package and the bridge handshake all
// take it from there, so a binary and a package of one release always
// agree. A release build stamps the commit with the linker
// (-X github.com/askuser/askuser/internal/program.commit=...); a build
// from a checkout or by go install reads it from the build info.
//
// Others name the package from outside Go, so it stays at this path: the
// release workflow checks the tag against internal/program/VERSION,
// build/dist reads that file and checks the npm and Pi packages against
// it, the Pi package's and the installer's tests read it, and the linker
// stamps the commit by this package's import path.
package program

import (
	_ "embed"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

//go:embed VERSION
var release string

// Set by the linker in release builds.
var commit string

// Release is the release number of this source, such as "0.1.0". It is
// the same for a release build, a go install build and a build from a
// checkout, since all three come from the same VERSION file.
func Release() string {
	return strings.TrimSpace(release)
}

// Info describes one build of askuser.
type Info struct {
	// Version is the release number, followed by "-devel" for a build
	// that no release stamped and no module version names.
	Version string
	// Commit is the source revision, with "+dirty" for modified sources,
	// or "" when the build does not know it.
	Commit string
	// Platform is GOOS/GOARCH.
	Platform string
}

// String is the line askuser version prints.
func (i Info) String() string {
	s := "askuser " + i.Version
	if i.Commit != "" {
		s += " (commit " + i.Commit + ")"
	}
	return s + " " + i.Platform
}

// Line is the line the version command of program, another of askuser's
// programs such as askuser-hub, prints: what String prints, with
// program's name for askuser's.
func (i Info) Line(program string) string {
	return program + strings.TrimPrefix(i.String(), "askuser")
}

// Get returns the Info of the running binary.
func Get() Info {
	info, _ := debug.ReadBuildInfo()
	return get(info, commit)
}

func get(info *debug.BuildInfo, stamped string) Info {
	i := Info{Version: Release() + "-devel", Commit: stamped, Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if stamped != "" {
		i.Version = Release()
		return i
	}
	if info == nil {
		return i
	}
	// go install module@vX.Y.Z stamps the module version; a checkout
	// build stamps "(devel)" or, since Go 1.24, a pseudo-version made from
	// the revision, which names no release.
	if v := strings.TrimPrefix(info.Main.Version, "v"); v == Release() {
		i.Version = v
	}
	var dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			i.Commit = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(i.Commit) > 12 {
		i.Commit = i.Commit[:12]
	}
	if i.Commit != "" {
		i.Commit += dirty
	}
	return i
}

// Check reports whether a peer of release peer, such as the Pi package,
// may work with this binary. They must be of the same release.
func Check(peer string) error {
	if peer != Release() {
		return fmt.Errorf("release mismatch: this askuser binary is %s, the package that started it is %s", Release(), peer)
	}
	return nil
}
