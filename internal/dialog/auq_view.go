package dialog

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/internal/safetext"
)

// View renders the dialog in width×rows cells. No line is wider than
// width and there are at most rows lines; zero or negative sizes give no
// lines, and sizes over MaxWidth or MaxRows are drawn as
// those. Frame.Cursor is set while an input is open and visible.
//
// When rows are short, parts go in this order: spacing, the separator,
// the question's lines past the third, most of a preview below the
// options, body rows away from the focus, the question's second and
// third lines, the first lines of the preview, the question, the second
// row of hints, the countdown, the tabs, the notice. The first row of
// hints, the open input and the focused row stay longest.
//
// View changes nothing: at the size SetSize gave it draws what Update
// laid out, and at any other size it lays the text out for itself, so
// several goroutines may call it at once, at any sizes, while none calls
// Update or SetSize.
func (m *Questions) View(width, rows int) Frame {
	width, rows = fitSize(width, rows)
	if width == 0 || rows == 0 {
		return Frame{}
	}
	if p := m.planned; p != nil && p.width == width && p.rows == rows {
		// The countdown moves without a key: read it afresh, and plan
		// again only if its row comes or goes.
		if m.countdown == nil {
			return m.draw(p)
		}
		if left, ok := m.countdown.Remaining(); ok == p.hasCd {
			if !ok {
				return m.draw(p)
			}
			q := *p
			q.cd = m.countdownLine(left, width)
			return m.draw(&q)
		}
	}
	return m.draw(m.plan(m.layoutAt(width), width, rows))
}

// grants are the rows each part of a frame gets.
type qgrants struct {
	cd, top, rule, heading, gap, body, preview, gap2, input, msg, hints int
}

// plan is one frame laid out before any of it is drawn.
type qplan struct {
	width, rows int
	cw          int // the width after the left margin
	lay         *layout
	ql          *qlayout // nil for the review and the help

	cd, top  line
	hasCd    bool
	heading  []line
	body     []bline
	focus    int // the body's focused entry, or -1
	side     bool
	leftW    int
	stacked  bool
	prev     []line
	input    line
	inputCol int // the cursor's column in input, or -1
	hasInput bool
	msg      line
	hasMsg   bool
	hints    []hintItem

	g       qgrants
	scroll  int
	pscroll int // the first preview line shown
	pageH   int // the rows the preview's lines get
}

func (m *Questions) plan(lay *layout, width, rows int) *qplan {
	p := &qplan{width: width, rows: rows, cw: max(width-1, 0), lay: lay, focus: -1, inputCol: -1}
	if m.countdown != nil {
		if left, ok := m.countdown.Remaining(); ok {
			p.cd, p.hasCd = m.countdownLine(left, width), true
		}
	}
	stored := 0
	switch {
	case m.help:
		p.top = m.title("Help", width)
		p.heading = indented("Keys", 1, width, m.th.Accent.Render)
		p.body = m.helpBody(p.cw)
		p.msg, p.hasMsg = m.notice("Press any key to close this help", width, m.th.Muted), true
	case m.inReview():
		p.top = m.tabsLine(width)
		p.heading = indented("Review your answers", 1, width, m.th.Accent.Render)
		p.body = m.reviewBody(lay, p.cw)
		p.focus, stored = m.pick, m.reviewScroll
	default:
		q := m.qs[m.cur]
		p.ql = m.qlayout(lay, m.cur)
		if m.several() {
			p.top = m.tabsLine(width)
		} else {
			p.top = m.title(q.header.s, width)
		}
		p.heading = p.ql.heading
		p.body = m.listBody(q, p.ql)
		p.focus, stored = q.focus, q.scroll
		if q.hasPreview {
			p.side, p.stacked = p.ql.side, !p.ql.side
			p.leftW = p.ql.bodyW
			if q.focus < q.n && p.ql.previews[q.focus] != nil {
				p.prev = p.ql.previews[q.focus]
			} else {
				w := min(len(previewNone), p.ql.prevW)
				p.prev = []line{{s: m.th.Muted.Render(previewNone[:w]), w: w}}
			}
		}
	}
	if m.input != nil {
		p.input, p.inputCol = m.inputLine(width)
		p.hasInput = true
	}
	if m.msg != "" {
		p.msg, p.hasMsg = m.notice(m.msg, width, m.th.Warning), true
	}
	if !m.help {
		multi := !m.inReview() && m.qs[m.cur].multi
		p.hints = withDismissHint(allHints[hintKey(m.mode(), multi, m.several(), false)], m.dismissHint)
		p.g = p.grant(width)
		if p.side && len(p.prev) > p.g.body || p.stacked && len(p.prev) > p.g.preview-1 {
			// The preview does not fit: name the keys that scroll it,
			// in the rows the hints already have.
			p.hints = withDismissHint(allHints[hintKey(m.mode(), multi, m.several(), true)], m.dismissHint)
		}
	} else {
		p.g = p.grant(width)
	}
	if h := p.g.body; h > 0 {
		p.scroll = scrollFor(stored, p.body, h, p.focus)
	}
	if p.side {
		p.pageH = p.g.body
	} else if p.stacked {
		p.pageH = max(p.g.preview-1, 0)
	}
	if p.ql != nil {
		if q := m.qs[m.cur]; q.pfor == q.focus {
			p.pscroll = min(max(q.pscroll, 0), max(len(p.prev)-p.pageH, 0))
		}
	}
	return p
}

