package safetext

import (
	"strings"
	"testing"

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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Text(tt.in)); diff != "" {
				t.Errorf("Text(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[31m", "\x1b]52;c;AA==\x07", "\u009b", "a\nb", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s)} {
			for _, r := range out {
				if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Fatalf("control %U survived in %q", r, out)
				}
			}
			if strings.ContainsRune(Line(s), '\n') {
				t.Fatalf("Line kept a newline: %q", Line(s))
			}
		}
	})
}
