package auqdialog

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/dialog"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/theme"
)

// Model is the state of one AskUserQuestion request on screen: the
// question shown, the focus, every answer, note and draft so far, and the
// review's picker. Update changes it; View draws it. Neither does I/O,
// starts goroutines or reads a clock. A Model is not safe for concurrent
// use.
type Model struct {
	req       *auq.Request
	th        theme.Theme
	countdown dialog.Countdown

	qs  []*question
	cur int // index into qs, or len(qs) for the review

	// pick is the review picker's choice: 0 is Submit, 1+i goes back to
	// question i. reviewScroll is the review's first body line shown.
	pick         int
	reviewScroll int

	help  bool     // the help screen is open
	input *editing // the open Other or note input, or nil

	// escArmed is set by a first Esc, and emptyArmed (a question index,
	// or -1) by a first Enter on an empty multi-select: the same key
	// next confirms. Any other key disarms them.
	escArmed   bool
	emptyArmed int
	// msg is a notice shown until the next key.
	msg string
	// ver counts the keys that may have changed an answer or a note:
	// every key outside the review and the help.
	ver int

	// width and rows are the size the host last gave with SetSize, and
	// lay the text laid out at that width; View draws other sizes with a
	// layout of its own and changes nothing.
	width, rows int
	lay         *layout
	// planned is the frame at that size as the last Update or SetSize
	// laid it out; View draws it with the countdown read afresh.
	planned *plan
}

// target is what an input edits.
type target uint8

const (
	targetOther        target = iota // the Other answer's text
	targetOptionNote                 // the note on option editing.opt
	targetQuestionNote               // the note on the question
)

// editing is an open one-line input.
type editing struct {
	q      int
	target target
	opt    int // the option for targetOptionNote; len(options) is Other
	text   textInput
}

// question is one question and everything the user gave it. Option
// indexes run over the request's options and then Other, at index n.
type question struct {
	q      *auq.Question
	n      int // the number of the request's options
	multi  bool
	header measured
	text   string   // the question, sanitized
	labels []string // sanitized, Other last
	descs  []string // sanitized, one per request option
	// previews are the sanitized previews, one per request option; a
	// question has a preview pane when it is single-select and any option
	// has one.
	previews   []string
	hasPreview bool
	rec        int // the recommended option, or -1

	focus   int
	chosen  int    // single-select: the answer, or -1
	sel     []bool // multi-select: ticked options, Other last
	emptyOK bool   // multi-select: an empty answer was confirmed
	other   string // the saved Other text
	notes   []string
	qnote   string
	scroll  int
	// pscroll is the first preview line shown, for the option pfor; a
	// preview of another option starts at its top. pageH is the preview's
	// height in the last layout, which paging moves by.
	pscroll, pfor, pageH int
}

// New returns a Model for req, which must be a request auq.Parse or
// auq.Validate accepted: New relies on its rules (1 to 8 questions, 2 to 4 options,
// previews only on single-select questions) and does not check them
// again. Each question opens with the focus on its recommended option,
// else on its first. opts may be nil.
func New(req *auq.Request, opts *Options) *Model {
	m := &Model{req: req, emptyArmed: -1}
	if opts == nil {
		m.th = theme.Default()
	} else {
		m.th = opts.Theme
		m.countdown = opts.Countdown
	}
	for i := range req.Questions {
		m.qs = append(m.qs, newQuestion(&req.Questions[i]))
	}
	return m
}

func newQuestion(q *auq.Question) *question {
	n := len(q.Options)
	s := &question{
		q: q, n: n, multi: q.MultiSelect,
		header: measure(safetext.Line(q.Header)),
		text:   safetext.Text(q.Question),
		chosen: -1,
		sel:    make([]bool, n+1),
		notes:  make([]string, n+1),
		rec:    q.Recommended(),
	}
	for _, o := range q.Options {
		s.labels = append(s.labels, safetext.Line(o.Label))
		s.descs = append(s.descs, safetext.Text(o.Description))
		s.previews = append(s.previews, safetext.Text(o.Preview))
		if o.Preview != "" && !q.MultiSelect {
			s.hasPreview = true
		}
	}
	s.labels = append(s.labels, auq.OtherLabel)
	s.focus = max(s.rec, 0)
	return s
}

// answered reports whether the question has an answer.
func (q *question) answered() bool {
	if !q.multi {
		return q.chosen >= 0
	}
	return q.emptyOK || anyTrue(q.sel)
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// inReview reports whether the review is shown.
func (m *Model) inReview() bool { return m.cur == len(m.qs) }

// several reports whether the request has more than one question, and so
// tabs and a review.
func (m *Model) several() bool { return len(m.qs) > 1 }

// view is the screen keys go to.
func (m *Model) view() view {
	switch {
	case m.help:
		return viewHelp
	case m.input != nil:
		return viewInput
	case m.inReview():
		return viewReview
	}
	return viewList
}

// missing returns the required questions that have no answer yet.
func (m *Model) missing() []int {
	var out []int
	for i, q := range m.qs {
		if q.q.IsRequired() && !q.answered() {
			out = append(out, i)
		}
	}
	return out
}

// measured is one line of safe text split into grapheme clusters with
// their widths, measured once so that the tabs row can cut it to any
// width on every frame without measuring it again.
type measured struct {
	s    string
	ends []int // the byte offset after each cluster
	ws   []int // each cluster's width
	w    int
}

func measure(s string) measured {
	m := measured{s: s}
	for i := 0; i < len(s); {
		c, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		i += max(len(c), 1)
		m.ends = append(m.ends, i)
		m.ws = append(m.ws, w)
		m.w += w
	}
	return m
}

// cutWidth returns the width of the text cut to at most w cells, an
// ellipsis in place of what was cut.
func (m measured) cutWidth(w int) int {
	_, cw := m.cutAt(w)
	return cw
}

// cut returns the text cut to at most w cells, an ellipsis in place of
// what was cut, and its width.
func (m measured) cut(w int) (string, int) {
	end, cw := m.cutAt(w)
	if end < 0 {
		return m.s, m.w
	}
	if cw == 0 {
		return "", 0
	}
	return m.s[:end] + "…", cw
}

// cutAt returns the end of what cut keeps (-1: all of it) and the width
// with the ellipsis.
func (m measured) cutAt(w int) (int, int) {
	if m.w <= w {
		return -1, m.w
	}
	if w < 1 {
		return 0, 0
	}
	end, cur := 0, 0
	for k, cw := range m.ws {
		if cur+cw > w-1 {
			break
		}
		cur += cw
		end = m.ends[k]
	}
	return end, cur + 1
}