// grant shares the rows out by priority.
func (p *qplan) grant(width int) qgrants {
	var g qgrants
	left := p.rows
	hintRows := hintRowsFor(p.hints, width, 2)
	take := func(dst *int, want int) {
		n := min(max(want-*dst, 0), left)
		*dst += n
		left -= n
	}
	if len(p.hints) > 0 {
		take(&g.hints, 1)
	}
	if p.hasInput {
		take(&g.input, 1)
	}
	take(&g.body, min(len(p.body), 1))
	if p.hasMsg {
		take(&g.msg, 1)
	}
	take(&g.top, 1)
	if p.hasCd {
		take(&g.cd, 1)
	}
	take(&g.hints, hintRows)
	take(&g.heading, min(len(p.heading), 1))
	if p.stacked {
		take(&g.preview, min(len(p.prev)+1, 3))
	}
	take(&g.heading, min(len(p.heading), 3))
	take(&g.body, len(p.body))
	if p.stacked {
		take(&g.preview, min(len(p.prev)+1, 6))
	}
	take(&g.heading, len(p.heading))
	take(&g.rule, 1)
	if p.side {
		take(&g.body, len(p.prev))
	}
	if p.stacked {
		take(&g.preview, len(p.prev)+1)
	}
	if g.heading > 0 {
		take(&g.gap, 1)
	}
	if g.input+g.msg > 0 {
		take(&g.gap2, 1)
	}
	return g
}

// draw draws the frame p plans.
func (m *Questions) draw(p *qplan) Frame {
	g, width := p.g, p.width
	f := newFrameWriter(width, p.rows, true)
	if g.cd > 0 {
		f.emit(p.cd)
	}
	if g.top > 0 {
		f.emit(p.top)
	}
	if g.rule > 0 {
		f.emit(line{s: m.th.Border.Render(strings.Repeat("─", width)), w: width})
	}
	for i := 0; i < g.heading; i++ {
		f.emit(p.heading[i])
	}
	if g.gap > 0 {
		f.emit(line{})
	}
	if h := g.body; h > 0 {
		sep := m.th.Border.Render(" │ ")
		var pv []line
		if p.side {
			pv = window(p.prev, p.pscroll, h, m.th)
		}
		for i := 0; i < h; i++ {
			var bl bline
			if p.scroll+i < len(p.body) {
				bl = p.body[p.scroll+i]
			}
			f.emit(beside(bl.line, pv, i, p.side, p.leftW, sep))
		}
	}
	if g.preview > 0 {
		f.previewBelow(previewRule(width, m.th), window(p.prev, p.pscroll, g.preview-1, m.th))
	}
	if g.gap2 > 0 {
		f.emit(line{})
	}
	if g.input > 0 {
		if p.inputCol >= 0 && p.inputCol < width {
			f.cursorHere(p.inputCol)
		}
		f.emit(p.input)
	}
	if g.msg > 0 {
		f.emit(p.msg)
	}
	if g.hints > 0 {
		f.hintRows(p.hints, g.hints, m.th)
	}
	return f.frame()
}

