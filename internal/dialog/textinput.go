package dialog

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/internal/safetext"
)

// inputOptions are what tells one dialog's input from the other's.
type inputOptions struct {
	// SpaceWords makes DeleteWord take the word before the cursor as
	// what lies after the last ASCII space before it, as the
	// AskUserQuestion dialog does. Otherwise words are separated by any
	// Unicode white space, for the word moves and deletions alike.
	SpaceWords bool
	// NoYank makes the word and line deletions keep nothing, so that
	// Yank inserts nothing: for a dialog that has no key for Yank.
	// Otherwise they keep the text they remove, for Yank to insert again.
	NoYank bool
}

// textInput is the single-line text editor of both dialogs. Its cursor
// moves by grapheme clusters and is placed in terminal cells with x/ansi,
// so that it stays right after wide characters, emoji and combining marks.
//
// Its text never holds a control character: line breaks and tabs become
// spaces, and every other control or bidi formatting rune is dropped.
// The invisible characters it keeps are drawn as visible stand-ins.
// The zero value is an empty input with the zero inputOptions: Unicode
// words, and deletions that Yank can undo.
type textInput struct {
	opts inputOptions
	s    string
	pos  int    // byte offset of the cursor, always on a grapheme boundary
	kill string // the text deleted last by a word or line deletion, for Yank
}

// newTextInput returns an input holding s, cleaned as cleanInput does,
// with the cursor at its end.
func newTextInput(s string, opts inputOptions) textInput {
	s = cleanInput(s)
	return textInput{opts: opts, s: s, pos: len(s)}
}

// cleanInput makes typed or pasted text fit a single-line input.
func cleanInput(s string) string {
	clean := true
	for _, r := range s {
		if safetext.Dropped(r) || r == 0xFFFD {
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
		case safetext.Dropped(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Value returns the text.
func (t *textInput) Value() string { return t.s }

// next returns the end of the grapheme cluster that starts at byte i.
func (t *textInput) next(i int) int { return nextCluster(t.s, i) }

// nextCluster returns the end of the grapheme cluster of s that starts at
// byte i.
func nextCluster(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	g, _ := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
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

// snap moves pos forward to the nearest grapheme boundary.
func (t *textInput) snap() {
	j := 0
	for j < t.pos {
		j = t.next(j)
	}
	t.pos = min(j, len(t.s))
}

// Insert inserts s, cleaned as cleanInput does, at the cursor and moves the
// cursor past it. It reports whether there was anything to insert; when
// there was not, nothing changes.
func (t *textInput) Insert(s string) bool {
	s = cleanInput(s)
	if s == "" {
		return false
	}
	t.s = t.s[:t.pos] + s + t.s[t.pos:]
	t.pos += len(s)
	// Inserted text may join the cluster before it; keep pos on a
	// boundary.
	t.snap()
	return true
}

// Backspace deletes the grapheme cluster before the cursor. It reports
// whether there was one.
func (t *textInput) Backspace() bool {
	if t.pos == 0 {
		return false
	}
	p := t.prev(t.pos)
	t.s, t.pos = t.s[:p]+t.s[t.pos:], p
	return true
}

// DeleteForward deletes the grapheme cluster after the cursor. It reports
// whether there was one.
func (t *textInput) DeleteForward() bool {
	if t.pos >= len(t.s) {
		return false
	}
	t.s = t.s[:t.pos] + t.s[t.next(t.pos):]
	return true
}

// wordStart returns the start of the word before the cursor, with the
// spaces between them.
func (t *textInput) wordStart() int {
	p := t.pos
	if t.opts.SpaceWords {
		for p > 0 && t.s[p-1] == ' ' {
			p--
		}
		for p > 0 && t.s[p-1] != ' ' {
			p = t.prev(p)
		}
		return p
	}
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

// cut deletes the bytes [a, b), into the kill buffer unless
// inputOptions.NoYank is set, and leaves the cursor at a.
func (t *textInput) cut(a, b int) bool {
	if a >= b {
		return false
	}
	if !t.opts.NoYank {
		t.kill = t.s[a:b]
	}
	t.s = t.s[:a] + t.s[b:]
	t.pos = a
	return true
}

// DeleteWord deletes the word before the cursor and the spaces between
// them. It reports whether anything was deleted.
func (t *textInput) DeleteWord() bool { return t.cut(t.wordStart(), t.pos) }

// DeleteWordForward deletes the word after the cursor and the spaces
// before it. It reports whether anything was deleted.
func (t *textInput) DeleteWordForward() bool { return t.cut(t.pos, t.wordEnd()) }

// DeleteToStart deletes the text before the cursor. It reports whether
// there was any.
func (t *textInput) DeleteToStart() bool { return t.cut(0, t.pos) }

// DeleteToEnd deletes the text after the cursor. It reports whether
// there was any.
func (t *textInput) DeleteToEnd() bool { return t.cut(t.pos, len(t.s)) }

// Yank inserts the text deleted last by a word or line deletion, unless
// inputOptions.NoYank is set. It reports whether there was any.
func (t *textInput) Yank() bool { return t.Insert(t.kill) }

// WordLeft moves the cursor to the start of the word before it. It
// reports whether the cursor moved.
func (t *textInput) WordLeft() bool {
	p := t.wordStart()
	moved := p != t.pos
	t.pos = p
	return moved
}

// WordRight moves the cursor to the end of the word after it. It reports
// whether the cursor moved.
func (t *textInput) WordRight() bool {
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

// Left moves the cursor one grapheme cluster left. It reports whether it
// moved.
func (t *textInput) Left() bool {
	if t.pos == 0 {
		return false
	}
	t.pos = t.prev(t.pos)
	return true
}

// Right moves the cursor one grapheme cluster right. It reports whether
// it moved.
func (t *textInput) Right() bool {
	if t.pos >= len(t.s) {
		return false
	}
	t.pos = t.next(t.pos)
	return true
}

// Home moves the cursor to the start. It reports whether it moved.
func (t *textInput) Home() bool { moved := t.pos != 0; t.pos = 0; return moved }

// End moves the cursor to the end. It reports whether it moved.
func (t *textInput) End() bool { moved := t.pos != len(t.s); t.pos = len(t.s); return moved }

// Window returns the part of the text that fits in w cells, as it is
// drawn, and the cursor's column within it. The window ends at the cursor
// when the text before the cursor does not fit, always leaving one cell
// for the cursor.
//
// The text is drawn as safetext.Line draws a title or a label: an
// invisible character, such as a zero-width space, a byte order mark or
// a tag character, shows as its stand-in ("<U+200B>"), so that a person
// sees every character the input holds, a prefilled default's included.
// Value still returns the text itself.
func (t *textInput) Window(w int) (string, int) {
	if w <= 0 {
		return "", 0
	}
	s, pos := safetext.LineAt(t.s, t.pos)
	before := s[:pos]
	bw := ansi.StringWidth(before)
	if bw <= w-1 {
		return ansi.Truncate(s, w, ""), bw
	}
	// Drop grapheme clusters from the left until the cursor fits.
	start := 0
	for bw > w-1 && start < pos {
		n := nextCluster(s, start)
		bw -= ansi.StringWidth(s[start:n])
		start = n
	}
	return ansi.Truncate(s[start:], w, ""), bw
}
