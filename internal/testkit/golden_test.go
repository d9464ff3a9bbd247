package testkit

import (
	"fmt"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps what a helper reports instead of
// failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.FailNow()
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "TestX", "case.golden")
	Golden(t, path, "screen\n", true)
	for _, tc := range []struct {
		name, got string
		fails     bool
	}{
		{"same", "screen\n", false},
		{"different", "other\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Golden(r, path, tc.got, false)
			if got := len(r.errors) > 0; got != tc.fails {
				t.Errorf("Golden of %q reported %q; want a failure: %v", tc.got, r.errors, tc.fails)
			}
		})
	}
}
