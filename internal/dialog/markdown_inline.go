package dialog

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/askuser/askuser/internal/safetext"
)

// flags is a combination of inline styles.
type flags uint8

const (
	fBold flags = 1 << iota
	fCode
	fAccent
	fMuted
	flagCount = 1 << iota
)

// inlines feeds the inline children of n to w with the styles fl.
func (r *renderer) inlines(w *wrapper, n ast.Node, fl flags) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(r.src)
			if c.IsRaw() {
				w.text(string(v), fl)
			} else {
				w.text(unescape(v), fl)
			}
			switch {
			case c.HardLineBreak():
				w.lineBreak()
			case c.SoftLineBreak():
				w.space()
			}
		case *ast.String:
			if c.IsRaw() || c.IsCode() {
				w.text(string(c.Value), fl)
			} else {
				w.text(unescape(c.Value), fl)
			}
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					w.text(strings.TrimSuffix(string(t.Segment.Value(r.src)), "\n"), fl|fCode)
					if t.SoftLineBreak() || bytes.HasSuffix(t.Segment.Value(r.src), []byte("\n")) {
						w.space()
					}
				}
			}
		case *ast.Emphasis:
			r.inlines(w, c, fl|fBold)
		case *ast.Link:
			r.link(w, c, c.Destination, fl)
		case *ast.Image:
			r.link(w, c, c.Destination, fl)
		case *ast.AutoLink:
			w.text(string(c.URL(r.src)), fl|fMuted)
		case *ast.RawHTML:
			for i := range c.Segments.Len() {
				seg := c.Segments.At(i)
				v := seg.Value(r.src)
				w.text(strings.TrimSuffix(string(v), "\n"), fl)
				if bytes.HasSuffix(v, []byte("\n")) {
					w.space()
				}
			}
		default:
			r.inlines(w, c, fl)
		}
	}
}

// link shows a link or an image as its text followed by the destination
// in parentheses. The destination is plain text: a terminal shows it, but
// it is not a hyperlink sequence.
func (r *renderer) link(w *wrapper, n ast.Node, dest []byte, fl flags) {
	before := w.count
	r.inlines(w, n, fl)
	url := unescape(dest)
	if url == "" {
		return
	}
	if w.count != before {
		w.space()
	}
	w.text("("+url+")", fl|fMuted)
}

// unescape resolves backslash escapes and character references the way
// goldmark's HTML writer does, into plain text.
func unescape(src []byte) string {
	if bytes.IndexByte(src, '\\') < 0 && bytes.IndexByte(src, '&') < 0 {
		return string(src)
	}
	var b strings.Builder
	b.Grow(len(src))
	n := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && util.IsPunct(src[i+1]):
			b.Write(src[n:i])
			b.WriteByte(src[i+1])
			i++
			n = i + 1
		case c == '&':
			r, end, ok := reference(src, i)
			if !ok {
				continue
			}
			b.Write(src[n:i])
			b.WriteString(r)
			i = end - 1
			n = end
		}
	}
	b.Write(src[n:])
	return b.String()
}

// reference decodes the character reference at src[i] ('&'): numeric
// (&#39; &#x27;) or named (&amp;). It returns the text and the end index.
func reference(src []byte, i int) (string, int, bool) {
	j := i + 1
	if j < len(src) && src[j] == '#' {
		j++
		base := 10
		if j < len(src) && (src[j] == 'x' || src[j] == 'X') {
			base, j = 16, j+1
		}
		start := j
		for j < len(src) && j-start < 8 && isDigit(src[j], base) {
			j++
		}
		if j == start || j >= len(src) || src[j] != ';' {
			return "", 0, false
		}
		v, err := strconv.ParseUint(string(src[start:j]), base, 32)
		if err != nil {
			return "", 0, false
		}
		return string(util.ToValidRune(rune(v))), j + 1, true
	}
	start := j
	for j < len(src) && util.IsAlphaNumeric(src[j]) {
		j++
	}
	if j == start || j >= len(src) || src[j] != ';' {
		return "", 0, false
	}
	e, ok := util.LookUpHTML5EntityByName(string(src[start:j]))
	if !ok {
		return "", 0, false
	}
	return string(e.Characters), j + 1, true
}

func isDigit(c byte, base int) bool {
	if base == 16 {
		return util.IsHexDecimal(c)
	}
	return c >= '0' && c <= '9'
}

// clean makes one line of untrusted text safe to print.
func clean(s string) string { return safetext.Line(s) }

// piece is a run of text with one style and no space in it.
type piece struct {
	s  string
	w  int
	fl flags
}

