package testkit_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
)

// Writers and a reader at once: every write is kept whole (run with
// -race for the data race the buffer prevents).
func TestConcurrent(t *testing.T) {
	var b testkit.Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				fmt.Fprintf(&b, "%d\n", i)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines, want 800", len(lines))
	}
	for _, l := range lines {
		if len(l) != 1 {
			t.Fatalf("a torn write: %q", l)
		}
	}
}
