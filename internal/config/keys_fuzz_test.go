package config_test

import (
	"errors"
	"testing"

	. "github.com/askuser/askuser/internal/config"

	"github.com/askuser/askuser/internal/testkit"
)

// FuzzParseKey checks that ParseKey never panics, that a canonical chord is a
// fixed point, and that CheckToggle agrees with Parse.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"alt+o", "Alt+O", "ctrl++", "+", "shift+ctrl+pageUp", "escape", "alt+banana", "alt+", "++", "alt+alt+o", "super+hyper+meta+shift+alt+ctrl+f12", "ctrl+[", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		testkit.FuzzBound(t, s, func() {
			c, err := ParseKey(s)
			if err != nil {
				if c != "" {
					t.Fatalf("ParseKey(%q) = %q with error %v", s, c, err)
				}
				if _, terr := CheckToggle(s); terr == nil {
					t.Fatalf("CheckToggle(%q) accepted what Parse refused: %v", s, err)
				}
				return
			}
			again, err := ParseKey(c)
			if err != nil || again != c {
				t.Fatalf("ParseKey(%q) = %q, but ParseKey(%q) = %q, %v", s, c, c, again, err)
			}
			toggle, err := CheckToggle(s)
			switch {
			case err == nil && toggle != c:
				t.Fatalf("CheckToggle(%q) = %q, Parse gives %q", s, toggle, c)
			case err != nil && !errors.Is(err, ErrReserved) && !errors.Is(err, ErrPrintable) && !errors.Is(err, ErrConflicting):
				t.Fatalf("CheckToggle(%q) failed for an unexpected reason: %v", s, err)
			}
		})
	})
}
