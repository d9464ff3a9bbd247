package dialog

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Markers. Focus and selection are independent: the triangle marks focus,
// the boxes mark selection, and nothing is drawn with a background.
const (
	focusMark   = "▸ "
	noMark      = "  "
	checkOn     = "[✓]"
	crossOn     = "[✗]"
	boxOff      = "[ ]"
	radioOn     = "(●)"
	radioOff    = "( )"
	penMark     = "✎ "
	ellipsis    = "…"
	previewNone = "(no preview)"
	clockMark   = "⏱ "
	// lowTime is when the countdown turns to the warning colour.
	lowTime = 15 * time.Second
)

// line is one composed row and its width in cells.
type line struct {
	s string
	w int
}

// bline is a body row, tagged with the control, option or picker entry
// it belongs to (-1 for none); mark is set on the row with its focus
// marker.
type bline struct {
	line
	ctrl int
	mark bool
}

// builder composes a row while counting its cells, so that a finished
// row never has to be measured.
type builder struct {
	b strings.Builder
	w int
}

func (b *builder) add(s string, w int) {
	b.b.WriteString(s)
	b.w += w
}

func (b *builder) styled(st Style, s string, w int) {
	if s == "" {
		return
	}
	b.b.WriteString(st.Prefix)
	b.b.WriteString(s)
	b.b.WriteString(st.Suffix)
	b.w += w
}

// box adds a choice's box, 3 cells, in the style sel when the choice is
// on, and a space after it.
func (b *builder) box(box string, on bool, sel Style) {
	if on {
		b.styled(sel, box, 3)
	} else {
		b.add(box, 3)
	}
	b.pad(1)
}

// spaces is padding to slice from.
var spaces = strings.Repeat(" ", 256)

func (b *builder) pad(n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.b.WriteString(spaces[:k])
		b.w += k
		n -= k
	}
}

func (b *builder) line() line { return line{s: b.b.String(), w: b.w} }

// splitWidth returns the width of a body after its one-cell margin, the
// width of its preview, and whether the preview is beside the body: from
// SideBySideWidth on, when there is a preview. Below the body a preview
// is indent cells narrower than the body.
func splitWidth(width int, preview bool, indent int) (body, prev int, side bool) {
	cw := max(width-1, 0)
	if !preview || width < SideBySideWidth {
		return cw, max(cw-indent, 1), false
	}
	left := min(max(width*2/5, 36), 64) - 1
	return left, width - left - 4, true // " " + left + " │ " + preview
}

// wrap breaks s into lines of at most w cells: at spaces when it can,
// inside words when it must. Line breaks in s are kept.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	for para := range strings.SplitSeq(s, "\n") {
		if ansi.StringWidth(para) <= w {
			out = append(out, para)
			continue
		}
		wrapped := ansi.Hardwrap(ansi.Wordwrap(para, w, ""), w, true)
		out = append(out, strings.Split(wrapped, "\n")...)
	}
	return out
}

// indented wraps s to fit after an indent of n cells in a row of width
// cells, styling the text.
func indented(s string, n, width int, style func(string) string) []line {
	avail := width - n
	if s == "" || avail <= 0 {
		return nil
	}
	pad := spaces[:min(n, len(spaces))]
	if n > len(spaces) {
		pad = strings.Repeat(" ", n)
	}
	var out []line
	for _, l := range wrap(s, avail) {
		l = strings.TrimRight(l, " ")
		out = append(out, line{s: pad + style(l), w: n + ansi.StringWidth(l)})
	}
	return out
}

// truncLine cuts s to w cells with an ellipsis.
func truncLine(s string, w int) line {
	if w <= 0 {
		return line{}
	}
	s = ansi.Truncate(s, w, ellipsis)
	return line{s: s, w: ansi.StringWidth(s)}
}

// previewRule is the rule above a preview drawn below the options.
func previewRule(width int, th Theme) line {
	var b builder
	if width >= 12 {
		b.styled(th.Border, " ── ", 4)
		b.styled(th.Muted, "Preview", 7)
		b.styled(th.Border, " "+strings.Repeat("─", width-12), width-11)
	} else {
		b.styled(th.Border, strings.Repeat("─", width), width)
	}
	return b.line()
}

