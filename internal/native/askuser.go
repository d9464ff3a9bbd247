package native

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// Renderer asks questionnaires through an Inputter and an optional
// Selector. It implements ask.Renderer[*contract.Request,
// []contract.Answer] and ask.Checker. A Renderer holds no state between
// calls and is safe for concurrent use when its Inputter and Selector
// are.
type Renderer struct {
	in  Inputter
	sel Selector
}

var (
	_ ask.Renderer[*contract.Request, []contract.Answer] = (*Renderer)(nil)
	_ ask.Checker[*contract.Request]                     = (*Renderer)(nil)
)

// New returns a native Renderer that asks through in, which must not be
// nil, and sel, which is nil when the host has no selector. Without a
// selector, Check refuses requests that need one.
func New(in Inputter, sel Selector) *Renderer {
	if in == nil {
		panic("native: New needs an Inputter")
	}
	return &Renderer{in: in, sel: sel}
}

// Check reports, before any dialog opens, whether r can ask req: with
// allowFreeText:false, single and bool questions and form fields need a
// Selector, and there is no fallback to a text box.
func (r *Renderer) Check(req *contract.Request) error {
	if r.sel != nil || req.FreeTextAllowed() {
		return nil
	}
	for i, q := range req.Questions {
		switch q.Kind {
		case contract.KindSingle, contract.KindBool:
			return fmt.Errorf("questions[%d] is a %s question and allowFreeText is false, which needs a selector, and this host's native dialogs have none", i, q.Kind)
		case contract.KindForm:
			for j, f := range q.Fields {
				if f.Kind == contract.KindSingle || f.Kind == contract.KindBool {
					return fmt.Errorf("questions[%d].fields[%d] is a %s field and allowFreeText is false, which needs a selector, and this host's native dialogs have none", i, j, f.Kind)
				}
			}
		}
	}
	return nil
}

// Render asks the questions of s.Request one at a time and returns their
// answers, or Outcome{Dismissed: true} when the user dismissed any dialog.
// When ctx is done, or the session's countdown expires, it returns at once
// with the context's cause. An error from the Inputter or Selector is
// returned as it is.
func (r *Renderer) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	req := s.Request
	if err := r.Check(req); err != nil {
		return ask.Outcome[[]contract.Answer]{}, err
	}
	if d, ok := s.Countdown.Deadline(); ok {
		// The core owns the deadline; carrying it in the context lets the
		// dialogs show the time left and hosts pass it on as a timeout.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	f := &flow{in: r.in, sel: r.sel, req: req, free: req.FreeTextAllowed()}
	answers := make([]contract.Answer, 0, len(req.Questions))
	for i := range req.Questions {
		a, ok, err := f.question(ctx, i)
		if err != nil {
			return ask.Outcome[[]contract.Answer]{}, err
		}
		if !ok {
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		}
		answers = append(answers, a)
	}
	return ask.Outcome[[]contract.Answer]{Answer: answers}, nil
}

// flow asks one questionnaire.
type flow struct {
	in   Inputter
	sel  Selector
	req  *contract.Request
	free bool // allowFreeText
}

// errRequired is the re-prompt reason for an empty reply without default.
var errRequired = errors.New("an answer is required")

// box shows an input box until accept takes the reply, and reports
// ok=false when the user dismissed it. A rejected reply opens the box
// again, with the reason first in its title.
func (f *flow) box(ctx context.Context, t *title, placeholder string, accept func(reply string) error) (bool, error) {
	why := ""
	for {
		if ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		reply, ok, err := f.in.Input(ctx, t.render(why), placeholder)
		if ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		if err != nil || !ok {
			return false, err
		}
		err = accept(reply)
		if err == nil {
			return true, nil
		}
		if errors.Is(err, ErrEmpty) {
			err = errRequired
		}
		why = err.Error()
	}
}

