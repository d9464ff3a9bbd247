// Package safetext makes untrusted text, such as titles, prompts and labels
// written by a model, safe to draw on a terminal.
//
// Every control character is replaced by a visible stand-in, so no escape
// sequence (cursor movement, colour, OSC 8 links, OSC 52 clipboard writes,
// title changes) can be formed from the text, and nothing is hidden from
// the reader: the stand-ins show that the text held something odd.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line returns s as one line: every control character, newlines and tabs
// included, becomes a visible stand-in. Invalid UTF-8 becomes U+FFFD.
func Line(s string) string {
	if isPlain(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range validRunes(s) {
		writeRune(&b, r, false)
	}
	return b.String()
}

// Text returns s with its line breaks kept: "\r\n" and "\n" become "\n", a
// tab becomes four spaces, and every other control character becomes a
// visible stand-in. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if isPlain(s, true) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range validRunes(s) {
		writeRune(&b, r, true)
	}
	return b.String()
}

// Lines splits s into lines as Text keeps them, each safe as by Line.
func Lines(s string) []string {
	return strings.Split(Text(s), "\n")
}

func validRunes(s string) []rune {
	return []rune(strings.ToValidUTF8(s, "\uFFFD"))
}

// isPlain reports whether s needs no change: valid UTF-8 with no control
// or formatting character (keeping newlines when multiline).
func isPlain(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			// The rest may still hold ASCII controls: check it whole.
			return utf8.ValidString(s[i:]) && !hasUnsafeRune(s[i:]) && !hasASCIIControl(s[i:], multiline)
		}
		if c < 0x20 || c == 0x7f {
			if multiline && c == '\n' {
				continue
			}
			return false
		}
	}
	return true
}

func hasASCIIControl(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && !(multiline && c == '\n')) || c == 0x7f {
			return true
		}
	}
	return false
}

func hasUnsafeRune(s string) bool {
	for _, r := range s {
		if unsafeRune(r) {
			return true
		}
	}
	return false
}

// unsafeRune reports whether r is a C1 control or a bidirectional override,
// isolate or embedding, which can make text read differently than it is.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) ||
		(r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

func writeRune(b *strings.Builder, r rune, multiline bool) {
	switch {
	case r == '\n' && multiline:
		b.WriteByte('\n')
	case r == '\t' && multiline:
		b.WriteString("    ")
	case r < 0x20:
		// U+2400 is the start of the Control Pictures block: ␀, ␁, … ␛ …
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune('\u2421') // ␡
	case unsafeRune(r):
		fmt.Fprintf(b, "<U+%04X>", r)
	default:
		b.WriteRune(r)
	}
}
