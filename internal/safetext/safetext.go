// Package safetext makes untrusted text, such as titles, prompts and labels
// written by a model, safe to draw on a terminal.
//
// Nothing is removed and nothing is hidden: what could act on the terminal
// or draw as nothing is replaced by a visible stand-in, so the reader sees
// that the text held something odd.
//
//   - C0 controls and DEL become Control Pictures (U+2400–U+2421: ␛ for
//     ESC, ␇ for BEL, ␡ for DEL), so no escape sequence (cursor movement,
//     colour, OSC 8 links, OSC 52 clipboard writes, title changes) can be
//     formed from the text.
//   - C1 controls (U+0080–U+009F), which some terminals obey as CSI, OSC
//     and the like, become "<U+009B>" and so on.
//   - Invisible characters become "<U+XXXX>" the same way: every format
//     character (Unicode category Cf: soft hyphen, zero-width space,
//     joiners, bidirectional embeddings, overrides, isolates and marks,
//     word joiner, invisible operators, byte order mark, tag characters,
//     …), every other default-ignorable code point (Hangul fillers,
//     combining grapheme joiner, U+FFF0–U+FFF8, the unassigned rest of
//     U+E0000–U+E0FFF) and the line and paragraph separators U+2028 and
//     U+2029.
//
// A few invisible characters are what some scripts and emoji are made of,
// and are kept where they do that job:
//
//   - U+200D ZERO WIDTH JOINER between an emoji (a pictographic symbol,
//     possibly ending in U+FE0F or a skin tone modifier) and a pictographic
//     symbol, as in 👨‍👩‍👧 or 🏳️‍🌈; and U+200C ZERO WIDTH NON-JOINER or
//     U+200D between two letters or marks of one script that shapes with
//     them (Arabic, Syriac, N'Ko, Mongolian, the Indic scripts, Sinhala,
//     Myanmar, Khmer), as in Persian "می‌خواهم".
//   - A variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF, the Mongolian
//     U+180B–U+180D and U+180F) directly after a visible character, as
//     in ❤️ or an ideographic variant of a CJK character. A selector at the
//     start, after another selector or after a character replaced here
//     selects nothing visible and is replaced.
//   - Tag characters in an emoji subdivision flag: U+1F3F4 followed by 3 to
//     6 tag letters or digits (a subdivision such as "gbeng") and U+E007F
//     CANCEL TAG, as in 🏴󠁧󠁢󠁥󠁮󠁧󠁿. Any other tag character is replaced.
//
// Emoji modifiers, keycaps, regional indicator flags, combining marks and
// every visible character of every script pass unchanged. Invalid UTF-8
// becomes U+FFFD.
//
// The package also compares names and keys the way askuser reads them,
// ASCII letters without case (EqualFold), where Unicode folding would be
// wrong.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line: every control character, newlines and tabs
// included, becomes a visible stand-in, as do the invisible characters the
// package comment lists. Invalid UTF-8 becomes U+FFFD.
func Line(s string) string {
	if isPlain(s, false) {
		return s
	}
	out, _ := rewrite(s, false, -1)
	return out
}

// LineAt returns Line(s) and the byte offset in it of what byte pos of s
// became: where a cursor standing before byte pos of s is drawn, as in a
// text input that shows its text as Line does. pos is taken to be at
// most len(s), and to start a rune; for s that is not valid UTF-8 the
// offset is only approximate.
func LineAt(s string, pos int) (string, int) {
	pos = min(max(pos, 0), len(s))
	if isPlain(s, false) {
		return s, pos
	}
	return rewrite(s, false, pos)
}

// Text returns s with its line breaks kept: "\r\n" and "\n" become "\n", a
// tab becomes four spaces, and every other control character becomes a
// visible stand-in, as do the invisible characters the package comment
// lists. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if isPlain(s, true) {
		return s
	}
	out, _ := rewrite(strings.ReplaceAll(s, "\r\n", "\n"), true, -1)
	return out
}

// Lines splits s into lines as Text keeps them, each safe as by Line.
func Lines(s string) []string {
	return strings.Split(Text(s), "\n")
}

// rewrite returns s made safe, and when pos >= 0 the offset in the result
// of what byte pos of s became (-1 otherwise).
func rewrite(s string, multiline bool, pos int) (string, int) {
	rs := []rune(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(s) + 8)
	flagEnd := -1 // the last index of a subdivision flag's tags
	// prev is the last rune written unchanged, or -1 after a stand-in: a
	// joiner or selector is kept only after what is itself shown as is.
	prev := rune(-1)
	at, off := -1, 0 // off is the byte offset of rs[i] in s
	for i, r := range rs {
		if pos >= 0 && at < 0 && off >= pos {
			at = b.Len()
		}
		off += utf8.RuneLen(r)
		shown := r
		switch {
		case r == '\n' && multiline:
			b.WriteByte('\n')
		case r == '\t' && multiline:
			b.WriteString("    ")
			shown = ' '
		case r < 0x20:
			// U+2400 is the start of the Control Pictures block: ␀, ␁, … ␛ …
			b.WriteRune(0x2400 + r)
			shown = -1
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
			shown = -1
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, "<U+%04X>", r)
			shown = -1
		case r == blackFlag:
			if n := flagTags(rs[i+1:]); n > 0 {
				flagEnd = i + n
			}
			b.WriteRune(r)
		case hidden(r) && i > flagEnd && !keptAfter(prev, rs, i):
			fmt.Fprintf(&b, "<U+%04X>", r)
			shown = -1
		default:
			b.WriteRune(r)
		}
		prev = shown
	}
	if pos >= 0 && at < 0 {
		at = b.Len()
	}
	return b.String(), at
}

