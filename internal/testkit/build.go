package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// prefix starts the name of every directory this package makes.
const prefix = "askuser-bin-"

var (
	mu    sync.Mutex
	built = map[string]string{} // package path to binary
)

// BinDir is this process's directory for built binaries.
func BinDir() string {
	return filepath.Join(os.TempDir(), prefix+strconv.Itoa(os.Getpid()))
}

// Build builds the command at pkg (a package path, such as
// "github.com/askuser/askuser/cmd/askuser") once per process, and returns
// the binary's path. Every binary goes into BinDir, named for the last
// element of its package path, so that askuser finds askuser-hub beside
// itself as it does when installed. It returns an error saying why when
// there is no go command or the build fails.
func Build(pkg string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if bin, ok := built[pkg]; ok {
		return bin, nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "", fmt.Errorf("the go command is not on PATH (%v): the test builds %s with it", err, pkg)
	}
	if len(built) == 0 {
		sweep()
	}
	if err := os.MkdirAll(BinDir(), 0o700); err != nil {
		return "", err
	}
	bin := filepath.Join(BinDir(), path.Base(pkg))
	for other, b := range built {
		if b == bin {
			return "", fmt.Errorf("testkit: %s and %s would both be built as %s", other, pkg, bin)
		}
	}
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	built[pkg] = bin
	return bin, nil
}

// RemoveBuilds removes this process's directory and everything built in
// it. TestMain calls it once every test is done.
func RemoveBuilds() {
	mu.Lock()
	defer mu.Unlock()
	os.RemoveAll(BinDir())
	clear(built)
}

// sweep removes the directories of test processes that have ended.
func sweep() {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(pid)
		if err != nil || n <= 0 || n == os.Getpid() || Running(n) {
			continue
		}
		os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
	}
}
