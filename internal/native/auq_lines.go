package native

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
)

// QuestionLines asks AskUserQuestion requests through an Inputter. It
// implements ask.Renderer[*auq.Request, auq.Result], holds no state
// between calls, and is safe for concurrent use when its Inputter is.
type QuestionLines struct {
	in Inputter
}

var _ ask.Renderer[*auq.Request, auq.Result] = (*QuestionLines)(nil)

// NewQuestionLines returns a QuestionLines that asks through in, which
// must not be nil.
func NewQuestionLines(in Inputter) *QuestionLines {
	if in == nil {
		panic("native: NewQuestionLines needs an Inputter")
	}
	return &QuestionLines{in: in}
}

// Render asks s.Request as the package comment's "AskUserQuestion
// through input boxes" describes and returns the submitted result, or
// QuestionOutcome{Dismissed: true}. Each answer is reported as
// auq.MilestoneQuestionAnswered, the review as auq.MilestoneReviewReady,
// and the end as auq.MilestoneSubmitted or auq.MilestoneDismissed,
// through s.Progress. When ctx is done, or the
// countdown expires, it returns at once with the context's cause; an
// error from the Inputter is returned as it is.
func (r *QuestionLines) Render(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	if d, ok := s.Countdown.Deadline(); ok {
		// The core owns the deadline; carrying it in the context lets the
		// boxes show the time left.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	f := &lineFlow{in: r.in, req: s.Request, states: make([]lineState, len(s.Request.Questions))}
	ok, err := f.run(ctx, s)
	if err != nil {
		return ask.Outcome[auq.Result]{}, err
	}
	if !ok {
		s.Progress(auq.MilestoneDismissed)
		return ask.Outcome[auq.Result]{Dismissed: true}, nil
	}
	s.Progress(auq.MilestoneSubmitted)
	return ask.Outcome[auq.Result]{Answer: lineResult(s.Request, f.states)}, nil
}

// lineState is one question's answer and notes as they stand.
type lineState struct {
	answered bool
	// chosen are the chosen options' indexes, in option order; the index
	// len(options) is Other, whose text is other.
	chosen []int
	other  string
	qnote  string
	// notes are the option notes by option index, Other's included.
	notes map[int]string
}

type lineFlow struct {
	in     Inputter
	req    *auq.Request
	states []lineState
}

// run asks every question, then the review when there are several. It
// reports false when the user dismissed a box.
func (f *lineFlow) run(ctx context.Context, s *ask.Session[*auq.Request]) (bool, error) {
	for i := range f.req.Questions {
		ok, err := f.question(ctx, i)
		if !ok || err != nil {
			return false, err
		}
		s.Progress(auq.MilestoneQuestionAnswered)
	}
	if len(f.req.Questions) == 1 {
		return true, nil
	}
	s.Progress(auq.MilestoneReviewReady)
	for {
		reply, ok, err := f.in.Input(ctx, f.reviewTitle(), "Enter submits")
		if !ok || err != nil {
			return false, err
		}
		reply = strings.TrimSpace(reply)
		if reply == "" {
			return true, nil
		}
		n, ok := choiceNumber(reply, len(f.req.Questions))
		if !ok {
			if _, ok, err := f.in.Input(ctx, fmt.Sprintf("Not accepted: %q is not a question number from 1 to %d. Press Enter to see the review again.", reply, len(f.req.Questions)), ""); !ok || err != nil {
				return false, err
			}
			continue
		}
		ok, err = f.question(ctx, n-1)
		if !ok || err != nil {
			return false, err
		}
		s.Progress(auq.MilestoneQuestionAnswered)
	}
}

// question asks question i and its notes until they are accepted.
func (f *lineFlow) question(ctx context.Context, i int) (bool, error) {
	q := &f.req.Questions[i]
	st := lineState{qnote: f.states[i].qnote, notes: f.states[i].notes}
	why := ""
	warnedEmpty := false
	for {
		title := f.questionTitle(i)
		if why != "" {
			title = "Not accepted: " + why + "\n" + title
		}
		reply, ok, err := f.in.Input(ctx, title, f.placeholder(q))
		if !ok || err != nil {
			return false, err
		}
		c, msg := parseLineReply(q, reply)
		if msg != "" {
			why, warnedEmpty = msg, false
			continue
		}
		switch {
		case c.skip && q.IsRequired():
			why, warnedEmpty = "this question needs an answer", false
			continue
		case c.skip:
			st.answered, st.chosen, st.other = false, nil, ""
		case c.empty && !warnedEmpty:
			why, warnedEmpty = "no option is chosen; press Enter again to answer with none", true
			continue
		case c.empty:
			st.answered, st.chosen, st.other = true, nil, ""
		default:
			st.answered, st.chosen, st.other = true, c.chosen, c.other
		}
		if st.answered && c.otherChosen && c.other == "" {
			text, ok, err := f.askText(ctx, "Your answer for Other, to "+strconv.Quote(q.Question), auq.MaxOtherTextLen)
			if !ok || err != nil {
				return false, err
			}
			st.other = text
		}
		break
	}
	if ok, err := f.askNotes(ctx, i, &st); !ok || err != nil {
		return false, err
	}
	f.states[i] = st
	return true, nil
}

// askText asks for a non-blank line of at most limit characters.
func (f *lineFlow) askText(ctx context.Context, title string, limit int) (string, bool, error) {
	t := title
	for {
		text, ok, err := f.in.Input(ctx, t, "")
		if !ok || err != nil {
			return "", false, err
		}
		text = strings.TrimSpace(text)
		if msg := checkText(text, limit); msg != "" {
			t = "Not accepted: " + msg + "\n" + title
			continue
		}
		return text, true, nil
	}
}

// checkText says what is wrong with a text the user typed, or "".
func checkText(text string, limit int) string {
	switch n := utf8.RuneCountInString(text); {
	case strings.TrimSpace(text) == "":
		return "type some text"
	case !utf8.ValidString(text):
		return "the text is not valid UTF-8"
	case n > limit:
		return fmt.Sprintf("that is %d characters; the limit is %d", n, limit)
	}
	return ""
}

// askNotes takes notes on question i until an empty line. It reports
// false when the user dismissed the box.
func (f *lineFlow) askNotes(ctx context.Context, i int, st *lineState) (bool, error) {
	q := &f.req.Questions[i]
	n := len(q.Options)
	why := ""
	for {
		title := fmt.Sprintf("Notes on %s: type a note on the question, or a number, a colon and a note on that option, as in 1: text (1 to %d; %d is Other). An empty line goes on.", q.Header, n+1, n+1)
		if why != "" {
			title = "Not accepted: " + why + "\n" + title
		}
		line, ok, err := f.in.Input(ctx, title, "Enter goes on")
		if !ok || err != nil {
			return false, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return true, nil
		}
		opt, note := -1, line
		if at := strings.IndexByte(line, ':'); at > 0 {
			if k, err := strconv.Atoi(strings.TrimSpace(line[:at])); err == nil {
				if k < 1 || k > n+1 {
					why = fmt.Sprintf("there is no option %d; the options are 1 to %d", k, n+1)
					continue
				}
				opt, note = k-1, strings.TrimSpace(line[at+1:])
			}
		}
		if msg := checkText(note, auq.MaxNoteLen); msg != "" {
			why = msg
			continue
		}
		why = ""
		if opt < 0 {
			st.qnote = note
			continue
		}
		if st.notes == nil {
			st.notes = map[int]string{}
		}
		st.notes[opt] = note
	}
}

// lineChoice is a parsed reply to a question.
type lineChoice struct {
	skip, empty bool
	chosen      []int
	otherChosen bool
	other       string
}

// parseLineReply reads a reply to q, or says why it is not accepted.
func parseLineReply(q *auq.Question, reply string) (lineChoice, string) {
	r := strings.TrimSpace(reply)
	n := len(q.Options)
	switch {
	case r == "-":
		if q.IsRequired() {
			return lineChoice{}, "this question needs an answer"
		}
		return lineChoice{skip: true}, ""
	case r == "" && q.MultiSelect:
		return lineChoice{empty: true}, ""
	case r == "":
		return lineChoice{skip: true}, ""
	}
	fields := strings.FieldsFunc(r, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })
	if len(fields) == 0 {
		return lineChoice{}, fmt.Sprintf("type a number from 1 to %d, or your own answer", n+1)
	}
	if slices.ContainsFunc(fields, func(f string) bool { return !isNumber(f) }) {
		// Not a number list: the text is the Other answer.
		if msg := checkText(r, auq.MaxOtherTextLen); msg != "" {
			return lineChoice{}, msg
		}
		return lineChoice{chosen: []int{n}, otherChosen: true, other: r}, ""
	}
	// Other is the number after the options.
	nums, bad := readNumbers(fields, n+1)
	switch {
	case bad == nil:
	case bad.twice:
		return lineChoice{}, fmt.Sprintf("option %d is given twice", bad.n)
	default:
		return lineChoice{}, fmt.Sprintf("there is no option %d; type a number from 1 to %d", bad.n, n+1)
	}
	if !q.MultiSelect && len(nums) > 1 {
		return lineChoice{}, "choose one option: this question takes one answer"
	}
	var c lineChoice
	slices.Sort(nums)
	for _, k := range nums {
		c.chosen = append(c.chosen, k-1)
	}
	c.otherChosen = slices.Contains(nums, n+1)
	return c, ""
}

