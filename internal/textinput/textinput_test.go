package textinput

import "testing"

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"two\r\nlines\tand a tab", "two lines and a tab"},
		{"bell\a esc\x1b[31m del\x7f c1\u0085", "bell esc[31m del c1"},
		{"bidi \u202eevil\u202c \u2066iso\u2069 \u200emark\u200f \u061c", "bidi evil iso mark "},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"日本語 👍🏽 e\u0301", "日本語 👍🏽 e\u0301"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// edit is one step of a test: an operation, the text and cursor it
// leaves, and what it reports.
type edit struct {
	op       func(*Input) bool
	text     string
	pos      int
	reported bool
}

func insert(s string) func(*Input) bool { return func(t *Input) bool { return t.Insert(s) } }

func TestEdits(t *testing.T) {
	tests := []struct {
		name  string
		start string
		opts  Options
		steps []edit
	}{
		{"grapheme clusters", "ae\u0301", Options{}, []edit{
			{(*Input).Backspace, "a", 1, true},
			{insert("👍🏽"), "a👍🏽", 9, true},
			{(*Input).Left, "a👍🏽", 1, true},
			{(*Input).DeleteForward, "a", 1, true},
			{(*Input).DeleteForward, "a", 1, false},
			{(*Input).Home, "a", 0, true},
			{(*Input).Home, "a", 0, false},
			{(*Input).Backspace, "a", 0, false},
			{(*Input).End, "a", 1, true},
			{(*Input).Right, "a", 1, false},
		}},
		{"nothing to insert", "ab", Options{}, []edit{
			{insert("\x1b\a"), "ab", 2, false},
			{insert("\n"), "ab ", 3, true},
		}},
		{"unicode words and yank", "one two\u00a0three  ", Options{}, []edit{
			{(*Input).DeleteWord, "one two\u00a0", 9, true},
			{(*Input).DeleteWord, "one ", 4, true},
			{(*Input).Yank, "one two\u00a0", 9, true},
			{(*Input).WordLeft, "one two\u00a0", 4, true},
			{(*Input).WordRight, "one two\u00a0", 7, true},
			{(*Input).DeleteToStart, "\u00a0", 0, true},
			{(*Input).DeleteWordForward, "", 0, true},
			{(*Input).Yank, "\u00a0", 2, true},
		}},
		{"space words, no yank", "one two\u00a0three  ", Options{SpaceWords: true, NoYank: true}, []edit{
			{(*Input).DeleteWord, "one ", 4, true},
			{(*Input).Yank, "one ", 4, false},
			{(*Input).DeleteToStart, "", 0, true},
			{(*Input).Yank, "", 0, false},
		}},
		{"line deletions", "left right", Options{}, []edit{
			{(*Input).WordLeft, "left right", 5, true},
			{(*Input).DeleteToEnd, "left ", 5, true},
			{(*Input).DeleteToEnd, "left ", 5, false},
			{(*Input).Yank, "left right", 10, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := New(tt.start, tt.opts)
			for i, st := range tt.steps {
				got := st.op(&in)
				if in.Value() != st.text || in.pos != st.pos || got != st.reported {
					t.Fatalf("step %d: %q at %d, reported %v; want %q at %d, %v", i, in.Value(), in.pos, got, st.text, st.pos, st.reported)
				}
			}
		})
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		text    string
		pos     int
		w       int
		want    string
		wantCol int
	}{
		{"short", 5, 10, "short", 5},
		{"abcdefghij", 10, 5, "ghij", 4},
		{"abcdefghij", 0, 5, "abcde", 0},
		{"日本語テキスト", len("日本語テキスト"), 6, "スト", 4},
		{"anything", 3, 0, "", 0},
		// Invisible characters show as stand-ins, and the cursor stands
		// after what it follows as drawn.
		{"a\u200bb", len("a\u200bb"), 20, "a<U+200B>b", 10},
		{"a\u200bb", 1, 20, "a<U+200B>b", 1},
		{"a\u200bb", len("a\u200b"), 20, "a<U+200B>b", 9},
		{"\ufeffok\u200d", len("\ufeffok\u200d"), 20, "<U+FEFF>ok<U+200D>", 18},
		{"x\U000E0041\U000E007F", len("x\U000E0041\U000E007F"), 30, "x<U+E0041><U+E007F>", 19},
		{"a\u200bbcdef", len("a\u200bbcdef"), 6, "bcdef", 5},
		{"👨\u200d👩", len("👨\u200d👩"), 10, "👨\u200d👩", 2},
	}
	for _, tt := range tests {
		in := New(tt.text, Options{})
		in.pos = tt.pos
		got, col := in.Window(tt.w)
		if got != tt.want || col != tt.wantCol {
			t.Errorf("Window(%d) of %q at %d = %q, %d; want %q, %d", tt.w, tt.text, tt.pos, got, col, tt.want, tt.wantCol)
		}
	}
}
