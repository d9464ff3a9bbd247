package dialog

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
		if got := cleanInput(tt.in); got != tt.want {
			t.Errorf("cleanInput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// inputEdit is one step of a test: an operation, the text and cursor it
// leaves, and what it reports.
type inputEdit struct {
	op       func(*textInput) bool
	text     string
	pos      int
	reported bool
}

func insert(s string) func(*textInput) bool { return func(t *textInput) bool { return t.Insert(s) } }

func TestEdits(t *testing.T) {
	tests := []struct {
		name  string
		start string
		opts  inputOptions
		steps []inputEdit
	}{
		{"grapheme clusters", "ae\u0301", inputOptions{}, []inputEdit{
			{(*textInput).Backspace, "a", 1, true},
			{insert("👍🏽"), "a👍🏽", 9, true},
			{(*textInput).Left, "a👍🏽", 1, true},
			{(*textInput).DeleteForward, "a", 1, true},
			{(*textInput).DeleteForward, "a", 1, false},
			{(*textInput).Home, "a", 0, true},
			{(*textInput).Home, "a", 0, false},
			{(*textInput).Backspace, "a", 0, false},
			{(*textInput).End, "a", 1, true},
			{(*textInput).Right, "a", 1, false},
		}},
		{"nothing to insert", "ab", inputOptions{}, []inputEdit{
			{insert("\x1b\a"), "ab", 2, false},
			{insert("\n"), "ab ", 3, true},
		}},
		{"unicode words and yank", "one two\u00a0three  ", inputOptions{}, []inputEdit{
			{(*textInput).DeleteWord, "one two\u00a0", 9, true},
			{(*textInput).DeleteWord, "one ", 4, true},
			{(*textInput).Yank, "one two\u00a0", 9, true},
			{(*textInput).WordLeft, "one two\u00a0", 4, true},
			{(*textInput).WordRight, "one two\u00a0", 7, true},
			{(*textInput).DeleteToStart, "\u00a0", 0, true},
			{(*textInput).DeleteWordForward, "", 0, true},
			{(*textInput).Yank, "\u00a0", 2, true},
		}},
		{"space words, no yank", "one two\u00a0three  ", inputOptions{SpaceWords: true, NoYank: true}, []inputEdit{
			{(*textInput).DeleteWord, "one ", 4, true},
			{(*textInput).Yank, "one ", 4, false},
			{(*textInput).DeleteToStart, "", 0, true},
			{(*textInput).Yank, "", 0, false},
		}},
		{"line deletions", "left right", inputOptions{}, []inputEdit{
			{(*textInput).WordLeft, "left right", 5, true},
			{(*textInput).DeleteToEnd, "left ", 5, true},
			{(*textInput).DeleteToEnd, "left ", 5, false},
			{(*textInput).Yank, "left right", 10, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newTextInput(tt.start, tt.opts)
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
		in := newTextInput(tt.text, inputOptions{})
		in.pos = tt.pos
		got, col := in.Window(tt.w)
		if got != tt.want || col != tt.wantCol {
			t.Errorf("Window(%d) of %q at %d = %q, %d; want %q, %d", tt.w, tt.text, tt.pos, got, col, tt.want, tt.wantCol)
		}
	}
}