// keptAfter reports whether the hidden character rs[i], written after
// prev, does a visible job where it is: a joiner inside an emoji sequence
// or a word, or a variation selector after a visible character.
func keptAfter(prev rune, rs []rune, i int) bool {
	switch r := rs[i]; {
	case r == zwnj || r == zwj:
		return i+1 < len(rs) && joins(prev, r, rs[i+1])
	case variationSelector(r):
		return selects(prev)
	}
	return false
}

const (
	zwnj      = '\u200c'
	zwj       = '\u200d'
	blackFlag = '\U0001F3F4'
	cancelTag = '\U000E007F'
)

// isPlain reports whether s needs no change: valid UTF-8 with no control
// or hidden character (keeping newlines when multiline), apart from
// joiners and variation selectors that rewrite would keep. It decides in
// one pass and looks at the neighbours only of the rare runes that need
// them.
func isPlain(s string, multiline bool) bool {
	prev := rune(-1)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !(multiline && c == '\n') {
					return false
				}
			}
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return false
		}
		if r <= 0x9f || r == blackFlag {
			return false
		}
		if mayHide(r) && hidden(r) {
			switch {
			case r == zwnj || r == zwj:
				next, _ := utf8.DecodeRuneInString(s[i+n:])
				if i+n == len(s) || !joins(prev, r, next) {
					return false
				}
			case variationSelector(r):
				if !selects(prev) {
					return false
				}
			default:
				return false
			}
		}
		prev = r
		i += n
	}
	return true
}

// mayHide is a quick test that r may be hidden: it is false for the
// blocks of CJK, Hangul syllables and emoji, where most non-Latin text
// lives, so that hidden's table is searched only for the rest.
func mayHide(r rune) bool {
	return !(r >= 0x2070 && r < 0x3164) && !(r > 0x3164 && r < 0xFE00) &&
		!(r >= 0x1E000 && r < 0xE0000)
}

// hiddenTable lists what hidden reports: Unicode's default-ignorable code
// points, the other format characters (Cf) and U+2028 and U+2029. A test
// checks it against the unicode package's tables.
var hiddenTable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1},
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x0600, Hi: 0x0605, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x06dd, Hi: 0x06dd, Stride: 1},
		{Lo: 0x070f, Hi: 0x070f, Stride: 1},
		{Lo: 0x0890, Hi: 0x0891, Stride: 1},
		{Lo: 0x08e2, Hi: 0x08e2, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1},
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1},
		{Lo: 0x2028, Hi: 0x202e, Stride: 1},
		{Lo: 0x2060, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff0, Hi: 0xfffb, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x110bd, Hi: 0x110bd, Stride: 1},
		{Lo: 0x110cd, Hi: 0x110cd, Stride: 1},
		{Lo: 0x13430, Hi: 0x1343f, Stride: 1},
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1},
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1},
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
}

// Invisible reports whether r is, by itself, a character that a terminal
// obeys or does not show: a C0 or C1 control, DEL, or one of the
// invisible characters the package comment lists, the joiners and
// selectors that Line keeps in context included. Writers that cannot
// show a stand-in, such as JSON's, escape every such character.
func Invisible(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || mayHide(r) && hidden(r)
}

// hidden reports whether r draws as nothing, or as something other than
// itself, on a terminal: see hiddenTable.
func hidden(r rune) bool { return unicode.Is(hiddenTable, r) }

func variationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef) ||
		(r >= 0x180b && r <= 0x180d) || r == 0x180f
}

// selects reports whether a variation selector after prev, a rune shown
// as is or -1, selects a form of a visible character.
func selects(prev rune) bool {
	return prev >= 0x20 && prev != 0x7f && !(prev >= 0x80 && prev <= 0x9f) && !hidden(prev)
}

// joins reports whether the joiner r between prev, a rune shown as is or
// -1, and next belongs to an emoji sequence (ZWJ only) or to a word of a
// script shaped with joiners. next must itself be shown as is.
func joins(prev, r, next rune) bool {
	if prev < 0 || next < 0 || hidden(next) {
		return false
	}
	if r == zwj && pictographic(next) &&
		(pictographic(prev) || prev == 0xfe0f || (prev >= 0x1f3fb && prev <= 0x1f3ff)) {
		return true
	}
	if !(unicode.IsLetter(prev) || unicode.IsMark(prev)) || !(unicode.IsLetter(next) || unicode.IsMark(next)) {
		return false
	}
	for _, script := range joiningScripts {
		if unicode.Is(script, prev) {
			return unicode.Is(script, next)
		}
	}
	return false
}

func pictographic(r rune) bool { return unicode.Is(unicode.So, r) }

// joiningScripts are the scripts whose words use U+200C and U+200D to
// choose between joined and separate letter forms.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati,
	unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada,
	unicode.Malayalam, unicode.Sinhala, unicode.Myanmar, unicode.Khmer,
}

// flagTags returns how many runes of rs, which follows a U+1F3F4, form
// the tags of a subdivision flag: 3 to 6 tag letters or digits, then
// CANCEL TAG. It returns 0 when rs does not start so.
func flagTags(rs []rune) int {
	n := 0
	for n < len(rs) && n <= 6 && ((rs[n] >= 0xe0030 && rs[n] <= 0xe0039) || (rs[n] >= 0xe0061 && rs[n] <= 0xe007a)) {
		n++
	}
	if n < 3 || n > 6 || n >= len(rs) || rs[n] != cancelTag {
		return 0
	}
	return n + 1
}
