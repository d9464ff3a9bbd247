package safetext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Deploy to prod?", "Deploy to prod?"},
		{"cjk and emoji", "日本 👍🏽 é", "日本 👍🏽 é"},
		{"csi colour", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"cursor movement", "a\x1b[2J\x1b[H", "a␛[2J␛[H"},
		{"osc 52 clipboard", "\x1b]52;c;ZWNobyBoaQ==\x07", "␛]52;c;ZWNobyBoaQ==␇"},
		{"osc 8 link", "\x1b]8;;https://x.test\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://x.test␛\\click␛]8;;␛\\"},
		{"newline and tab", "a\nb\tc\r", "a␊b␉c␍"},
		{"c1 csi", "a\u009b2Jb", "a<U+009B>2Jb"},
		{"del", "a\x7fb", "a␡b"},
		{"bidi override", "abc\u202edcba", "abc<U+202E>dcba"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"nul", "a\x00b", "a␀b"},
		{"escape after non-ascii", "日\x1b[2J", "日␛[2J"},
		{"newline after non-ascii", "é\nb", "é␊b"},
		{"c0 bel", "a\x07b", "a␇b"},
		{"c1 osc", "a\u009d0;x\u009c", "a<U+009D>0;x<U+009C>"},
		{"osc title", "\x1b]0;PWN\x07", "␛]0;PWN␇"},
		{"zero width space", "pay\u200bpal", "pay<U+200B>pal"},
		{"zwnj in latin", "pay\u200cpal", "pay<U+200C>pal"},
		{"zwj alone", "a\u200db", "a<U+200D>b"},
		{"zwj at end", "👨\u200d", "👨<U+200D>"},
		{"zwj at start", "\u200d👩", "<U+200D>👩"},
		{"zwj doubled", "👨\u200d\u200d👩", "👨<U+200D><U+200D>👩"},
		{"zwj family", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"zwj rainbow flag", "🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"},
		{"zwj skin tone", "👩🏽\u200d💻", "👩🏽\u200d💻"},
		{"zwj after stand-in", "\x1b\u200d👩", "␛<U+200D>👩"},
		{"zwnj persian", "می\u200cخواهم", "می\u200cخواهم"},
		{"zwj sinhala", "ශ්\u200dරී", "ශ්\u200dරී"},
		{"zwj before hidden mark", "ᠠ\u200d\u180b", "ᠠ<U+200D><U+180B>"},
		{"bom", "\ufeffhello", "<U+FEFF>hello"},
		{"word joiner", "a\u2060b", "a<U+2060>b"},
		{"invisible times", "a\u2062b", "a<U+2062>b"},
		{"soft hyphen", "pay\u00adpal", "pay<U+00AD>pal"},
		{"bidi embedding", "a\u202ab", "a<U+202A>b"},
		{"bidi isolate", "a\u2066b\u2069", "a<U+2066>b<U+2069>"},
		{"bidi marks", "a\u200e\u200f\u061c", "a<U+200E><U+200F><U+061C>"},
		{"line separator", "a\u2028b\u2029c", "a<U+2028>b<U+2029>c"},
		{"hangul filler", "\u3164", "<U+3164>"},
		{"tag smuggling", "hi\U000E0069\U000E0067\U000E006E", "hi<U+E0069><U+E0067><U+E006E>"},
		{"tag england flag", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"},
		{"tag flag without cancel", "🏴\U000E0067\U000E0062\U000E0065", "🏴<U+E0067><U+E0062><U+E0065>"},
		{"tag flag too long", "🏴\U000E0061\U000E0061\U000E0061\U000E0061\U000E0061\U000E0061\U000E0061\U000E007F", "🏴<U+E0061><U+E0061><U+E0061><U+E0061><U+E0061><U+E0061><U+E0061><U+E007F>"},
		{"tag flag upper case", "🏴\U000E0047\U000E0042\U000E0045\U000E007F", "🏴<U+E0047><U+E0042><U+E0045><U+E007F>"},
		{"black flag alone", "🏴 go", "🏴 go"},
		{"cjk unchanged", "日本語の質問：どちらにしますか？한국어", "日本語の質問：どちらにしますか？한국어"},
		{"emoji vs16", "❤\ufe0f 👍🏽 1\ufe0f\u20e3 🇯🇵", "❤\ufe0f 👍🏽 1\ufe0f\u20e3 🇯🇵"},
		{"vs text style", "☺\ufe0e", "☺\ufe0e"},
		{"ideographic variation", "葛\U000E0100", "葛\U000E0100"},
		{"vs at start", "\ufe0fa", "<U+FE0F>a"},
		{"vs smuggling", "a\U000E0100\U000E0101\ufe01", "a\U000E0100<U+E0101><U+FE01>"},
		{"vs after stand-in", "\x1b\ufe0f", "␛<U+FE0F>"},
		{"combining marks", "é ñ", "é ñ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Line(tt.in)); diff != "" {
				t.Errorf("Line(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"keeps newlines", "a\nb", "a\nb"},
		{"crlf", "a\r\nb", "a\nb"},
		{"lone cr", "a\rb", "a␍b"},
		{"tab", "\tx", "    x"},
		{"escape", "x\n\x1b[1Ay", "x\n␛[1Ay"},
		{"zwsp", "x\n\u200by", "x\n<U+200B>y"},
		{"vs after newline", "x\n\ufe0fy", "x\n<U+FE0F>y"},
		{"zwj family", "ok\n👨\u200d👩\u200d👧", "ok\n👨\u200d👩\u200d👧"},
		{"line separator", "a\u2028b", "a<U+2028>b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Text(tt.in)); diff != "" {
				t.Errorf("Text(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestHiddenTable checks hiddenTable against the unicode package: the
// default-ignorable code points, the format characters and the line and
// paragraph separators, and that mayHide lets none of them through.
func TestHiddenTable(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Variation_Selector, r) || r == 0x2028 || r == 0x2029 ||
			(r >= 0xe0000 && r <= 0xe0fff)
		if got := hidden(r); got != want {
			t.Errorf("hidden(%U) = %v, want %v", r, got, want)
		}
		if want && !mayHide(r) {
			t.Errorf("mayHide(%U) = false for a hidden rune", r)
		}
	}
}

// TestInvisible checks Invisible against the unicode package over every
// code point: the controls, and what hidden reports.
func TestInvisible(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Variation_Selector, r) || r == 0x2028 || r == 0x2029 ||
			(r >= 0xe0000 && r <= 0xe0fff)
		if got := Invisible(r); got != want {
			t.Errorf("Invisible(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestPlainAgrees checks that the fast path passes exactly what rewrite
// leaves unchanged.
func TestPlainAgrees(t *testing.T) {
	for _, s := range fuzzSeeds {
		checkPlain(t, s)
	}
}

var fuzzSeeds = []string{
	"", "abc", "\x1b[31m", "\x1b]52;c;AA==\x07", "\u009b", "a\nb", "\xff",
	"\x1b]0;PWN\x07", "a\u200bb", "👨\u200d👩\u200d👧", "a\u200db", "\ufeff", "a\u202eb",
	"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "hi\U000E0069",
	"日本語", "❤\ufe0f", "\ufe0f", "a\U000E0100\U000E0101", "می\u200cخواهم", "\x1b\u200d👩",
	"👨\u200d\xff", "\u2028", "\u00ad", "👩🏽\u200d💻", "x\r\n\u200d",
}

func checkPlain(t *testing.T, s string) {
	t.Helper()
	for _, multiline := range []bool{false, true} {
		in := s
		if multiline {
			in = strings.ReplaceAll(s, "\r\n", "\n")
		}
		if out, _ := rewrite(in, multiline, -1); isPlain(s, multiline) && out != s {
			t.Fatalf("isPlain(%q, %v) but rewrite gives %q", s, multiline, out)
		}
	}
}

// fuzzLine is the body of FuzzLine (fuzz_test.go), which runs it under
// the fuzz bound of package strictjson; strictjson imports this package,
// so only an external test may import it.
func fuzzLine(t *testing.T, s string) {
	t.Helper()

	checkPlain(t, s)
	line := Line(s)
	if strings.ContainsRune(line, '\n') {
		t.Fatalf("Line kept a newline: %q", line)
	}
	for _, out := range []string{line, Text(s)} {
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 survived in %q", out)
		}
		rs := []rune(out)
		for i, r := range rs {
			if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("control %U survived in %q", r, out)
			}
			if hidden(r) && !allowedHidden(rs, i) {
				t.Fatalf("hidden %U survived out of place in %q", r, out)
			}
		}
	}
	if again := Line(line); again != line {
		t.Fatalf("Line is not idempotent: %q, then %q", line, again)
	}
	if utf8.ValidString(s) {
		checkLineAt(t, s, line)
	}
}

// checkLineAt checks LineAt at every rune start of s, valid UTF-8 whose
// Line is line: the same line, offsets from 0 to its end that never go
// back, and each at a rune start.
func checkLineAt(t *testing.T, s, line string) {
	t.Helper()
	last := -1
	for pos := 0; pos <= len(s); pos++ {
		if pos < len(s) && !utf8.RuneStart(s[pos]) {
			continue
		}
		got, at := LineAt(s, pos)
		if got != line {
			t.Fatalf("LineAt(%q, %d) = %q, want Line's %q", s, pos, got, line)
		}
		if at < last || at > len(line) || at < len(line) && !utf8.RuneStart(line[at]) ||
			pos == 0 && at != 0 || pos == len(s) && at != len(line) {
			t.Fatalf("LineAt(%q, %d) = %d in %q, after %d", s, pos, at, line, last)
		}
		last = at
	}
}

func TestLineAt(t *testing.T) {
	tests := []struct {
		s    string
		pos  int
		line string
		at   int
	}{
		{"abc", 1, "abc", 1},
		{"abc", 9, "abc", 3},
		{"a\u200bb", 1, "a<U+200B>b", 1},
		{"a\u200bb", 4, "a<U+200B>b", 9},
		{"\ufeffx", 3, "<U+FEFF>x", 8},
		{"a\U000E0041b", 5, "a<U+E0041>b", 10},
		{"日\u200d本", 3, "日<U+200D>本", 3},
		{"日\u200d本", 6, "日<U+200D>本", 11},
		{"👨\u200d👩", 4, "👨\u200d👩", 4},
	}
	for _, tt := range tests {
		line, at := LineAt(tt.s, tt.pos)
		if line != tt.line || at != tt.at {
			t.Errorf("LineAt(%q, %d) = %q, %d; want %q, %d", tt.s, tt.pos, line, at, tt.line, tt.at)
		}
		checkLineAt(t, tt.s, line)
	}
}

// allowedHidden reports whether the hidden rs[i] is one the package keeps:
// a joiner between two shown runes that join, a selector after a visible
// rune, or a tag inside a subdivision flag.
func allowedHidden(rs []rune, i int) bool {
	r := rs[i]
	if r >= 0xe0020 && r <= 0xe007f {
		for j := i - 1; j >= 0 && j >= i-7; j-- {
			if rs[j] == blackFlag {
				return flagTags(rs[j+1:]) > i-j-1
			}
		}
		return false
	}
	if i == 0 || i+1 >= len(rs) && !variationSelector(r) {
		return false
	}
	prev := rs[i-1]
	if hidden(prev) {
		return false
	}
	if variationSelector(r) {
		return selects(prev)
	}
	return (r == zwj || r == zwnj) && joins(prev, r, rs[i+1])
}

func BenchmarkLine(b *testing.B) {
	inputs := []struct{ name, s string }{
		{"ascii", "Which database should the new service use in production?"},
		{"cjk", "新しいサービスは本番環境でどのデータベースを使いますか？"},
		{"emoji", "Ship it? 👍🏽 🚀 ❤️ 👨‍👩‍👧"},
		{"escape", "Deploy \x1b[31mnow\x1b[0m to prod?"},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			for b.Loop() {
				Line(in.s)
			}
		})
	}
}