// window returns the lines of ls from top that fit in h rows, the last
// of them an ellipsis when more follow.
func window(ls []line, top, h int, th Theme) []line {
	if h <= 0 {
		return nil
	}
	ls = ls[min(top, len(ls)):]
	if len(ls) <= h {
		return ls
	}
	return append(ls[:h-1:h-1], line{s: th.Muted.Render("…"), w: 1})
}

// listBody composes the rows of a question: each option with its
// description and note, Other last, and the question's note.
func (m *Questions) listBody(q *question, ql *qlayout) []bline {
	out := make([]bline, 0, 3*(q.n+1)+2)
	for i := 0; i <= q.n; i++ {
		out = append(out, bline{line: m.optionRow(q, ql, i), ctrl: i, mark: true})
		for _, d := range ql.descs[i] {
			out = append(out, bline{line: d, ctrl: i})
		}
		for _, d := range ql.notes[i] {
			out = append(out, bline{line: d, ctrl: i})
		}
	}
	if len(ql.qnote) > 0 {
		out = append(out, bline{ctrl: -1})
		for _, l := range ql.qnote {
			out = append(out, bline{line: l, ctrl: -1})
		}
	}
	return out
}

func (m *Questions) optionRow(q *question, ql *qlayout, i int) line {
	var b builder
	b.pad(1)
	if i == q.focus {
		b.styled(m.th.Accent, focusMark, 2)
	} else {
		b.add(noMark, 2)
	}
	on := q.multi && q.sel[i] || !q.multi && q.chosen == i
	box := radioOff
	switch {
	case q.multi && on:
		box = checkOn
	case q.multi:
		box = boxOff
	case on:
		box = radioOn
	}
	b.box(box, on, m.th.Selection)
	l := ql.labels[i]
	if i == q.focus {
		b.styled(m.th.Accent, l.s, l.w)
	} else {
		b.add(l.s, l.w)
	}
	if i == q.rec {
		b.styled(m.th.Muted, ql.rec, ansi.StringWidth(ql.rec))
	}
	if q.notes[i] != "" {
		b.styled(m.th.Accent, noteSuffix, 2)
	}
	return b.line()
}

// reviewBody lists every question with its answer and notes, then the
// picker: Submit, and a way back to each question. The list is laid out
// once per state and width, as lay keeps it; the picker on every frame.
func (m *Questions) reviewBody(lay *layout, w int) []bline {
	sum := lay.summary
	if lay.summaryVer != m.ver || sum == nil {
		sum = m.summaryLines(w)
	}
	out := make([]bline, len(sum), len(sum)+len(m.qs)+1)
	copy(out, sum)
	return m.picker(out, w)
}

// summaryLines lists every question with its answer and notes, and a
// blank row after them.
func (m *Questions) summaryLines(w int) []bline {
	var out []bline
	for _, q := range m.qs {
		var b builder
		b.pad(1)
		var ans string
		switch {
		case q.answered():
			b.styled(m.th.Selection, "✓", 1)
			ans = q.summary()
		case q.q.IsRequired():
			b.styled(m.th.Error, "✗", 1)
			ans = "not answered (required)"
		default:
			b.styled(m.th.Muted, "–", 1)
			ans = "skipped (optional)"
		}
		b.pad(1)
		h, hw := q.header.cut(max(w-3, 0), ellipsis, 1)
		b.styled(m.th.Accent, h, hw)
		if avail := w + 1 - b.w - 3; avail > 0 {
			b.styled(m.th.Muted, " · ", 3)
			s := ansi.Truncate(ans, avail, "…")
			b.add(s, ansi.StringWidth(s))
		}
		out = append(out, bline{line: b.line(), ctrl: -1})
		if q.qnote != "" {
			for _, l := range noteLines("question: "+q.qnote, 3, w+1) {
				out = append(out, bline{line: l, ctrl: -1})
			}
		}
		for i, n := range q.notes {
			if n != "" {
				for _, l := range noteLines(q.labels[i]+": "+n, 3, w+1) {
					out = append(out, bline{line: l, ctrl: -1})
				}
			}
		}
	}
	return append(out, bline{ctrl: -1})
}

