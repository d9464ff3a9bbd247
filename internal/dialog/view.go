package dialog

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/safetext"
)

// Layout constants.
const (
	// MinUsableRows is the height below which the dialog no longer shows
	// more than the key hints, the pinned text row and the focused control.
	MinUsableRows = 3
	// SideBySideWidth is the narrowest width at which previews are drawn
	// beside the options rather than below them.
	SideBySideWidth = 100
)

// The largest size View draws at. No terminal is larger, and what a frame
// costs must not follow whatever number a caller passes: View draws a
// larger size as this one.
const (
	MaxWidth = 10000
	MaxRows  = 10000
)

// fitSize is the size a dialog is laid out at when a host gives width
// and rows: a size over MaxWidth or MaxRows counts as that, and a
// negative one as 0, at which nothing is drawn.
func fitSize(width, rows int) (int, int) {
	return min(max(width, 0), MaxWidth), min(max(rows, 0), MaxRows)
}

// View renders the dialog in width×rows cells. No line is wider than width
// and there are at most rows lines; zero or negative sizes give no lines,
// and a width over MaxWidth or rows over MaxRows are drawn as MaxWidth or
// MaxRows. Frame.Cursor is set when a text input has focus and is visible.
//
// When rows are short, parts are dropped in this order (the first listed
// goes first): spacing, the separator rule, the prompt and extra title
// lines, the tab bar, the title, the header, the validation message, the
// Continue button row, body rows away from focus. The key hints, the pinned
// supplemental text row and the focused control's row stay longest.
//
// View changes nothing: at the size SetSize gave it draws what Update
// laid out, and at any other size it lays the text out for itself, so
// several goroutines may call it at once, at any sizes, while none calls
// Update or SetSize.
func (m *Model) View(width, rows int) Frame {
	width, rows = fitSize(width, rows)
	if width == 0 || rows == 0 {
		return Frame{}
	}
	p := m.planned
	if p == nil || p.width != width || p.rows != rows || p.t != m.tab() {
		lc := m.cacheAt(width)
		p = m.plan(lc, width, rows, lc != &m.cache)
	}
	return m.draw(p)
}

// grants are the rows each part of a frame gets.
type grants struct {
	hints, free, button, msg, header, tabs, rule, gap, gap2 int
	heading, prompt, body, preview                          int
}

// A plan is one frame laid out, before any line of it is drawn: its parts,
// the rows each gets, and where the body and the preview are scrolled to.
// Making one reads the model and changes nothing in it.
type plan struct {
	width, rows int
	cw          int // content width after the left margin
	t           *tab
	lc          *layoutCache
	tl          *tabLayout

	pinFree, pinButton int // pinned controls below the body, or -1
	bodyW, leftW       int
	side, stacked      bool // the preview beside the body, or below it
	body               []bline
	ctrlTop            []int // first body line of each control
	prev               []line

	g       grants
	scroll  int // first body line shown
	pscroll int // first preview line shown
}

// plan lays out the current tab in width×rows cells (both in range) with
// the layout cache lc, which it adds to only when store is set.
func (m *Model) plan(lc *layoutCache, width, rows int, store bool) *plan {
	t := m.tab()
	p := &plan{width: width, rows: rows, t: t, lc: lc, cw: max(width-1, 0), pinFree: -1, pinButton: -1}
	p.tl = lc.tab(m, m.cur, store)

	// Pinned rows below the body: the supplemental text row and, for a
	// multi question, its Continue button.
	if !t.form && t.index >= 0 {
		for ci, c := range t.ctrls {
			switch c.kind {
			case ctrlFree:
				p.pinFree = ci
			case ctrlButton:
				p.pinButton = ci
			}
		}
	}

	var prevW int
	p.bodyW, prevW, p.side = splitWidth(width, t.preview, 1)
	p.leftW = p.bodyW
	p.body, p.ctrlTop = m.body(t, p.tl, p.bodyW, p.pinFree, p.pinButton)
	p.stacked = t.preview && !p.side
	if t.preview {
		pw := prevW
		if p.stacked {
			pw = max(p.cw-1, 1)
		}
		p.prev = m.previewLines(lc, t, pw, store)
	}
	p.g = m.grant(p)

	// Keep the focused control in view, and the preview window full.
	p.scroll, p.pscroll = t.scroll, t.pscroll
	if h := p.g.body; h > 0 {
		p.scroll = scrollFor(t.scroll, p.body, h, t.focus)
		if p.side {
			p.pscroll = windowStart(p.prev, t.pscroll, h)
		}
	}
	if p.g.preview > 0 {
		p.pscroll = windowStart(p.prev, t.pscroll, p.g.preview-1)
	}
	return p
}

