package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A directory of a process that has ended is swept; those of running
// processes, this one's included, and other names are kept.
func TestSweep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("directories are not swept on Windows: there is no signal 0 to ask whether a process runs")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{ // name: kept
		prefix + strconv.Itoa(ended.Process.Pid):   false,
		prefix + strconv.Itoa(os.Getpid()):         true,
		prefix + strconv.Itoa(os.Getppid()):        true,
		prefix + "x":                               true,
		"other-" + strconv.Itoa(ended.Process.Pid): true,
	}
	for name := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, name, "0"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweep()
	for name, kept := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if got := err == nil; got != kept {
			t.Errorf("%s: kept %v, want %v", name, got, kept)
		}
	}
}

// A package that does not build is an error naming it, and nothing is
// remembered for it.
func TestBuildFails(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the go command is not on PATH (%v)", err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	defer RemoveBuilds()
	_, err := Build("./no-such-package")
	if err == nil || !strings.Contains(err.Error(), "go build ./no-such-package") {
		t.Fatalf("err = %v, want a go build error naming the package", err)
	}
	if len(built) != 0 {
		t.Errorf("built = %v after a failed build", built)
	}
}
