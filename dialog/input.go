package dialog

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// textInput is a single-line text editor measured in terminal cells with
// x/ansi, so that its cursor column is right after wide characters,
// emoji and combining marks. The zero value is an empty input.
//
// Its text never holds a control character: insert turns line breaks and
// tabs into spaces and drops every other control or bidi formatting rune.
type textInput struct {
	s    string
	pos  int    // byte offset of the cursor, always on a grapheme boundary
	kill string // the text deleted last by a word or line deletion, for yank
}

// cleanText makes typed or pasted text fit a single-line input.
func cleanText(s string) string {
	clean := true
	for _, r := range s {
		if dropRune(r) || r == '\n' || r == '\r' || r == '\t' || r == 0xFFFD {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case dropRune(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dropRune reports whether r must never reach the screen from an input:
// C0 and C1 controls, DEL, and bidi overrides, embeddings and isolates.
func dropRune(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

func newTextInput(s string) textInput {
	s = cleanText(s)
	return textInput{s: s, pos: len(s)}
}

// Value returns the text.
func (t *textInput) Value() string { return t.s }

// next returns the end of the grapheme cluster that starts at byte i.
func (t *textInput) next(i int) int {
	if i >= len(t.s) {
		return len(t.s)
	}
	g, _ := ansi.FirstGraphemeCluster(t.s[i:], ansi.GraphemeWidth)
	if len(g) == 0 {
		return i + 1
	}
	return i + len(g)
}

// prev returns the start of the grapheme cluster that ends at byte i.
func (t *textInput) prev(i int) int {
	last := 0
	for j := 0; j < i; {
		k := t.next(j)
		if k >= i {
			return j
		}
		last = k
		j = k
	}
	return last
}

// snap moves pos forward to the nearest grapheme boundary.
func (t *textInput) snap() {
	j := 0
	for j < t.pos {
		j = t.next(j)
	}
	t.pos = min(j, len(t.s))
}

func (t *textInput) insert(s string) bool {
	s = cleanText(s)
	if s == "" {
		return false
	}
	t.s = t.s[:t.pos] + s + t.s[t.pos:]
	t.pos += len(s)
	t.snap()
	return true
}

func (t *textInput) backspace() bool {
	if t.pos == 0 {
		return false
	}
	p := t.prev(t.pos)
	t.s = t.s[:p] + t.s[t.pos:]
	t.pos = p
	return true
}

func (t *textInput) deleteForward() bool {
	if t.pos >= len(t.s) {
		return false
	}
	n := t.next(t.pos)
	t.s = t.s[:t.pos] + t.s[n:]
	return true
}

// wordStart returns the start of the word before the cursor, with the
// spaces between them.
func (t *textInput) wordStart() int {
	p := t.pos
	for p > 0 && isSpaceBefore(t.s, p) {
		p = t.prev(p)
	}
	for p > 0 && !isSpaceBefore(t.s, p) {
		p = t.prev(p)
	}
	return p
}

// wordEnd returns the end of the word after the cursor, with the spaces
// before it.
func (t *textInput) wordEnd() int {
	p := t.pos
	for p < len(t.s) && isSpaceAt(t.s, p) {
		p = t.next(p)
	}
	for p < len(t.s) && !isSpaceAt(t.s, p) {
		p = t.next(p)
	}
	return p
}

// cut deletes the bytes [a, b) into the kill buffer and leaves the cursor
// at a.
func (t *textInput) cut(a, b int) bool {
	if a >= b {
		return false
	}
	t.kill = t.s[a:b]
	t.s = t.s[:a] + t.s[b:]
	t.pos = a
	return true
}

func (t *textInput) deleteWord() bool        { return t.cut(t.wordStart(), t.pos) }
func (t *textInput) deleteWordForward() bool { return t.cut(t.pos, t.wordEnd()) }
func (t *textInput) deleteToStart() bool     { return t.cut(0, t.pos) }
func (t *textInput) deleteToEnd() bool       { return t.cut(t.pos, len(t.s)) }
func (t *textInput) yank() bool              { return t.insert(t.kill) }

func (t *textInput) wordLeft() bool {
	p := t.wordStart()
	moved := p != t.pos
	t.pos = p
	return moved
}

func (t *textInput) wordRight() bool {
	p := t.wordEnd()
	moved := p != t.pos
	t.pos = p
	return moved
}

func isSpaceAt(s string, p int) bool {
	for _, r := range s[p:] {
		return unicode.IsSpace(r)
	}
	return false
}

func isSpaceBefore(s string, p int) bool {
	r := rune(s[p-1])
	if r >= 0x80 {
		for _, rr := range s[:p] {
			r = rr
		}
	}
	return unicode.IsSpace(r)
}

func (t *textInput) left() bool {
	if t.pos == 0 {
		return false
	}
	t.pos = t.prev(t.pos)
	return true
}

func (t *textInput) right() bool {
	if t.pos >= len(t.s) {
		return false
	}
	t.pos = t.next(t.pos)
	return true
}

func (t *textInput) home() bool { moved := t.pos != 0; t.pos = 0; return moved }

func (t *textInput) end() bool { moved := t.pos != len(t.s); t.pos = len(t.s); return moved }

// window returns the part of the text that fits in w cells and the
// cursor's column within it. The window ends at the cursor when the text
// before the cursor does not fit, always leaving one cell for the cursor.
func (t *textInput) window(w int) (string, int) {
	if w <= 0 {
		return "", 0
	}
	before := t.s[:t.pos]
	bw := ansi.StringWidth(before)
	if bw <= w-1 {
		return ansi.Truncate(t.s, w, ""), bw
	}
	// Drop graphemes from the left until the cursor fits.
	start := 0
	for bw > w-1 && start < t.pos {
		n := t.next(start)
		bw -= ansi.StringWidth(t.s[start:n])
		start = n
	}
	return ansi.Truncate(t.s[start:], w, ""), bw
}
