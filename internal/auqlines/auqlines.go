// Package auqlines is the native route of the AskUserQuestion contract
// on a host that has single-line input boxes only, such as the line
// prompts of a terminal (internal/lineprompt), which suit screen readers.
//
// It asks one question at a time. The box lists the options numbered
// from 1, the recommended one marked and a single-select option's preview
// under it, and the automatic Other answer last. The reply is an option
// number, or for a multi-select question several separated by commas or
// spaces; any other text is the Other answer itself, and the number of
// Other asks for that text in a second box. "-" skips an optional
// question, as an empty reply does on a single-select one; on a
// multi-select question an empty reply warns first and answers with no
// option the second time in a row, as the dialog does. A reply that is
// not accepted opens the box again, its title saying why.
//
// After each answer a notes box takes notes one line at a time until an
// empty line: "2: text" notes option 2 (the number of Other notes the
// Other answer), and any other line is the note on the question, the
// last one kept. With several questions a review follows: it lists the
// answers and notes, an empty reply submits, and a question's number asks
// it again. Dismissing any box (Esc, then Enter, on a terminal) dismisses
// the whole request.
//
// Text from the model goes to the Inputter unchanged; the Inputter makes
// it safe for its display, as lineprompt does through safetext.
package auqlines

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/native"
)

// Renderer asks AskUserQuestion requests through an Inputter. It
// implements ask.QuestionRenderer, holds no state between calls, and is
// safe for concurrent use when its Inputter is.
type Renderer struct {
	in native.Inputter
}

var _ ask.QuestionRenderer = (*Renderer)(nil)

// New returns a Renderer that asks through in, which must not be nil.
func New(in native.Inputter) *Renderer {
	if in == nil {
		panic("auqlines: New needs an Inputter")
	}
	return &Renderer{in: in}
}

// RenderQuestions asks s.Request as the package comment describes and
// returns the submitted result, or QuestionOutcome{Dismissed: true}. Each
// answer is reported as auq.MilestoneQuestionAnswered, the review as
// auq.MilestoneReviewReady, and the end as auq.MilestoneSubmitted or
// auq.MilestoneDismissed, through s.Progress. When ctx is done, or the
// countdown expires, it returns at once with the context's cause; an
// error from the Inputter is returned as it is.
func (r *Renderer) RenderQuestions(ctx context.Context, s *ask.QuestionSession) (ask.QuestionOutcome, error) {
	if d, ok := s.Countdown.Deadline(); ok {
		// The core owns the deadline; carrying it in the context lets the
		// boxes show the time left.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	f := &flow{in: r.in, req: s.Request, states: make([]state, len(s.Request.Questions))}
	ok, err := f.run(ctx, s)
	if err != nil {
		return ask.QuestionOutcome{}, err
	}
	if !ok {
		s.Progress(auq.MilestoneDismissed)
		return ask.QuestionOutcome{Dismissed: true}, nil
	}
	s.Progress(auq.MilestoneSubmitted)
	return ask.QuestionOutcome{Result: build(s.Request, f.states)}, nil
}

// state is one question's answer and notes as they stand.
type state struct {
	answered bool
	// chosen are the chosen options' indexes, in option order; the index
	// len(options) is Other, whose text is other.
	chosen []int
	other  string
	qnote  string
	// notes are the option notes by option index, Other's included.
	notes map[int]string
}

type flow struct {
	in     native.Inputter
	req    *auq.Request
	states []state
}

// run asks every question, then the review when there are several. It
// reports false when the user dismissed a box.
func (f *flow) run(ctx context.Context, s *ask.QuestionSession) (bool, error) {
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
		n, err := strconv.Atoi(reply)
		if err != nil || n < 1 || n > len(f.req.Questions) {
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
func (f *flow) question(ctx context.Context, i int) (bool, error) {
	q := &f.req.Questions[i]
	st := state{qnote: f.states[i].qnote, notes: f.states[i].notes}
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
		c, msg := parseReply(q, reply)
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
func (f *flow) askText(ctx context.Context, title string, limit int) (string, bool, error) {
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
func (f *flow) askNotes(ctx context.Context, i int, st *state) (bool, error) {
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

// choice is a parsed reply to a question.
type choice struct {
	skip, empty bool
	chosen      []int
	otherChosen bool
	other       string
}

// parseReply reads a reply to q, or says why it is not accepted.
func parseReply(q *auq.Question, reply string) (choice, string) {
	r := strings.TrimSpace(reply)
	n := len(q.Options)
	switch {
	case r == "-":
		if q.IsRequired() {
			return choice{}, "this question needs an answer"
		}
		return choice{skip: true}, ""
	case r == "" && q.MultiSelect:
		return choice{empty: true}, ""
	case r == "":
		return choice{skip: true}, ""
	}
	fields := strings.FieldsFunc(r, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })
	if len(fields) == 0 {
		return choice{}, fmt.Sprintf("type a number from 1 to %d, or your own answer", n+1)
	}
	nums := make([]int, 0, len(fields))
	for _, s := range fields {
		k, err := strconv.Atoi(s)
		if err != nil || strings.ContainsAny(s, "+-") {
			// Not a number list: the text is the Other answer.
			if msg := checkText(r, auq.MaxOtherTextLen); msg != "" {
				return choice{}, msg
			}
			return choice{chosen: []int{n}, otherChosen: true, other: r}, ""
		}
		nums = append(nums, k)
	}
	seen := make([]bool, n+1)
	var c choice
	for _, k := range nums {
		if k < 1 || k > n+1 {
			return choice{}, fmt.Sprintf("there is no option %d; type a number from 1 to %d", k, n+1)
		}
		if seen[k-1] {
			return choice{}, fmt.Sprintf("option %d is given twice", k)
		}
		seen[k-1] = true
	}
	if !q.MultiSelect && len(nums) > 1 {
		return choice{}, "choose one option: this question takes one answer"
	}
	for i, on := range seen {
		if on {
			c.chosen = append(c.chosen, i)
		}
	}
	c.otherChosen = seen[n]
	return c, ""
}

// placeholder says what a reply to q may be.
func (f *flow) placeholder(q *auq.Question) string {
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
func (f *flow) questionTitle(i int) string {
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
func (f *flow) reviewTitle() string {
	var b strings.Builder
	b.WriteString("Review your answers:")
	for i, q := range f.req.Questions {
		fmt.Fprintf(&b, "\n  %d. %s: %s", i+1, q.Header, f.summary(i))
	}
	fmt.Fprintf(&b, "\nPress Enter to submit, or type a question's number (1 to %d) to change its answer.", len(f.req.Questions))
	return b.String()
}

// summary is question i's answer and notes in one line.
func (f *flow) summary(i int) string {
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

// build is the result of states, one per question of req, in order.
func build(req *auq.Request, states []state) auq.Result {
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