// placeholder says what a reply to q may be.
func (f *lineFlow) placeholder(q *auq.Question) string {
	s := "a number, or your own answer"
	if q.MultiSelect {
		s = "numbers such as 1,3, or your own answer"
	}
	if !q.IsRequired() {
		s += "; - skips"
	}
	return s
}

// questionTitle is the box's text for question i.
func (f *lineFlow) questionTitle(i int) string {
	q := &f.req.Questions[i]
	var b strings.Builder
	fmt.Fprintf(&b, "Question %d of %d · %s", i+1, len(f.req.Questions), q.Header)
	if !q.IsRequired() {
		b.WriteString(" (optional)")
	}
	if q.MultiSelect {
		b.WriteString(" · choose any")
	}
	b.WriteString("\n" + q.Question)
	for k, o := range q.Options {
		fmt.Fprintf(&b, "\n  %d. %s", k+1, o.Label)
		if o.Recommended {
			b.WriteString(" (recommended)")
		}
		b.WriteString(" — " + o.Description)
		if o.Preview != "" && !q.MultiSelect {
			for l := range strings.SplitSeq(o.Preview, "\n") {
				b.WriteString("\n     │ " + l)
			}
		}
	}
	fmt.Fprintf(&b, "\n  %d. %s — type your own answer", len(q.Options)+1, auq.OtherLabel)
	if st := f.states[i]; st.answered || st.qnote != "" {
		b.WriteString("\nNow: " + f.summary(i))
	}
	return b.String()
}

