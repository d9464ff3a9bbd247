package dialog

import (
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/safetext"
)

// Questions is the AskUserQuestion dialog: the state of one request on
// screen, with the question shown, the focus, every answer, note and
// draft so far, and the review's picker. Update changes it; View draws
// it. Neither does I/O, starts goroutines or reads a clock.
//
// One question is answered and submitted in one step. Several questions
// are shown as tabs, one per header; once every required question has an
// answer, a review lists the answers and notes and offers Submit or a way
// back to any question. Every question has an automatic Other answer, a
// note per option and a note for the question, each typed in a one-line
// input. Single-select questions may show a preview of the focused
// option, as plain text.
//
// A Questions keeps every answer, note, draft, focus and review choice,
// so a host that hides the dialog (EffectToggleHide) and shows it again
// keeps all of it simply by keeping the Questions. It is not safe for
// concurrent use, except that View may be called from several goroutines
// at once while none calls Update or SetSize.
type Questions struct {
	req       *auq.Request
	th        Theme
	countdown Countdown
	// dismissHint is Options.DismissHint.
	dismissHint string

	qs  []*question
	cur int // index into qs, or len(qs) for the review
	// tabLabels are the tab bar's labels: the headers, then "Review".
	tabLabels []measured

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
	planned *qplan
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

// NewQuestions returns the dialog for req, which must be a request
// auq.Parse or auq.Validate accepted: it relies on its rules (1 to 8
// questions, 2 to 4 options, previews only on single-select questions)
// and does not check them again. Each question opens with the focus on its recommended option,
// else on its first. opts may be nil.
func NewQuestions(req *auq.Request, opts *Options) *Questions {
	m := &Questions{req: req, emptyArmed: -1}
	m.th, m.countdown = themeOf(opts)
	if opts != nil {
		m.dismissHint = opts.DismissHint
	}
	for i := range req.Questions {
		m.qs = append(m.qs, newQuestion(&req.Questions[i]))
		m.tabLabels = append(m.tabLabels, m.qs[i].header)
	}
	m.tabLabels = append(m.tabLabels, measure("Review"))
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
func (m *Questions) inReview() bool { return m.cur == len(m.qs) }

// several reports whether the request has more than one question, and so
// tabs and a review.
func (m *Questions) several() bool { return len(m.qs) > 1 }

// view is the screen keys go to.
func (m *Questions) mode() mode {
	switch {
	case m.help:
		return modeHelp
	case m.input != nil:
		return modeInput
	case m.inReview():
		return modeReview
	}
	return modeList
}

// missing returns the required questions that have no answer yet.
func (m *Questions) missing() []int {
	var out []int
	for i, q := range m.qs {
		if q.q.IsRequired() && !q.answered() {
			out = append(out, i)
		}
	}
	return out
}