// pick shows a selector and returns the index of the chosen entry, or
// ok=false when the user dismissed it.
func (f *flow) pick(ctx context.Context, t *title, choices []string) (int, bool, error) {
	if ctx.Err() != nil {
		return 0, false, context.Cause(ctx)
	}
	shown := uniqueChoices(choices)
	c, ok, err := f.sel.Select(ctx, t.render(""), shown)
	if ctx.Err() != nil {
		return 0, false, context.Cause(ctx)
	}
	if err != nil || !ok {
		return 0, false, err
	}
	i := slices.Index(shown, c)
	if i < 0 {
		return 0, false, fmt.Errorf("native: the selector returned %q, which is not one of its choices", c)
	}
	return i, true, nil
}

func (f *flow) question(ctx context.Context, i int) (contract.Answer, bool, error) {
	q := &f.req.Questions[i]
	a := newAnswer(f.req, i)
	t := f.questionTitle(i)
	var ok bool
	var err error
	switch q.Kind {
	case contract.KindSingle, contract.KindMulti:
		ok, err = f.choice(ctx, q, t, &a)
	case contract.KindInput:
		ok, err = f.input(ctx, q, t, &a)
	case contract.KindBool:
		ok, err = f.boolean(ctx, q, t, &a)
	case contract.KindForm:
		ok, err = f.form(ctx, q, t, &a)
	default:
		err = fmt.Errorf("native: questions[%d] has unknown kind %q", i, q.Kind)
	}
	return a, ok, err
}

func (f *flow) choice(ctx context.Context, q *contract.Question, t *title, a *contract.Answer) (bool, error) {
	multi := q.Kind == contract.KindMulti
	def, hasDef := choiceDefault(q)
	if !f.free && !multi {
		if def != nil {
			t.defaultLine("Default: " + q.Options[def.Numbers[0]-1].Label)
		}
		return f.selectSingle(ctx, q, t, a, def)
	}
	t.options(q.Options)
	if def != nil {
		t.defaultLine(describeChoiceDefault(q, def))
	}
	placeholder := "number"
	switch {
	case f.free && multi:
		placeholder = "numbers, numbers | note, or your own answer"
		t.hint("Type option numbers (such as 1,3), add a note after | (1,3 | note), or type your own answer.")
	case f.free:
		placeholder = "number, number | note, or your own answer"
		t.hint("Type an option number, a number and a note (2 | note), or your own answer.")
	default:
		placeholder = "numbers, such as 1,3"
		t.hint("Type option numbers, such as 1,3.")
	}
	return f.box(ctx, t, placeholder, func(reply string) error {
		c, err := ParseChoice(reply, len(q.Options), multi, f.free)
		if errors.Is(err, ErrEmpty) && hasDef {
			*a = withChoice(*a, q, *def)
			a.UsedDefault = true
			return nil
		}
		if err != nil {
			return err
		}
		*a = withChoice(*a, q, c)
		a.UsedDefault = hasDef && sameChoice(*a, withChoice(*a, q, *def))
		return nil
	})
}

func (f *flow) selectSingle(ctx context.Context, q *contract.Question, t *title, a *contract.Answer, def *Choice) (bool, error) {
	var choices []string
	if def != nil {
		choices = append(choices, "Keep default: "+q.Options[def.Numbers[0]-1].Label)
	}
	choices = append(choices, optionChoices(q.Options)...)
	i, ok, err := f.pick(ctx, t, choices)
	if err != nil || !ok {
		return false, err
	}
	if def != nil {
		if i == 0 {
			*a = withChoice(*a, q, *def)
			a.UsedDefault = true
			return true, nil
		}
		i--
	}
	*a = withChoice(*a, q, Choice{Numbers: []int{i + 1}})
	a.UsedDefault = def != nil && def.Numbers[0] == i+1
	return true, nil
}

func (f *flow) input(ctx context.Context, q *contract.Question, t *title, a *contract.Answer) (bool, error) {
	def, hasDef := q.TextDefault()
	if hasDef {
		t.defaultLine(fmt.Sprintf("Default: %s (press Enter to keep it)", def))
	}
	t.hint("Type your answer.")
	return f.box(ctx, t, "your answer", func(reply string) error {
		s, err := ParseText(reply)
		if errors.Is(err, ErrEmpty) && hasDef {
			s, err = strings.TrimSpace(def), nil
		}
		if err != nil {
			return err
		}
		a.FreeText = s
		a.UsedDefault = hasDef && s == strings.TrimSpace(def)
		return nil
	})
}

