package native

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
)

// The entries the lists add to a question's options.
const (
	OtherEntry  = "Other…"
	NoteEntry   = "Add a note…"
	SkipEntry   = "Skip"
	DoneEntry   = "Done"
	SubmitEntry = "Submit"
)

// QuestionDialogs asks AskUserQuestion requests through a Selector and an
// Inputter, as the package comment's "AskUserQuestion through lists"
// describes. It implements ask.Renderer[*auq.Request, auq.Result],
// holds no state between calls, and is safe for concurrent use when they
// are.
type QuestionDialogs struct {
	sel Selector
	in  Inputter
}

var _ ask.Renderer[*auq.Request, auq.Result] = (*QuestionDialogs)(nil)

// NewQuestionDialogs returns a QuestionDialogs that asks through sel and in.
func NewQuestionDialogs(sel Selector, in Inputter) *QuestionDialogs {
	return &QuestionDialogs{sel: sel, in: in}
}

// Render implements ask.Renderer[*auq.Request, auq.Result].
func (r *QuestionDialogs) Render(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	f := &dialogFlow{r: r, s: s, req: s.Request, qs: make([]*dialogState, len(s.Request.Questions))}
	for i := range f.qs {
		f.qs[i] = &dialogState{q: &s.Request.Questions[i], chosen: -1, notes: map[string]string{}}
	}
	res, err := f.run(ctx)
	if errors.Is(err, errDismissed) {
		s.Progress(auq.MilestoneDismissed)
		return ask.Outcome[auq.Result]{Dismissed: true}, nil
	}
	if err != nil {
		return ask.Outcome[auq.Result]{}, err
	}
	s.Progress(auq.MilestoneSubmitted)
	return ask.Outcome[auq.Result]{Answer: res}, nil
}

// dialogState is one question's answer and notes so far.
type dialogState struct {
	q        *auq.Question
	answered bool
	chosen   int    // single-select: the option, -1 for none, len(options) for Other
	ticked   []bool // multi-select: one per option, then Other
	other    string // the Other text
	qnote    string
	notes    map[string]string // by option id or auq.OtherNoteKey
}

type dialogFlow struct {
	r      *QuestionDialogs
	s      *ask.Session[*auq.Request]
	req    *auq.Request
	qs     []*dialogState
	opened bool
}

func (f *dialogFlow) run(ctx context.Context) (auq.Result, error) {
	for i := range f.qs {
		if err := f.question(ctx, i); err != nil {
			return auq.Result{}, err
		}
	}
	if len(f.qs) > 1 {
		f.s.Progress(auq.MilestoneReviewReady)
		if err := f.review(ctx); err != nil {
			return auq.Result{}, err
		}
	}
	return f.result(), nil
}

// selectOne shows a list and returns the index of the entry chosen.
// Dismissal is errDismissed.
func (f *dialogFlow) selectOne(ctx context.Context, title string, choices []string) (int, error) {
	if !f.opened {
		f.opened = true
		f.s.Progress(auq.MilestoneDialogOpened)
	}
	v, ok, err := f.r.sel.Select(ctx, title, choices)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errDismissed
	}
	i := slices.Index(choices, v)
	if i < 0 {
		return 0, fmt.Errorf("the list returned %q, which is not one of its choices", v)
	}
	return i, nil
}

// input asks for one line. ok is false when the user dismissed it, and
// the text is trimmed.
func (f *dialogFlow) input(ctx context.Context, title, placeholder string) (string, bool, error) {
	v, ok, err := f.r.in.Input(ctx, title, placeholder)
	if err != nil || !ok {
		return "", false, err
	}
	return strings.TrimSpace(v), true, nil
}

// title is the heading of question i's list.
func (f *dialogFlow) title(i int, warn string) string {
	q := f.qs[i].q
	t := q.Header + ": " + q.Question
	if len(f.qs) > 1 {
		t = fmt.Sprintf("%s (%d of %d): %s", q.Header, i+1, len(f.qs), q.Question)
	}
	if !q.IsRequired() {
		t += " (optional)"
	}
	// A list shows no preview beside its options: the title holds them.
	for k := range q.Options {
		if o := &q.Options[k]; o.Preview != "" {
			t += "\n\n" + o.Label + " (preview):\n" + o.Preview
		}
	}
	if warn != "" {
		t = warn + "\n" + t
	}
	return t
}

func optionLine(o *auq.Option) string {
	label := o.Label
	if o.Recommended {
		label += " (recommended)"
	}
	return label + " — " + o.Description
}