// grant shares the rows of p out by priority.
func (m *Model) grant(p *plan) grants {
	var g grants
	left := p.rows
	take := func(dst *int, want int) {
		n := min(max(want-*dst, 0), left)
		*dst += n
		left -= n
	}
	take(&g.hints, 1)
	if p.pinFree >= 0 {
		take(&g.free, 1)
	}
	take(&g.body, min(len(p.body), 1))
	if p.pinButton >= 0 {
		take(&g.button, 1)
	}
	if m.msg != "" {
		take(&g.msg, 1)
	}
	take(&g.header, 1)
	take(&g.hints, 2)
	take(&g.heading, min(len(p.tl.heading), 1))
	if len(m.tabs) > 1 {
		take(&g.tabs, 1)
	}
	take(&g.body, len(p.body))
	take(&g.prompt, len(p.tl.prompt))
	take(&g.heading, len(p.tl.heading))
	if p.stacked {
		take(&g.preview, min(len(p.prev)+1, 6))
	}
	take(&g.rule, 1)
	if p.side {
		take(&g.body, len(p.prev))
	}
	if p.stacked {
		take(&g.preview, len(p.prev)+1)
	}
	if len(p.tl.prompt) > 0 || len(p.tl.heading) > 0 {
		take(&g.gap, 1)
	}
	if g.free+g.button > 0 || g.msg > 0 {
		take(&g.gap2, 1)
	}
	return g
}

// draw draws the frame p plans.
func (m *Model) draw(p *plan) Frame {
	t, g, width := p.t, p.g, p.width
	f := newFrameWriter(width, p.rows, false)
	if g.header > 0 {
		f.emit(m.headerLine(width))
	}
	if g.tabs > 0 {
		f.emit(m.tabsLine(width))
	}
	if g.rule > 0 {
		f.emit(p.lc.rule)
	}
	for i := 0; i < g.heading; i++ {
		f.emit(p.tl.heading[i])
	}
	for i := 0; i < g.prompt; i++ {
		f.emit(p.tl.prompt[i])
	}
	if g.gap > 0 {
		f.emit(line{})
	}

	if h := g.body; h > 0 {
		var pv []line
		var sep string
		if p.side {
			pv = windowOf(p.prev, p.pscroll, h)
			sep = m.th.Border.Render(" │ ")
		}
		for i := 0; i < h; i++ {
			bl := bline{ctrl: -1}
			if p.scroll+i < len(p.body) {
				bl = p.body[p.scroll+i]
			}
			if bl.ctrl >= 0 && bl.ctrl == t.focus && bl.mark {
				if c := m.cursorIn(t, bl.ctrl, p.bodyW); c >= 0 {
					f.cursorHere(c)
				}
			}
			f.emit(beside(bl.line, pv, i, p.side, p.leftW, sep))
		}
	}
	if g.preview > 0 {
		f.previewBelow(p.lc.previewRule, windowOf(p.prev, p.pscroll, g.preview-1))
	}
	if g.gap2 > 0 {
		f.emit(line{})
	}
	if g.free > 0 {
		if t.focus == p.pinFree {
			if c := m.cursorIn(t, p.pinFree, p.cw); c >= 0 {
				f.cursorHere(c)
			}
		}
		f.emit(m.ctrlLine(t, p.tl, p.pinFree, p.cw))
	}
	if g.button > 0 {
		f.emit(m.ctrlLine(t, p.tl, p.pinButton, p.cw))
	}
	if g.msg > 0 {
		f.emit(m.msgLine(width))
	}
	if g.hints > 0 {
		scrollable := len(p.body) > g.body
		if t.preview {
			scrollable = p.side && len(p.prev) > g.body || p.stacked && len(p.prev) > g.preview-1
		}
		f.hintRows(m.hints(t.text() != nil, scrollable), g.hints, m.th)
	}
	return f.frame()
}

// windowStart returns top clamped so that a window of h lines of ls
// starting there stays full.
func windowStart(ls []line, top, h int) int {
	return min(max(top, 0), max(len(ls)-h, 0))
}

// windowOf returns up to h lines of ls from top, which windowStart
// clamped.
func windowOf(ls []line, top, h int) []line {
	if h <= 0 {
		return nil
	}
	top = windowStart(ls, top, h)
	return ls[top:min(top+h, len(ls))]
}