func (f *flow) boolean(ctx context.Context, q *contract.Question, t *title, a *contract.Answer) (bool, error) {
	var def *bool
	if q.Default != nil {
		if b, ok := q.Default.Bool(); ok {
			def = &b
		}
	}
	b, set, ok, err := f.askBool(ctx, t, def, false)
	if err != nil || !ok {
		return false, err
	}
	if !set {
		return false, errors.New("native: a required bool was left unset")
	}
	a.Value = &contract.AnswerValue{Bool: b}
	a.UsedDefault = def != nil && *def == b
	return true, nil
}

// askBool asks for a boolean in a box, or with a True/False selector when
// free text is off. set is false when an optional field was skipped.
func (f *flow) askBool(ctx context.Context, t *title, def *bool, optional bool) (b, set, ok bool, err error) {
	if def != nil {
		t.defaultLine(fmt.Sprintf("Default: %s", boolWord(*def)))
	}
	if !f.free {
		var choices []string
		if def != nil {
			choices = append(choices, "Keep default: "+boolWord(*def))
		}
		choices = append(choices, "True", "False")
		if optional && def == nil {
			choices = append(choices, skipChoice)
		}
		i, ok, err := f.pick(ctx, t, choices)
		if err != nil || !ok {
			return false, false, false, err
		}
		if def != nil {
			if i == 0 {
				return *def, true, true, nil
			}
			i--
		}
		if i == 2 {
			return false, false, true, nil
		}
		return i == 0, true, true, nil
	}
	switch {
	case def != nil:
		t.hint("Type true or false, or press Enter to keep the default.")
	case optional:
		t.hint("Type true or false, or press Enter to leave it unset.")
	default:
		t.hint("Type true or false.")
	}
	ok, err = f.box(ctx, t, "true or false", func(reply string) error {
		v, err := ParseBool(reply)
		switch {
		case errors.Is(err, ErrEmpty) && def != nil:
			b, set = *def, true
			return nil
		case errors.Is(err, ErrEmpty) && optional:
			set = false
			return nil
		case err != nil:
			return err
		}
		b, set = v, true
		return nil
	})
	return b, set, ok, err
}

func (f *flow) form(ctx context.Context, q *contract.Question, t *title, a *contract.Answer) (bool, error) {
	entries := []contract.FormEntry{}
	used := false
	for j := range q.Fields {
		fld := &q.Fields[j]
		ft := t.field(j, len(q.Fields), fld)
		v, fromDef, set, ok, err := f.field(ctx, fld, ft)
		if err != nil || !ok {
			return false, err
		}
		if set {
			entries = append(entries, contract.FormEntry{Name: fld.Name, Value: v})
			used = used || fromDef
		}
	}
	a.Value = &contract.AnswerValue{IsForm: true, Form: entries}
	a.UsedDefault = used
	return true, nil
}

