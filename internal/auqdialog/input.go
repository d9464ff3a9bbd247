package auqdialog

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// textInput is a single-line editor whose cursor moves by grapheme
// clusters and is placed in terminal cells, so it stays right after wide
// characters, emoji and combining marks. The zero value is empty.
//
// Its text never holds a control character: line breaks and tabs become
// spaces, and every other control or bidi formatting rune is dropped.
type textInput struct {
	s   string
	pos int // byte offset of the cursor, on a grapheme boundary
}

func newTextInput(s string) textInput {
	s = cleanText(s)
	return textInput{s: s, pos: len(s)}
}

// cleanText makes typed or pasted text fit a single-line input.
func cleanText(s string) string {
	clean := true
	for _, r := range s {
		if dropRune(r) || r == 0xFFFD {
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
// C0 and C1 controls, DEL, and bidi overrides, embeddings, isolates and
// marks.
func dropRune(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// next returns the end of the grapheme cluster that starts at byte i.
func (t *textInput) next(i int) int {
	if i >= len(t.s) {
		return len(t.s)
	}
	g, _ := ansi.FirstGraphemeCluster(t.s[i:], ansi.GraphemeWidth)
	return i + max(len(g), 1)
}

// prev returns the start of the grapheme cluster that ends at byte i.
func (t *textInput) prev(i int) int {
	last := 0
	for j := 0; j < i; {
		k := t.next(j)
		if k >= i {
			return j
		}
		last, j = k, k
	}
	return last
}

func (t *textInput) insert(s string) {
	s = cleanText(s)
	t.s = t.s[:t.pos] + s + t.s[t.pos:]
	t.pos += len(s)
	// Inserted text may join the cluster before it; keep pos on a
	// boundary.
	j := 0
	for j < t.pos {
		j = t.next(j)
	}
	t.pos = min(j, len(t.s))
}

func (t *textInput) backspace() {
	if t.pos > 0 {
		p := t.prev(t.pos)
		t.s, t.pos = t.s[:p]+t.s[t.pos:], p
	}
}

func (t *textInput) deleteForward() {
	if t.pos < len(t.s) {
		t.s = t.s[:t.pos] + t.s[t.next(t.pos):]
	}
}

// deleteWord deletes the word before the cursor and the spaces after it.
func (t *textInput) deleteWord() {
	p := t.pos
	for p > 0 && t.s[p-1] == ' ' {
		p--
	}
	for p > 0 && t.s[p-1] != ' ' {
		p = t.prev(p)
	}
	t.s, t.pos = t.s[:p]+t.s[t.pos:], p
}

func (t *textInput) left() {
	if t.pos > 0 {
		t.pos = t.prev(t.pos)
	}
}

func (t *textInput) right() { t.pos = t.next(t.pos) }

// window returns the part of the text that fits in w cells and the
// cursor's column in it, always leaving one cell for the cursor: when the
// text before the cursor does not fit, the window ends at the cursor.
func (t *textInput) window(w int) (string, int) {
	if w <= 0 {
		return "", 0
	}
	before := t.s[:t.pos]
	bw := ansi.StringWidth(before)
	if bw <= w-1 {
		return ansi.Truncate(t.s, w, ""), bw
	}
	start := 0
	for bw > w-1 && start < t.pos {
		n := t.next(start)
		bw -= ansi.StringWidth(t.s[start:n])
		start = n
	}
	return ansi.Truncate(t.s[start:], w, ""), bw
}
