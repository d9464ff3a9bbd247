package dialog

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/internal/safetext"
)

// layout is the text of every question wrapped and cut for one width,
// built once per question and width, so that a frame only composes rows.
type layout struct {
	width int
	qs    []*qlayout
	// summary is the review's list of answers and notes, laid out when
	// the model's state was at version summaryVer.
	summary    []bline
	summaryVer int
}

// qlayout is one question's text at one width.
type qlayout struct {
	bodyW, prevW int  // the body's width after the margin, the preview's
	side         bool // the preview beside the options
	heading      []line
	labels       []line   // cut to fit their row, Other last
	rec          string   // the recommended option's mark, shorter when narrow
	descs        [][]line // one per option, Other last
	notes        [][]line // one per option, Other last
	qnote        []line
	previews     [][]line // one per request option; nil for none
}

// Widths of the parts of an option row: " ▸ (●) label (recommended) ✎".
const (
	optIndent  = 7 // margin, focus mark, box and a space
	recSuffix  = " (recommended)"
	recShort   = " ★"
	noteSuffix = " ✎"
)

func newQLayout(q *question, width int, th Theme) *qlayout {
	ql := &qlayout{}
	ql.bodyW, ql.prevW, ql.side = splitWidth(width, q.hasPreview, 2)
	bw := ql.bodyW
	head := q.text
	if !q.q.IsRequired() {
		head += " (optional)"
	}
	ql.heading = indented(head, 1, width, th.Accent.Render)
	ql.rec = recSuffix
	for i, l := range q.labels {
		avail := bw + 1 - optIndent - len(noteSuffix)
		if i == q.rec {
			if avail-len(recSuffix) < min(ansi.StringWidth(l), 12) {
				ql.rec = recShort
			}
			avail -= ansi.StringWidth(ql.rec)
		}
		ql.labels = append(ql.labels, truncLine(l, avail))
		desc := ""
		if i < q.n {
			desc = q.descs[i]
		} else if q.other != "" {
			desc = "“" + safetext.Line(q.other) + "”"
		} else {
			desc = "type your own answer"
		}
		ql.descs = append(ql.descs, indented(desc, optIndent, bw+1, th.Muted.Render))
		ql.notes = append(ql.notes, noteLines(q.notes[i], optIndent, bw+1))
	}
	ql.qnote = noteLines(q.qnote, 1, bw+1)
	if q.hasPreview {
		pw := ql.prevW
		for _, p := range q.previews {
			var ls []line
			if p != "" {
				for _, s := range wrap(p, pw) {
					s = strings.TrimRight(s, " ")
					ls = append(ls, line{s: s, w: ansi.StringWidth(s)})
				}
			}
			ql.previews = append(ql.previews, ls)
		}
	}
	return ql
}

// noteLines wraps a note after an indent of n cells in width cells, with
// the note mark on its first row; "" gives none.
func noteLines(note string, n, width int) []line {
	if note == "" {
		return nil
	}
	// The person's own text holds no control, but may hold invisible
	// characters: shown as everywhere else.
	ls := indented(safetext.Line(note), n+2, width, func(s string) string { return s })
	if len(ls) > 0 {
		ls[0].s = strings.Repeat(" ", n) + penMark + ls[0].s[n+2:]
	}
	return ls
}

// layoutAt returns the layout for width: the model's own when it is for
// that width, else a new one that is not kept.
func (m *Questions) layoutAt(width int) *layout {
	if m.lay != nil && m.lay.width == width {
		return m.lay
	}
	return &layout{width: width, qs: make([]*qlayout, len(m.qs))}
}

// qlayout returns question i's layout, building it when lay does not
// hold it yet, without keeping it.
func (m *Questions) qlayout(lay *layout, i int) *qlayout {
	if ql := lay.qs[i]; ql != nil {
		return ql
	}
	return newQLayout(m.qs[i], lay.width, m.th)
}

// relayout brings the model's layout to the size SetSize gave, and keeps
// where the shown body is scrolled to, so that the focus stays in view.
func (m *Questions) relayout() {
	m.planned = nil
	if m.width <= 0 || m.rows <= 0 {
		return
	}
	if m.lay == nil || m.lay.width != m.width {
		m.lay = &layout{width: m.width, qs: make([]*qlayout, len(m.qs))}
	}
	if !m.inReview() && m.lay.qs[m.cur] == nil {
		m.lay.qs[m.cur] = newQLayout(m.qs[m.cur], m.width, m.th)
	}
	if m.inReview() && !m.help && (m.lay.summary == nil || m.lay.summaryVer != m.ver) {
		m.lay.summary, m.lay.summaryVer = m.summaryLines(max(m.width-1, 0)), m.ver
	}
	p := m.plan(m.lay, m.width, m.rows)
	m.planned = p
	switch {
	case m.help:
		// The help is not scrolled, and keeps the view's scroll under it.
	case m.inReview():
		m.reviewScroll = p.scroll
	default:
		q := m.qs[m.cur]
		q.scroll = p.scroll
		q.pscroll, q.pfor, q.pageH = p.pscroll, q.focus, p.pageH
	}
}