// body composes the scrollable rows of tab t in w cells, leaving out the
// pinned controls, and returns the first row of each control.
func (m *Model) body(t *tab, tl *tabLayout, w, pinFree, pinButton int) ([]bline, []int) {
	out := make([]bline, 0, 2*len(t.ctrls)+4)
	top := make([]int, len(t.ctrls))
	for i := range top {
		top[i] = -1
	}
	if t.index < 0 {
		return m.reviewBody(t, tl, w, out, top)
	}
	lastField := -2
	for ci, c := range t.ctrls {
		if ci == pinFree || ci == pinButton {
			continue
		}
		if t.form && c.field != lastField {
			if lastField != -2 {
				out = append(out, bline{ctrl: -1})
			}
			top[ci] = len(out)
			if c.field >= 0 {
				fl := tl.fieldLabel[c.field]
				out = append(out, bline{line: fl, ctrl: ci})
			}
			lastField = c.field
		}
		if top[ci] < 0 {
			top[ci] = len(out)
		}
		out = append(out, bline{line: m.ctrlLine(t, tl, ci, w), ctrl: ci, mark: true})
		if c.kind == ctrlOption {
			for _, d := range tl.descs[c.field][c.opt] {
				out = append(out, bline{line: d, ctrl: ci})
			}
		}
	}
	return out, top
}

// ctrlLine renders control ci of tab t as one row of w cells.
func (m *Model) ctrlLine(t *tab, tl *tabLayout, ci, w int) line {
	c := t.ctrls[ci]
	focused := ci == t.focus
	var b builder
	b.pad(1)
	mark := func(on bool) {
		if on {
			b.styled(m.th.Accent, focusMark, 2)
		} else {
			b.add(noMark, 2)
		}
	}
	switch c.kind {
	case ctrlOption:
		f := t.fields[c.field]
		mark(focused)
		box := boxOff
		on := f.sel[c.opt]
		if f.kind == contract.KindSingle {
			box = radioOff
			if on {
				box = radioOn
			}
		} else if on {
			box = checkOn
		}
		b.box(box, on, m.th.Selection)
		l := tl.labels[c.field][c.opt]
		b.add(l.s, l.w)
	case ctrlBool:
		f := t.fields[c.field]
		sides := [2]string{"True", "False"}
		for s := 0; s < 2; s++ {
			if s == 1 {
				b.pad(1)
			}
			mark(focused && t.side == s)
			on := f.boolSet && f.boolVal == (s == 0)
			switch {
			case on && s == 0:
				b.styled(m.th.Selection, checkOn, 3)
			case on:
				b.styled(m.th.Selection, crossOn, 3)
			default:
				b.add(boxOff, 3)
			}
			b.pad(1)
			if on {
				b.styled(m.th.Selection, sides[s], len(sides[s]))
			} else {
				b.add(sides[s], len(sides[s]))
			}
		}
		if !f.boolSet {
			b.pad(1)
			b.styled(m.th.Muted, "(unset)", 7)
		}
	case ctrlFree, ctrlText:
		f := t.fields[c.field]
		mark(focused)
		b.styled(m.th.Accent, penMark, 2)
		avail := w - 4
		if f.text.Value() == "" {
			ph := "type your answer"
			if c.kind == ctrlFree {
				ph = "type another answer or a note"
			}
			if avail > 0 {
				ph, w := fit(ph, avail, "")
				b.styled(m.th.Muted, ph, w)
			}
		} else if avail > 0 {
			s, _ := f.text.Window(avail)
			b.add(s, ansi.StringWidth(s))
		}
	case ctrlButton:
		mark(focused)
		label := "[ Continue ]"
		if len(m.tabs) == 1 || t.index < 0 {
			label = "[ Submit ]"
		}
		if focused {
			b.styled(m.th.Accent, label, len(label))
		} else {
			b.add(label, len(label))
		}
	case ctrlItem:
		mark(focused)
		l := tl.items[c.field]
		b.add(l.s, l.w)
	}
	l := b.line()
	if l.w > w+1 {
		s := ansi.Truncate(l.s, w+1, "")
		l = line{s: s, w: ansi.StringWidth(s)}
	}
	return l
}

// cursorIn returns the cursor column of text control ci, or -1.
func (m *Model) cursorIn(t *tab, ci, w int) int {
	c := t.ctrls[ci]
	if c.kind != ctrlFree && c.kind != ctrlText {
		return -1
	}
	avail := w - 4
	if avail <= 0 {
		return -1
	}
	_, col := t.fields[c.field].text.Window(avail)
	return 1 + 2 + 2 + col
}