// reviewTitle lists every answer and note.
func (f *lineFlow) reviewTitle() string {
	var b strings.Builder
	b.WriteString("Review your answers:")
	for i, q := range f.req.Questions {
		fmt.Fprintf(&b, "\n  %d. %s: %s", i+1, q.Header, f.summary(i))
	}
	fmt.Fprintf(&b, "\nPress Enter to submit, or type a question's number (1 to %d) to change its answer.", len(f.req.Questions))
	return b.String()
}

// summary is question i's answer and notes in one line.
func (f *lineFlow) summary(i int) string {
	q := &f.req.Questions[i]
	st := &f.states[i]
	var parts []string
	switch {
	case !st.answered:
		parts = append(parts, "not answered")
	case len(st.chosen) == 0:
		parts = append(parts, "none")
	}
	for _, k := range st.chosen {
		if k == len(q.Options) {
			parts = append(parts, auq.OtherLabel+": "+strconv.Quote(st.other))
		} else {
			parts = append(parts, q.Options[k].Label)
		}
	}
	s := strings.Join(parts, ", ")
	for k := range len(q.Options) + 1 {
		if n, ok := st.notes[k]; ok {
			label := auq.OtherLabel
			if k < len(q.Options) {
				label = q.Options[k].Label
			}
			s += fmt.Sprintf("; note on %s: %q", label, n)
		}
	}
	if st.qnote != "" {
		s += fmt.Sprintf("; note: %q", st.qnote)
	}
	return s
}

// lineResult is the result of states, one per question of req, in order.
func lineResult(req *auq.Request, states []lineState) auq.Result {
	var res auq.Result
	for i := range req.Questions {
		q := &req.Questions[i]
		st := &states[i]
		n := len(q.Options)
		choiceOf := func(k int) auq.Choice {
			if k == n {
				return auq.Choice{Label: auq.OtherLabel, Other: true, Text: st.other}
			}
			return auq.Choice{OptionID: q.Options[k].ID, Label: q.Options[k].Label}
		}
		if st.answered {
			if res.Answers == nil {
				res.Answers = map[string]auq.Answer{}
			}
			a := auq.Answer{Kind: auq.KindSingle}
			if q.MultiSelect {
				a.Kind = auq.KindMulti
				for _, k := range st.chosen {
					a.Selections = append(a.Selections, choiceOf(k))
				}
				a.Empty = len(a.Selections) == 0
			} else {
				a.Choice = choiceOf(st.chosen[0])
			}
			res.Answers[q.ID] = a
		}
		var ann auq.Annotations
		ann.QuestionNotes = st.qnote
		for k, note := range st.notes {
			if ann.OptionNotes == nil {
				ann.OptionNotes = map[string]string{}
			}
			key := auq.OtherNoteKey
			if k < n {
				key = q.Options[k].ID
			}
			ann.OptionNotes[key] = note
		}
		if st.answered && !q.MultiSelect && st.chosen[0] < n {
			ann.SelectedPreview = q.Options[st.chosen[0]].Preview
		}
		if ann.QuestionNotes != "" || ann.OptionNotes != nil || ann.SelectedPreview != "" {
			if res.Annotations == nil {
				res.Annotations = map[string]auq.Annotations{}
			}
			res.Annotations[q.ID] = ann
		}
	}
	return res
}