// question asks question i until the user answers or skips it.
func (f *dialogFlow) question(ctx context.Context, i int) error {
	st := f.qs[i]
	q := st.q
	n := len(q.Options)
	if q.MultiSelect && st.ticked == nil {
		st.ticked = make([]bool, n+1)
	}
	warn := ""
	emptyArmed := false
	for {
		var choices []string
		for k := range q.Options {
			line := optionLine(&q.Options[k])
			if q.MultiSelect {
				line = tick(st.ticked[k]) + line
			}
			choices = append(choices, line)
		}
		other := OtherEntry
		if q.MultiSelect {
			other = tick(st.ticked[n]) + OtherEntry
		}
		if st.other != "" {
			other += " (" + st.other + ")"
		}
		choices = append(choices, other, NoteEntry)
		if q.MultiSelect {
			choices = append(choices, DoneEntry)
		}
		if !q.IsRequired() {
			choices = append(choices, SkipEntry)
		}
		k, err := f.selectOne(ctx, f.title(i, warn), choices)
		if err != nil {
			return err
		}
		warn = ""
		armed := emptyArmed
		emptyArmed = false
		switch {
		case k < n && !q.MultiSelect:
			st.chosen, st.answered = k, true
			f.s.Progress(auq.MilestoneQuestionAnswered)
			return nil
		case k < n:
			st.ticked[k] = !st.ticked[k]
		case k == n:
			text, ok, err := f.input(ctx, "Other: "+q.Question, "your own answer")
			if err != nil {
				return err
			}
			if !ok || text == "" {
				continue // nothing saved: the answer stays as it was
			}
			if msg := tooLong(text, auq.MaxOtherTextLen); msg != "" {
				warn = msg + "; your text was not saved"
				continue
			}
			st.other = text
			if !q.MultiSelect {
				st.chosen, st.answered = n, true
				f.s.Progress(auq.MilestoneQuestionAnswered)
				return nil
			}
			st.ticked[n] = true
		case k == n+1:
			if warn, err = f.note(ctx, st); err != nil {
				return err
			}
		case choices[k] == DoneEntry:
			if !slices.Contains(st.ticked, true) && !armed {
				warn = "Nothing is ticked: choose Done again to answer with no option"
				emptyArmed = true
				continue
			}
			st.answered = true
			f.s.Progress(auq.MilestoneQuestionAnswered)
			return nil
		default: // SkipEntry
			st.answered = false
			st.chosen = -1
			if q.MultiSelect {
				clear(st.ticked)
			}
			return nil
		}
	}
}

func tick(on bool) string {
	if on {
		return "[x] "
	}
	return "[ ] "
}

// note asks which note to write and then the note. It returns a warning
// for the question's list when the note was too long to keep.
func (f *dialogFlow) note(ctx context.Context, st *dialogState) (string, error) {
	q := st.q
	targets := []string{"This question"}
	keys := []string{""}
	for k := range q.Options {
		targets = append(targets, "Option: "+q.Options[k].Label)
		keys = append(keys, q.Options[k].ID)
	}
	targets = append(targets, "Option: "+auq.OtherLabel)
	keys = append(keys, auq.OtherNoteKey)
	k, err := f.selectOne(ctx, "Add a note to: "+q.Question, targets)
	if errors.Is(err, errDismissed) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	cur := st.qnote
	if keys[k] != "" {
		cur = st.notes[keys[k]]
	}
	placeholder := "a note for the model; leave empty to remove the note"
	if cur != "" {
		placeholder = cur
	}
	text, ok, err := f.input(ctx, "Note on "+strings.TrimPrefix(targets[k], "Option: ")+" (saved: "+orNone(cur)+")", placeholder)
	if err != nil || !ok {
		return "", err
	}
	if msg := tooLong(text, auq.MaxNoteLen); msg != "" {
		return msg + "; your note was not saved", nil
	}
	if keys[k] == "" {
		st.qnote = text
	} else if text == "" {
		delete(st.notes, keys[k])
	} else {
		st.notes[keys[k]] = text
	}
	return "", nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// tooLong says why text is over limit characters, or "".
func tooLong(text string, limit int) string {
	if n := utf8.RuneCountInString(text); n > limit {
		return fmt.Sprintf("That was %d characters; the limit is %d", n, limit)
	}
	return ""
}

// review lists the answers and offers Submit or a way back to a
// question; a required question left without an answer sends the user
// back to it.
func (f *dialogFlow) review(ctx context.Context) error {
	for {
		var b strings.Builder
		b.WriteString("Review your answers:")
		choices := []string{SubmitEntry}
		for i, st := range f.qs {
			fmt.Fprintf(&b, "\n%s: %s", st.q.Header, f.summary(st))
			choices = append(choices, fmt.Sprintf("Change %d. %s", i+1, st.q.Header))
		}
		k, err := f.selectOne(ctx, b.String(), choices)
		if err != nil {
			return err
		}
		if k == 0 {
			return nil
		}
		if err := f.question(ctx, k-1); err != nil {
			return err
		}
	}
}

func (f *dialogFlow) summary(st *dialogState) string {
	if !st.answered {
		return "(no answer)"
	}
	a := st.answer()
	if a.Kind == auq.KindSingle {
		return choiceText(a.Choice)
	}
	if a.Empty {
		return "(none)"
	}
	parts := make([]string, len(a.Selections))
	for i, c := range a.Selections {
		parts[i] = choiceText(c)
	}
	return strings.Join(parts, ", ")
}

func choiceText(c auq.Choice) string {
	if c.Other {
		return auq.OtherLabel + ": " + c.Text
	}
	return c.Label
}

func (st *dialogState) answer() auq.Answer { return st.q.AnswerOf(st.chosen, st.ticked, st.other) }

// result is the answers and notes as the model gets them; the core adds
// the metadata.
func (f *dialogFlow) result() auq.Result {
	var res auq.Result
	for _, st := range f.qs {
		id := st.q.ID
		if st.answered {
			if res.Answers == nil {
				res.Answers = map[string]auq.Answer{}
			}
			res.Answers[id] = st.answer()
		}
		ann := auq.Annotations{QuestionNotes: st.qnote}
		if len(st.notes) > 0 {
			ann.OptionNotes = st.notes
		}
		if st.answered && !st.q.MultiSelect && st.chosen < len(st.q.Options) {
			ann.SelectedPreview = st.q.Options[st.chosen].Preview
		}
		if ann.QuestionNotes != "" || ann.OptionNotes != nil || ann.SelectedPreview != "" {
			if res.Annotations == nil {
				res.Annotations = map[string]auq.Annotations{}
			}
			res.Annotations[id] = ann
		}
	}
	return res
}