// reviewBody lists every question with its answer so far, then Submit.
func (m *Model) reviewBody(t *tab, tl *tabLayout, w int, out []bline, top []int) ([]bline, []int) {
	for ci, c := range t.ctrls {
		if c.kind == ctrlButton {
			out = append(out, bline{ctrl: -1})
		}
		top[ci] = len(out)
		out = append(out, bline{line: m.ctrlLine(t, tl, ci, w), ctrl: ci, mark: true})
		if c.kind != ctrlItem {
			continue
		}
		qt := m.tabs[c.field]
		a, bad := qt.answer()
		var b builder
		b.pad(6)
		avail := w - 5
		if bad != nil {
			s := ansi.Truncate("✗ not answered yet", max(avail, 0), ellipsis)
			b.styled(m.th.Error, s, ansi.StringWidth(s))
		} else {
			s := ansi.Truncate(safetext.Line(summary(&a)), max(avail, 0), ellipsis)
			b.styled(m.th.Selection, s, ansi.StringWidth(s))
		}
		l := b.line()
		if l.w > w+1 {
			l = line{}
		}
		out = append(out, bline{line: l, ctrl: ci})
	}
	return out, top
}

// summary is a one-line reading of an answer.
func summary(a *contract.Answer) string {
	var parts []string
	switch {
	case a.Value != nil && !a.Value.IsForm:
		if a.Value.Bool {
			return "✓ True"
		}
		return "✓ False"
	case a.Value != nil:
		for _, e := range a.Value.Form {
			parts = append(parts, e.Name+": "+valueText(e.Value))
		}
		if len(parts) == 0 {
			return "✓ (nothing filled in)"
		}
		return "✓ " + strings.Join(parts, " · ")
	}
	parts = append(parts, a.Selections...)
	if a.FreeText != "" {
		parts = append(parts, "“"+a.FreeText+"”")
	}
	return "✓ " + strings.Join(parts, ", ")
}

func valueText(v contract.Value) string {
	if b, ok := v.Bool(); ok {
		return strconv.FormatBool(b)
	}
	if s, ok := v.String(); ok {
		return s
	}
	list, _ := v.Strings()
	return strings.Join(list, ", ")
}

// headerLine is the questionnaire's header with the time left on the
// right.
func (m *Model) headerLine(width int) line {
	clock, st := "No timeout", m.th.Muted
	if !m.noTimeout && m.countdown != nil {
		if left, ok := m.countdown.Remaining(); ok {
			clock, st = clockMark+formatLeft(left), m.th.Muted
			if left <= lowTime {
				st = m.th.Warning
			}
		}
	}
	cwid := textWidth(clock)
	title := m.title
	if title == "" {
		title = "Question"
		if len(m.req.Questions) > 1 {
			title = strconv.Itoa(len(m.req.Questions)) + " questions"
		}
	}
	var b builder
	if width < cwid+2 {
		s := ansi.Truncate(clock, width, "")
		b.styled(st, s, ansi.StringWidth(s))
		return b.line()
	}
	b.pad(1)
	avail := width - cwid - 3
	if avail > 0 {
		s, w := fit(title, avail, ellipsis)
		b.styled(m.th.Accent, s, w)
	}
	b.pad(width - 1 - b.w - cwid)
	b.styled(st, clock, cwid)
	return b.line()
}

// tabsLine shows one tab per question and the review tab. The current tab
// is bracketed and in the accent colour; answered questions are checked.
// Titles are cut to the widest length that fits, down to tabCut columns;
// below that the other tabs show only their numbers and the current one
// keeps what room is left. When even that does not fit it shows
// "‹ 2/4 Title ›".
func (m *Model) tabsLine(width int) line {
	tb := tabBar{th: m.th, labels: m.tabLabels, done: make([]bool, len(m.tabs)), cur: m.cur, numbered: len(m.req.Questions)}
	for i, t := range m.tabs {
		tb.done[i] = t.index >= 0 && t.answered()
	}
	if tb.width(0, 0) <= width {
		return tb.build(0, 0)
	}
	// The widest cut of the titles that fits, found by bisection on the
	// widths alone; the line itself is built once.
	const tabCut = 10
	lo, hi := tabCut, 0
	for _, l := range m.tabLabels {
		hi = max(hi, l.w)
	}
	best := -1
	for lo <= hi {
		mid := (lo + hi) / 2
		if tb.width(mid, mid) <= width {
			best, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	if best >= 0 {
		return tb.build(best, best)
	}
	if w := tb.width(-1, 0); w <= width {
		return tb.build(-1, 0)
	} else if cw := m.tabLabels[m.cur].w - (w - width); cw >= 6 {
		return tb.build(-1, cw)
	}
	if t := m.tabs[m.cur]; t.index >= 0 {
		return tb.compact(t.title, width)
	}
	return tb.compact(m.tabLabels[m.cur].s, width)
}

func (m *Model) msgLine(width int) line {
	var b builder
	s := ansi.Truncate(" ⚠ "+m.msg, width, ellipsis)
	b.styled(m.th.Error, s, ansi.StringWidth(s))
	return b.line()
}