// beside is body line bl as the dialog shows it at row i of the body:
// alone, or, when the preview stands at the side, with row i of the
// preview's window pv beside it.
func beside(bl line, pv []line, i int, side bool, leftW int, sep string) line {
	if !side {
		return bl
	}
	var pl line
	if i < len(pv) {
		pl = pv[i]
	}
	return besides(bl, pl, leftW, sep)
}

// besides composes a body row of leftW cells and a preview row beside it,
// after sep, the border between them, 3 cells wide.
func besides(bl, pl line, leftW int, sep string) line {
	padW := max(leftW+1-bl.w, 0)
	var b builder
	b.b.Grow(len(bl.s) + padW + len(sep) + len(pl.s))
	b.add(bl.s, bl.w)
	b.pad(padW)
	b.add(sep, 3)
	b.add(pl.s, pl.w)
	return b.line()
}

// scrollFor returns the first body row to show in h rows, starting from
// the stored offset and moving as little as keeps the focused entry in
// view, or at least its marked row.
func scrollFor(stored int, body []bline, h, focus int) int {
	s := min(max(stored, 0), max(len(body)-h, 0))
	a, b, r := -1, -1, -1
	for i, bl := range body {
		if bl.ctrl != focus || focus < 0 {
			continue
		}
		if a < 0 {
			a = i
		}
		b = i
		if bl.mark {
			r = i
		}
	}
	if a < 0 {
		return s
	}
	if b-a+1 <= h {
		if a < s {
			s = a
		}
		if b >= s+h {
			s = b - h + 1
		}
		return s
	}
	if r < s || r >= s+h {
		s = min(r, max(len(body)-h, 0))
	}
	return s
}

// formatLeft writes a duration as m:ss, or h:mm:ss from an hour on,
// rounding up so that 0:00 means the time is over.
func formatLeft(d time.Duration) string {
	s := max(int64((d+time.Second-1)/time.Second), 0)
	h, mn, sec := s/3600, s/60%60, s%60
	two := func(n int64) string {
		if n < 10 {
			return "0" + strconv.FormatInt(n, 10)
		}
		return strconv.FormatInt(n, 10)
	}
	if h > 0 {
		return strconv.FormatInt(h, 10) + ":" + two(mn) + ":" + two(sec)
	}
	return strconv.FormatInt(mn, 10) + ":" + two(sec)
}

// frameWriter collects the rows of a frame. A row wider than the frame,
// which only the tiniest sizes give since rows are built to fit, is cut.
type frameWriter struct {
	width  int
	lines  []string
	widths []int // each row's width, when kept; nil otherwise
	cursor *Cursor
	hints  int
}

func newFrameWriter(width, rows int, keepWidths bool) frameWriter {
	f := frameWriter{width: width, lines: make([]string, 0, rows)}
	if keepWidths {
		f.widths = make([]int, 0, rows)
	}
	return f
}

func (f *frameWriter) emit(l line) {
	if l.w > f.width {
		l.s = ansi.Truncate(l.s, f.width, "")
		if f.widths != nil {
			l.w = ansi.StringWidth(l.s)
		}
	}
	f.lines = append(f.lines, l.s)
	if f.widths != nil {
		f.widths = append(f.widths, l.w)
	}
}

// cursorHere puts the cursor at column col of the next row.
func (f *frameWriter) cursorHere(col int) {
	f.cursor = &Cursor{Row: len(f.lines), Col: col}
}

// previewBelow draws a preview below the body: its rule, then its lines
// indented by two cells.
func (f *frameWriter) previewBelow(rule line, ls []line) {
	f.emit(rule)
	for _, l := range ls {
		var b builder
		b.pad(2)
		b.add(l.s, l.w)
		f.emit(b.line())
	}
}

// hintRows draws hints on up to n rows, as hintsLines lays them out.
func (f *frameWriter) hintRows(items []hintItem, n int, th Theme) {
	for _, l := range hintsLines(items, f.width, n, th) {
		f.emit(l)
		f.hints++
	}
}

func (f *frameWriter) frame() Frame {
	return Frame{Lines: f.lines, Cursor: f.cursor, Hints: f.hints, Widths: f.widths}
}
