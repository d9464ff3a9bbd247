package safetext_test

import (
	"testing"

	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/testkit"
)

// FuzzLine checks that Line and Text leave no control, invalid UTF-8 or
// misplaced invisible character, that Line is idempotent and agrees with
// LineAt, and that plain text passes through unchanged.
func FuzzLine(f *testing.F) {
	for _, s := range safetext.FuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		testkit.FuzzBound(t, s, func() { safetext.FuzzLineCheck(t, s) })
	})
}
