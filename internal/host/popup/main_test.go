package popup

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests with a temporary directory of their own, and
// fails the run when anything is left in it: every popup must remove its
// socket directory however it ends.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "popup-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	left, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	for _, e := range left {
		fmt.Fprintf(os.Stderr, "left behind in the temporary directory: %s\n", e.Name())
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