// picker adds the review's picker rows to out.
func (m *Questions) picker(out []bline, w int) []bline {
	for i := 0; i <= len(m.qs); i++ {
		var b builder
		b.pad(1)
		focused := i == m.pick
		if focused {
			b.styled(m.th.Accent, focusMark, 2)
		} else {
			b.add(noMark, 2)
		}
		if i == 0 {
			if focused {
				b.styled(m.th.Accent, "Submit", 6)
			} else {
				b.add("Submit", 6)
			}
		} else {
			b.add("Back to ", 8)
			h, hw := m.qs[i-1].header.cut(max(w-10, 0), ellipsis, 1)
			b.add(h, hw)
		}
		out = append(out, bline{line: b.line(), ctrl: i, mark: true})
	}
	return out
}

// summary is a one-line reading of the question's answer, in safe text.
func (q *question) summary() string {
	label := func(i int) string {
		if i == q.n {
			return q.labels[i] + ": “" + safetext.Line(q.other) + "”"
		}
		return q.labels[i]
	}
	if !q.multi {
		return label(q.chosen)
	}
	var parts []string
	for i, on := range q.sel {
		if on {
			parts = append(parts, label(i))
		}
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

// helpBody lists the keys and what they do.
func (m *Questions) helpBody(w int) []bline {
	kw := 0
	for _, r := range helpRows {
		kw = max(kw, ansi.StringWidth(r[0]))
	}
	out := make([]bline, 0, len(helpRows))
	for _, r := range helpRows {
		var b builder
		b.pad(3)
		b.styled(m.th.Accent, r[0], ansi.StringWidth(r[0]))
		b.pad(kw + 5 - b.w)
		b.add(r[1], ansi.StringWidth(r[1]))
		l := b.line()
		if l.w > w+1 {
			l = truncLine(l.s, w+1)
		}
		out = append(out, bline{line: l, ctrl: -1})
	}
	return out
}

// inputLine is the open input's row and the cursor's column in it.
func (m *Questions) inputLine(width int) (line, int) {
	e := m.input
	q := m.qs[e.q]
	var label string
	switch e.target {
	case targetOther:
		label = q.labels[q.n]
	case targetOptionNote:
		label = "Note on " + q.labels[e.opt]
	case targetQuestionNote:
		label = "Note on the question"
	}
	var b builder
	b.pad(1)
	b.styled(m.th.Accent, penMark, 2)
	l := truncLine(label, min(24, max(width/3, 1)))
	b.styled(m.th.Accent, l.s, l.w)
	b.add(": ", 2)
	avail := width - b.w
	if avail < 2 {
		return b.line(), -1
	}
	s, col := e.text.Window(avail)
	col += b.w
	b.add(s, ansi.StringWidth(s))
	return b.line(), col
}

// title is the top row for one question, or for the help: its name.
func (m *Questions) title(s string, width int) line {
	var b builder
	b.pad(min(1, width))
	l := truncLine(s, width-1)
	b.styled(m.th.Accent, l.s, l.w)
	return b.line()
}

func (m *Questions) notice(s string, width int, st Style) line {
	var b builder
	b.pad(min(1, width))
	l := truncLine(s, width-1)
	b.styled(st, l.s, l.w)
	return b.line()
}

// countdownLine says how long is left.
func (m *Questions) countdownLine(left time.Duration, width int) line {
	st := m.th.Muted
	if left <= lowTime {
		st = m.th.Warning
	}
	var b builder
	b.pad(min(1, width))
	s := clockMark + formatLeft(left) + " left"
	if w := clockW() + len(s) - len(clockMark); w <= width-1 {
		b.styled(st, s, w)
	} else {
		l := truncLine(s, width-1)
		b.styled(st, l.s, l.w)
	}
	return b.line()
}

// clockW is the width of clockMark, measured once.
var clockW = sync.OnceValue(func() int { return ansi.StringWidth(clockMark) })

// tabsLine shows one tab per question, by header, and the review tab.
// Headers of the other tabs are cut to the widest length that fits; when
// even two cells each do not, the row reads "‹ 2/9 Header ›".
func (m *Questions) tabsLine(width int) line {
	tb := tabBar{th: m.th, labels: m.tabLabels, done: make([]bool, len(m.tabLabels)), cur: m.cur}
	widest := 0
	for i, l := range m.tabLabels {
		tb.done[i] = i < len(m.qs) && m.qs[i].answered()
		widest = max(widest, l.w)
	}
	for cut := widest; cut >= 2; cut-- {
		if tb.width(cut, 0) <= width {
			return tb.build(cut, 0)
		}
	}
	return tb.compact(m.tabLabels[m.cur].s, width)
}
