package hubserver

import (
	"strings"
	"testing"
)

// TestBoundPrefixes bounds the parser's work on a hostile preview: no
// line opens with more than maxPrefix bytes of containers once bounded,
// so that the parser keeps at most that many open, and Markdown within
// the bound, or indented alone, is left as it is.
func TestBoundPrefixes(t *testing.T) {
	hostile := []string{
		strings.Repeat("1. ", 5000),
		strings.Repeat("> ", 8000) + "x\n" + strings.Repeat(" ", 300) + "- y",
		strings.Repeat("- ", 100) + strings.Repeat("* ", 100) + "z",
	}
	for _, src := range hostile {
		for l := range strings.Lines(boundPrefixes(src)) {
			if n := prefixLen(l); n > maxPrefix && strings.TrimLeft(l[:n], " \t") != "" {
				t.Errorf("a line opens with %d bytes of containers: %.60q…", n, l)
			}
		}
	}
	for _, src := range []string{"", "# a\n\n- b\n  - c\n    1. d\n\n> e\n> > f\n", "```\n" + strings.Repeat(" ", 4*maxPrefix) + "code\n```\n", "12.5 is a number\n"} {
		if got := boundPrefixes(src); got != src {
			t.Errorf("boundPrefixes(%q) = %q, want it unchanged", src, got)
		}
	}
}
