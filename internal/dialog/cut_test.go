package dialog

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cut agrees with ansi.Truncate and ansi.StringWidth, on every width, for
// text of every kind the dialog shows: ASCII, CJK, emoji sequences,
// combining marks and the stand-ins of safetext.
func TestMeasuredCut(t *testing.T) {
	pieces := []string{"a", "Z", " ", ".", "日", "本", "é", "e\u0301", "👍", "👍🏽", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "❤\ufe0f", "␛", "<U+200B>", "…", "한", "ก\u0e31", "🇫🇷", "\u0301"}
	texts := []string{"", "Review", "1. Which cache layout?", "3. 日本語のタイトルです", "2. 👨\u200d👩\u200d👧 family"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(20) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		m := measure(s)
		if m.w != ansi.StringWidth(s) {
			t.Fatalf("measure(%q).w = %d, ansi.StringWidth = %d", s, m.w, ansi.StringWidth(s))
		}
		for width := 0; width <= m.w+1; width++ {
			got, gw := m.cut(width, ellipsis, 1)
			want := ansi.Truncate(s, width, ellipsis)
			if cw := m.cutWidth(width, ellipsis, 1); cw != gw {
				t.Fatalf("cutWidth(%q, %d) = %d, cut's width %d", s, width, cw, gw)
			}
			if got != want || gw != ansi.StringWidth(want) {
				t.Fatalf("cut(%q, %d) = %q (%d cells), ansi.Truncate = %q (%d cells)", s, width, got, gw, want, ansi.StringWidth(want))
			}
		}
	}
}

// TestFit checks fit and textWidth against ansi.Truncate and
// ansi.StringWidth, on ASCII and on what is not.
func TestFit(t *testing.T) {
	for _, s := range []string{"", "ask_user", "No timeout", "type another answer or a note", "⏱ 1:23", "日本語", "a\x1b[31mb", "tab\there", "\x7f", "e\u0301"} {
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, want %d", s, got, want)
		}
		for width := 0; width <= 12; width++ {
			for _, tail := range []string{"", "…"} {
				got, gotW := fit(s, width, tail)
				want := ansi.Truncate(s, width, tail)
				if got != want || gotW != ansi.StringWidth(want) {
					t.Errorf("fit(%q, %d, %q) = %q, %d; want %q, %d", s, width, tail, got, gotW, want, ansi.StringWidth(want))
				}
			}
		}
	}
}