// field asks one form field. set is false when an optional field was left
// empty; fromDef is true when the value equals the field's default.
func (f *flow) field(ctx context.Context, fld *contract.Field, t *title) (v contract.Value, fromDef, set, ok bool, err error) {
	def, hasDef := fld.EffectiveDefault()
	optional := !fld.Required
	if fld.Kind == contract.KindBool {
		var bdef *bool
		if hasDef {
			b, _ := def.Bool()
			bdef = &b
		}
		b, set, ok, err := f.askBool(ctx, t, bdef, optional)
		if err != nil || !ok || !set {
			return contract.Value{}, false, false, ok, err
		}
		return contract.BoolValue(b), bdef != nil && *bdef == b, true, true, nil
	}
	if fld.Kind == contract.KindSingle && !f.free {
		if hasDef {
			s, _ := def.String()
			t.defaultLine("Default: " + s)
		}
		return f.selectField(ctx, fld, t, def, hasDef)
	}
	if fld.Kind == contract.KindSingle || fld.Kind == contract.KindMulti {
		t.options(fld.Options)
	}
	if hasDef {
		t.defaultLine(describeFieldDefault(fld, def))
	}
	var placeholder string
	switch fld.Kind {
	case contract.KindSingle:
		placeholder = "number"
		t.hint("Type an option number" + emptyHint(hasDef, optional) + ".")
	case contract.KindMulti:
		placeholder = "numbers, such as 1,3"
		t.hint("Type option numbers, such as 1,3" + emptyHint(hasDef, optional) + ".")
	case contract.KindInput:
		placeholder = "text"
		t.hint("Type your answer" + emptyHint(hasDef, optional) + ".")
	default:
		return contract.Value{}, false, false, false, fmt.Errorf("native: field %q has unknown kind %q", fld.Name, fld.Kind)
	}
	ok, err = f.box(ctx, t, placeholder, func(reply string) error {
		var got contract.Value
		var err error
		switch fld.Kind {
		case contract.KindInput:
			var s string
			s, err = ParseText(reply)
			got = contract.StringValue(s)
		default:
			var c Choice
			c, err = ParseChoice(reply, len(fld.Options), fld.Kind == contract.KindMulti, false)
			got = choiceValue(fld, c.Numbers)
		}
		switch {
		case errors.Is(err, ErrEmpty) && hasDef:
			v, fromDef, set = def, true, true
			return nil
		case errors.Is(err, ErrEmpty) && optional:
			set = false
			return nil
		case errors.Is(err, ErrEmpty):
			return errRequired
		case err != nil:
			return err
		}
		v, fromDef, set = got, hasDef && got.Equal(def), true
		return nil
	})
	return v, fromDef, set, ok, err
}

func (f *flow) selectField(ctx context.Context, fld *contract.Field, t *title, def contract.Value, hasDef bool) (contract.Value, bool, bool, bool, error) {
	var choices []string
	if hasDef {
		s, _ := def.String()
		choices = append(choices, "Keep default: "+s)
	}
	choices = append(choices, optionChoices(fld.Options)...)
	skip := !fld.Required && !hasDef
	if skip {
		choices = append(choices, skipChoice)
	}
	i, ok, err := f.pick(ctx, t, choices)
	if err != nil || !ok {
		return contract.Value{}, false, false, false, err
	}
	if hasDef {
		if i == 0 {
			return def, true, true, true, nil
		}
		i--
	}
	if skip && i == len(fld.Options) {
		return contract.Value{}, false, false, true, nil
	}
	v := contract.StringValue(fld.Options[i].Label)
	return v, hasDef && v.Equal(def), true, true, nil
}

const skipChoice = "Skip (leave unset)"

func emptyHint(hasDef, optional bool) string {
	switch {
	case hasDef:
		return ", or press Enter to keep the default"
	case optional:
		return ", or press Enter to leave it unset"
	}
	return ""
}