// wrapper word-wraps styled text into lines of at most width cells. Each
// line it returns closes every style it opens, so lines stand alone.
type wrapper struct {
	st    *[flagCount]style
	width int
	lines []string
	buf   strings.Builder
	lineW int
	cur   flags // the style open at the end of buf
	word  []piece
	wordW int
	gap   bool // a space is due before the next word
	count int  // pieces seen, to tell whether something was written
}

func newWrapper(r *renderer, width int) *wrapper {
	return &wrapper{st: &r.styles, width: width}
}

// text adds untrusted text: it is made safe, and split into words at
// spaces.
func (w *wrapper) text(s string, fl flags) {
	s = clean(s)
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			w.add(s, fl)
			return
		}
		if i > 0 {
			w.add(s[:i], fl)
		}
		w.space()
		s = s[i+1:]
	}
}

func (w *wrapper) add(s string, fl flags) {
	pw := lineWidth(s)
	w.word = append(w.word, piece{s, pw, fl})
	w.wordW += pw
	w.count++
}

func (w *wrapper) space() {
	w.flushWord()
	w.gap = true
}

func (w *wrapper) lineBreak() {
	w.flushWord()
	w.endLine()
	w.gap = false
}

func (w *wrapper) finish() []string {
	w.flushWord()
	if w.lineW > 0 || w.buf.Len() > 0 {
		w.endLine()
	}
	return w.lines
}

func (w *wrapper) flushWord() {
	if len(w.word) == 0 {
		return
	}
	gap := 0
	if w.gap && w.lineW > 0 {
		gap = 1
	}
	switch {
	case w.lineW+gap+w.wordW <= w.width:
		if gap == 1 {
			w.writeSpace()
		}
		w.writeWord()
	case w.wordW <= w.width:
		w.endLine()
		w.writeWord()
	default:
		if w.lineW+gap+1 < w.width {
			// Start the long word on this line rather than waste it.
			if gap == 1 {
				w.writeSpace()
			}
		} else if w.lineW > 0 {
			w.endLine()
		}
		w.breakWord()
	}
	w.word = w.word[:0]
	w.wordW = 0
	w.gap = false
}

// writeSpace writes the space before the pending word, styled only when
// the words on both sides share the style.
func (w *wrapper) writeSpace() {
	if w.cur != w.word[0].fl {
		w.buf.WriteString(w.st[w.cur].close)
		w.cur = 0
	}
	w.buf.WriteByte(' ')
	w.lineW++
}

func (w *wrapper) writeWord() {
	for _, p := range w.word {
		w.write(p)
	}
}

// breakWord writes a word wider than the line, cut between clusters.
func (w *wrapper) breakWord() {
	for _, p := range w.word {
		for p.s != "" {
			room := w.width - w.lineW
			if p.w <= room {
				w.write(p)
				break
			}
			head, tail, hw := cutCells(p.s, room)
			cut := hw
			if head == "" {
				if w.lineW > 0 {
					w.endLine()
					continue
				}
				// One cluster is wider than the whole line.
				c := firstCluster(p.s)
				head, tail, hw, cut = "…", p.s[len(c):], 1, lineWidth(c)
			}
			w.write(piece{head, hw, p.fl})
			// Widths add up across cluster boundaries, so the tail is not
			// measured again: that made long words quadratic.
			p = piece{tail, p.w - cut, p.fl}
			if p.s != "" {
				w.endLine()
			}
		}
	}
}

func (w *wrapper) write(p piece) {
	if p.fl != w.cur {
		w.buf.WriteString(w.st[w.cur].close)
		w.buf.WriteString(w.st[p.fl].open)
		w.cur = p.fl
	}
	w.buf.WriteString(p.s)
	w.lineW += p.w
}

func (w *wrapper) endLine() {
	w.buf.WriteString(w.st[w.cur].close)
	w.cur = 0
	w.lines = append(w.lines, w.buf.String())
	w.buf.Reset()
	w.lineW = 0
}

// lineWidth is ansi.StringWidth with a fast path for printable ASCII.
func lineWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// cutCells splits plain text s after at most n cells, between grapheme
// clusters, and returns the width of head.
func cutCells(s string, n int) (head, tail string, headW int) {
	i, w := 0, 0
	for i < len(s) {
		if c := s[i]; c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
			if w+1 > n {
				break
			}
			w++
			i++
			continue
		}
		g, gw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if w+gw > n || g == "" {
			break
		}
		w += gw
		i += len(g)
	}
	return s[:i], s[i:], w
}

func firstCluster(s string) string {
	g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if g == "" && s != "" {
		_, size := utf8.DecodeRuneInString(s)
		return s[:size]
	}
	return g
}

// truncate cuts a styled line to width cells. x/ansi keeps the escape
// sequences past the cut, so every style opened is still closed.
func truncate(s string, width int) string {
	return ansi.Truncate(s, width, "")
}