func boolWord(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// newAnswer returns the answer to question i with only its identity set.
func newAnswer(req *contract.Request, i int) contract.Answer {
	q := &req.Questions[i]
	return contract.Answer{Index: i, ID: q.ID, Title: q.Title, Kind: q.Kind, Selections: []string{}}
}

// withChoice returns a with the selections and free text of c.
func withChoice(a contract.Answer, q *contract.Question, c Choice) contract.Answer {
	a.Selections = make([]string, 0, len(c.Numbers))
	for _, n := range c.Numbers {
		a.Selections = append(a.Selections, q.Options[n-1].Label)
	}
	a.FreeText = c.Note
	if len(c.Numbers) == 0 {
		a.FreeText = c.FreeText
	}
	return a
}

func sameChoice(x, y contract.Answer) bool {
	return slices.Equal(x.Selections, y.Selections) && x.FreeText == y.FreeText
}

// choiceDefault returns the default of a single or multi question as the
// reply it stands for: the option whose label equals it, or else free text.
func choiceDefault(q *contract.Question) (*Choice, bool) {
	i, free, ok := q.ChoiceDefault()
	switch {
	case !ok:
		return nil, false
	case i >= 0:
		return &Choice{Numbers: []int{i + 1}}, true
	}
	return &Choice{FreeText: free}, true
}

func describeChoiceDefault(q *contract.Question, def *Choice) string {
	if len(def.Numbers) > 0 {
		n := def.Numbers[0]
		return fmt.Sprintf("Default: %d (%s), press Enter to keep it", n, q.Options[n-1].Label)
	}
	return fmt.Sprintf("Default: %s (press Enter to keep it)", def.FreeText)
}

func describeFieldDefault(fld *contract.Field, def contract.Value) string {
	if list, ok := def.Strings(); ok {
		var nums []string
		for _, l := range list {
			i := slices.IndexFunc(fld.Options, func(o contract.Option) bool { return o.Label == l })
			nums = append(nums, fmt.Sprintf("%d (%s)", i+1, l))
		}
		return "Default: " + strings.Join(nums, ", ")
	}
	s, _ := def.String()
	if fld.Kind == contract.KindSingle {
		i := slices.IndexFunc(fld.Options, func(o contract.Option) bool { return o.Label == s })
		return fmt.Sprintf("Default: %d (%s)", i+1, s)
	}
	return "Default: " + s
}

// choiceValue is the value of a choice field answered with option numbers.
func choiceValue(fld *contract.Field, nums []int) contract.Value {
	labels := make([]string, 0, len(nums))
	for _, n := range nums {
		labels = append(labels, fld.Options[n-1].Label)
	}
	if fld.Kind == contract.KindSingle {
		if len(labels) == 0 {
			return contract.Value{}
		}
		return contract.StringValue(labels[0])
	}
	return contract.StringsValue(labels...)
}

func optionChoices(opts []contract.Option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Label
		if o.Description != "" {
			out[i] += " — " + o.Description
		}
	}
	return out
}

// uniqueChoices numbers the choices when two of them read the same, so
// that the one chosen can be told apart.
func uniqueChoices(choices []string) []string {
	seen := make(map[string]bool, len(choices))
	for _, c := range choices {
		if seen[c] {
			out := make([]string, len(choices))
			for i, c := range choices {
				out[i] = fmt.Sprintf("%d. %s", i+1, c)
			}
			return out
		}
		seen[c] = true
	}
	return choices
}

// title is the text of one dialog's title, built in parts: what is being
// asked, the numbered options, the default and a short hint. A rejected
// reply adds the reason as its first line.
type title struct {
	head []string
	opts []string
	def  string
	tip  string
}

func (f *flow) questionTitle(i int) *title {
	q := &f.req.Questions[i]
	t := &title{}
	if f.req.Header != "" {
		t.head = append(t.head, f.req.Header)
	}
	if n := len(f.req.Questions); n > 1 {
		t.head = append(t.head, fmt.Sprintf("Question %d of %d: %s", i+1, n, q.Title))
	} else {
		t.head = append(t.head, q.Title)
	}
	if q.Prompt != "" {
		t.head = append(t.head, q.Prompt)
	}
	return t
}

// field returns the title of field j of n of the form t asks.
func (t *title) field(j, n int, fld *contract.Field) *title {
	need := "optional"
	if fld.Required {
		need = "required"
	}
	head := append(t.head[:len(t.head):len(t.head)], fmt.Sprintf("Field %d of %d: %s (%s)", j+1, n, fld.Label, need))
	return &title{head: head}
}

func (t *title) options(opts []contract.Option) {
	t.opts = t.opts[:0]
	for i, o := range opts {
		line := fmt.Sprintf("  %d. %s", i+1, o.Label)
		if o.Description != "" {
			line += " — " + o.Description
		}
		t.opts = append(t.opts, line)
	}
}

func (t *title) defaultLine(s string) { t.def = s }

func (t *title) hint(s string) { t.tip = s }

// render joins the title's lines, with why, when set, first.
func (t *title) render(why string) string {
	var b strings.Builder
	if why != "" {
		b.WriteString("Not accepted: ")
		b.WriteString(why)
		b.WriteString(".\n")
	}
	for _, part := range [][]string{t.head, t.opts, {t.def, t.tip}} {
		for _, l := range part {
			if l == "" {
				continue
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
